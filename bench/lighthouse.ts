import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../e2e/chromium.js';
import { median, startPortal, stop, waitForHttp } from './lib.js';

/** The demo driver of the seed (founding architecture §3), with its tags and vehicles. */
const demoDriver = { cpfCnpj: '52998224725', password: 'motorista123' };

/** Every screen of spec §2 (the driver signed in), on the demo driver's data: an active tag on RIO2A18, an editable one on MGA1234. */
export const LIGHTHOUSE_SCREENS = [
  '/login',
  '/registrar',
  '/dashboard',
  '/saldo/retirar',
  '/saldo/comprar',
  // Decision 58: the recurring top-up by Pix Automático (the demo driver has none: its form).
  '/saldo/recarga-automatica',
  '/tags/listar',
  '/tags/adicionar',
  '/tags/detalhes/RIO2A18',
  '/tags/editar/MGA1234',
  '/veiculos/listar',
  '/vpos/listar',
  '/extrato/listar',
  // Decisions 56 and 57: the contests list and the settings (push notifications).
  '/contestacoes',
  '/configuracoes',
] as const;

export interface LighthouseFigures {
  performance: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  /** Bytes transferred (Lighthouse's total-byte-weight). */
  bytes: number;
  /** Lighthouse's measure of the host's CPU during the run (BenchmarkIndex). */
  benchmarkIndex: number;
}

export interface LighthouseScreen extends LighthouseFigures {
  path: string;
  runs: LighthouseFigures[];
}

export interface LighthouseResult {
  lighthouseVersion: string;
  screens: LighthouseScreen[];
  /** The same screens on another checkout's build, measured in the same run (BENCH_LIGHTHOUSE_BASELINE). */
  baseline?: { checkout: string; screens: LighthouseScreen[] };
  /** /dashboard again after a first visit (no storage reset): from the service worker when the build has one. */
  repeatDashboard: LighthouseScreen & { servedByServiceWorker: boolean };
}

