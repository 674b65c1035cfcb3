import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../e2e/chromium.js';
import { median, startPortal, stop, waitForHttp } from './lib.js';

/**
 * Chrome DevTools' "Slow 4G" preset, the request-level equivalent of Lighthouse's mobile
 * throttling (150 ms RTT and 1.6 Mbps, with DevTools' 3.75x latency and 0.9x throughput factors).
 */
const slow4g = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.4746 * 1024 * 1024) / 8,
  uploadThroughput: (0.675 * 1024 * 1024) / 8,
};

export interface LoginPageResult {
  scripts: { url: string; gzipBytes: number }[];
  styles: { url: string; gzipBytes: number }[];
  /** The HTML itself: the prerendered /login carries its CSS inline. */
  document: { url: string; gzipBytes: number }[];
  totalGzipBytes: number;
  lcpMs: number[];
  medianLcpMs: number;
}

async function measureAssets(browser: Browser, url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const assets: { url: string; type: string; gzipBytes: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet' && type !== 'document') return;
    pending.push(
      response.body().then((body) => {
        assets.push({ url: new URL(response.url()).pathname, type, gzipBytes: gzipSync(body, { level: 9 }).length });
      }),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  await context.close();
  return assets;
}

async function measureLcp(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 360, height: 800 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', slow4g);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  // The login form is rendered by the app after its code arrives: wait for it, then read LCP.
  await page.getByRole('button', { name: 'Entrar' }).waitFor({ timeout: 60_000 });
  const lcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let latest = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) latest = entry.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve(latest), 1500);
      }),
  );
  await context.close();
  if (!lcp) throw new Error('Chromium reported no Largest Contentful Paint');
  return lcp;
}

export async function benchLoginPage(runs = 5): Promise<LoginPageResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-web-'));
  const port = 3203;
  const server = startPortal(port, path.join(dataDir, 'portal.sqlite'), 'warn');
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/api/health`);
    const url = `http://127.0.0.1:${port}/login`;
    const assets = await measureAssets(browser, url);
    const lcpMs: number[] = [];
    for (let i = 0; i < runs; i++) lcpMs.push(await measureLcp(browser, url));
    return {
      scripts: assets.filter((a) => a.type === 'script'),
      styles: assets.filter((a) => a.type === 'stylesheet'),
      document: assets.filter((a) => a.type === 'document'),
      totalGzipBytes: assets.reduce((sum, a) => sum + a.gzipBytes, 0),
      lcpMs,
      medianLcpMs: median(lcpMs),
    };
  } finally {
    await browser.close();
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}