const audit = (lhr: Result, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;

function figures(lhr: Result): LighthouseFigures {
  return {
    performance: lhr.categories.performance?.score ?? Number.NaN,
    lcpMs: audit(lhr, 'largest-contentful-paint'),
    tbtMs: audit(lhr, 'total-blocking-time'),
    fcpMs: audit(lhr, 'first-contentful-paint'),
    bytes: audit(lhr, 'total-byte-weight'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

/** The median run by performance score, with every run kept. */
function summarise(pathname: string, runs: LighthouseFigures[]): LighthouseScreen {
  const score = median(runs.map((r) => r.performance));
  const chosen = [...runs].sort((a, b) => Math.abs(a.performance - score) - Math.abs(b.performance - score))[0]!;
  return {
    path: pathname,
    ...chosen,
    performance: score,
    lcpMs: median(runs.map((r) => r.lcpMs)),
    tbtMs: median(runs.map((r) => r.tbtMs)),
    runs,
  };
}

/**
 * BENCH_LIGHTHOUSE_REPORTS=<folder> keeps every run's whole report there (<screen>-<time>.json): its
 * long tasks, script boot-up times and main-thread breakdown say where the blocking time goes.
 */
async function keepReport(lhr: Result): Promise<void> {
  const folder = process.env.BENCH_LIGHTHOUSE_REPORTS;
  if (!folder) return;
  await mkdir(folder, { recursive: true });
  const screen = new URL(lhr.finalDisplayedUrl).pathname.replace(/^\/|\/$/g, '').replaceAll('/', '_') || 'root';
  await writeFile(path.join(folder, `${screen}-${Date.now()}.json`), JSON.stringify(lhr));
}

/**
 * Lighthouse's defaults: mobile (Moto G Power screen), simulated throttling of "slow 4G" (150 ms RTT,
 * 1.6 Mbps) and a 4x CPU slowdown. Each run clears the HTTP cache, the service workers and the
 * Cache Storage of the origin, but keeps localStorage, where the signed-in session lives.
 */
async function runLighthouse(
  url: string,
  port: number,
  extra: Flags = {},
  attempt = 1,
): Promise<{ lhr: Result; figures: LighthouseFigures }> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...extra });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) {
    // A trace that Chromium failed to record (NO_NAVSTART, NO_FCP on a busy machine): try again.
    if (attempt < 3) return runLighthouse(url, port, extra, attempt + 1);
    throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  const finalUrl = lhr.finalDisplayedUrl;
  if (new URL(finalUrl).pathname !== new URL(url).pathname) throw new Error(`Lighthouse on ${url} ended on ${finalUrl}`);
  await keepReport(lhr);
  return { lhr, figures: figures(lhr) };
}

/**
 * The demo driver's session, signed in through the API with the terms accepted, as the app keeps it
 * in localStorage (lib/storage.ts).
 */
export async function demoSession(origin: string): Promise<Record<string, string>> {
  const login = await fetch(`${origin}/api/tokens/login-motorista`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(demoDriver),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const { Token, Data } = (await login.json()) as { Token: string; Data: { id: number; name: string; cpfCnpj: string } };
  const accept = await fetch(`${origin}/api/termos/aceitar`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${Token}` },
    body: '{}',
  });
  if (!accept.ok) throw new Error(`terms: ${accept.status} ${await accept.text()}`);
  return { token: Token, user_data: JSON.stringify({ id: Data.id, name: Data.name, cpfCnpj: Data.cpfCnpj }), aceite_termo: 'aceito' };
}

/** Signs the demo driver in and stores the session in the browser's localStorage exactly as the app does. */
async function signInBrowser(browser: Browser, origin: string): Promise<void> {
  const session = await demoSession(origin);
  const context = browser.contexts()[0];
  if (!context) throw new Error('Chromium has no default context');
  const page = await context.newPage();
  await page.goto(`${origin}/favicon.svg`);
  await page.evaluate((stored) => {
    for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
  }, session);
  await page.close();
}

/** A first visit to /dashboard that lets the service worker install and take control (if the build has one). */
async function firstVisit(browser: Browser, url: string): Promise<boolean> {
  const context = browser.contexts()[0]!;
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  // The app registers its worker after `load`; a build without one never gets ready.
  const ready = await page.evaluate(() =>
    'serviceWorker' in navigator
      ? Promise.race([
          navigator.serviceWorker.ready.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
        ])
      : false,
  );
  if (ready) {
    // The first page load is not controlled yet; a reload is, once the worker is active.
    await page.reload({ waitUntil: 'load' });
  }
  const isControlled = await page.evaluate(
    () => navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined,
  );
  await page.close();
  return isControlled;
}

/** One portal Lighthouse measures: this checkout's build, or another checkout's (the baseline). */
interface MeasuredPortal {
  origin: string;
  server: ReturnType<typeof startPortal>;
  dataDir: string;
}

async function startMeasuredPortal(port: number, checkout?: string): Promise<MeasuredPortal> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-lighthouse-'));
  // Production mode with the demo driver's history (created through the real services).
  const server = startPortal(
    port,
    path.join(dataDir, 'portal.sqlite'),
    'warn',
    { DEMO_SEED: 'true', LOGIN_MAX_PER_ADDRESS: '1000' },
    checkout ? path.join(checkout, 'apps/server/dist/main.js') : undefined,
  );
  return { origin: `http://127.0.0.1:${port}`, server, dataDir };
}

/**
 * Every screen, `runs` times. With `baselineCheckout` (BENCH_LIGHTHOUSE_BASELINE: another checkout of
 * the portal, installed and built), that build is served beside this one and each screen is measured
 * on both in the same run, alternating run by run and which goes first, so that both see the same
 * machine: Lighthouse's absolute score moves with the host's load, the comparison does not.
 */
export async function benchLighthouse(runs = 3, baselineCheckout?: string): Promise<LighthouseResult> {
  const portals = [await startMeasuredPortal(3204)];
  if (baselineCheckout) portals.push(await startMeasuredPortal(3205, baselineCheckout));
  const [current, baseline] = portals as [MeasuredPortal, MeasuredPortal | undefined];
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  let browser: Browser | undefined;
  try {
    const userDataDir = path.join(current.dataDir, 'chromium');
    await mkdir(userDataDir);
    chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: ['--headless=new', ...chromiumArgs], userDataDir });
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    let lighthouseVersion = '';
    for (const portal of portals) {
      await waitForHttp(`${portal.origin}/api/health`);
      await signInBrowser(browser, portal.origin);
      // One unmeasured load warms the server (its first queries, the files read from disk).
      lighthouseVersion = (await runLighthouse(`${portal.origin}/dashboard`, chrome.port)).lhr.lighthouseVersion;
    }
    const screens: LighthouseScreen[] = [];
    const baselineScreens: LighthouseScreen[] = [];
    // BENCH_LIGHTHOUSE_SCREENS=/dashboard,/login measures only those (while working on one screen).
    const only = process.env.BENCH_LIGHTHOUSE_SCREENS?.split(',').filter(Boolean);
    for (const screen of LIGHTHOUSE_SCREENS.filter((s) => !only || only.includes(s))) {
      const measured: LighthouseFigures[] = [];
      const measuredBaseline: LighthouseFigures[] = [];
      const port = chrome.port;
      for (let i = 0; i < runs; i++) {
        const measureCurrent = async () => measured.push((await runLighthouse(`${current.origin}${screen}`, port)).figures);
        const measureBaseline = async () => {
          if (baseline) measuredBaseline.push((await runLighthouse(`${baseline.origin}${screen}`, port)).figures);
        };
        // Each build goes first in every other run: the place in a pair is not neutral (the same build
        // on both sides differed by up to 0.03 either way), and it must not always fall to one build.
        if (i % 2 === 0) {
          await measureCurrent();
          await measureBaseline();
        } else {
          await measureBaseline();
          await measureCurrent();
        }
      }
      const summary = summarise(screen, measured);
      screens.push(summary);
      const before = baseline ? summarise(screen, measuredBaseline) : undefined;
      if (before) baselineScreens.push(before);
      console.log(
        `  ${screen}: performance ${summary.performance.toFixed(2)}, LCP ${summary.lcpMs.toFixed(0)} ms, TBT ${summary.tbtMs.toFixed(0)} ms` +
          (before
            ? ` (baseline ${before.performance.toFixed(2)}, LCP ${before.lcpMs.toFixed(0)} ms, TBT ${before.tbtMs.toFixed(0)} ms)`
            : ''),
      );
    }
    const repeat: LighthouseFigures[] = [];
    let servedByServiceWorker = false;
    for (let i = 0; i < runs; i++) {
      servedByServiceWorker = await firstVisit(browser, `${current.origin}/dashboard`);
      repeat.push((await runLighthouse(`${current.origin}/dashboard`, chrome.port, { disableStorageReset: true })).figures);
    }
    return {
      lighthouseVersion,
      screens,
      ...(baseline ? { baseline: { checkout: baselineCheckout!, screens: baselineScreens } } : {}),
      repeatDashboard: { ...summarise('/dashboard (repeat visit)', repeat), servedByServiceWorker },
    };
  } finally {
    await browser?.close().catch(() => undefined);
    chrome?.kill();
    for (const portal of portals) {
      await stop(portal.server);
      await rm(portal.dataDir, { recursive: true, force: true });
    }
  }
}
