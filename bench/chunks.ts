import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../e2e/chromium.js';
import { demoSession, LIGHTHOUSE_SCREENS } from './lighthouse.js';
import { startPortal, stop, waitForHttp } from './lib.js';
import { repoRoot } from './paths.js';

const run = promisify(execFile);

/** A build of the web app: all the chunk groups of vite.config.ts, none, or all but some. */
export interface ChunkVariant {
  label: string;
  /** PORTAL_CHUNK_GROUPS_LEFT_OUT: '' (all groups), '*' (none: Rolldown's own splitting) or names. */
  leftOut: string;
}

const CHUNK_VARIANTS: readonly ChunkVariant[] = [
  { label: "the app's groups", leftOut: '' },
  { label: "none (Rolldown's own)", leftOut: '*' },
  { label: 'without react-dom', leftOut: 'react-dom' },
  { label: 'without react-router', leftOut: 'react-router' },
  { label: 'without mantine-public', leftOut: 'mantine-public' },
  { label: 'without zod', leftOut: 'zod' },
  { label: 'without query', leftOut: 'query' },
];

export interface ScreenScripts {
  path: string;
  scripts: number;
  /** The scripts' precompressed .gz sizes, as the server sends them. */
  gzipBytes: number;
}

export interface ChunkVariantResult extends ChunkVariant {
  files: number;
  screens: ScreenScripts[];
  scripts: number;
  gzipBytes: number;
}

/** Every script a signed-in first visit of `screen` loads (no service worker), with its .gz size in `webDist`. */
async function screenScripts(
  browser: Browser,
  origin: string,
  screen: string,
  webDist: string,
  session: Record<string, string>,
): Promise<ScreenScripts> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await context.addInitScript((stored: Record<string, string>) => {
    for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
  }, session);
  const page = await context.newPage();
  const files: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') files.push(new URL(request.url()).pathname);
  });
  await page.goto(origin + screen, { waitUntil: 'networkidle' });
  await context.close();
  const gzipBytes = files.reduce(
    (sum, file) => sum + (statSync(path.join(webDist, `${file}.gz`), { throwIfNoEntry: false })?.size ?? 0),
    0,
  );
  return { path: screen, scripts: files.length, gzipBytes };
}

/**
 * Builds the web app once per variant (vite.config.ts's PORTAL_CHUNK_GROUPS_LEFT_OUT) and loads every
 * Lighthouse screen of each, signed in as the demo driver: how many scripts and how many bytes.
 */
export async function benchChunks(variants: readonly ChunkVariant[] = CHUNK_VARIANTS): Promise<ChunkVariantResult[]> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-chunks-'));
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const results: ChunkVariantResult[] = [];
  try {
    for (const [index, variant] of variants.entries()) {
      const webDist = path.join(work, `web-${index}`);
      await run('npx', ['vite', 'build', '--outDir', webDist, '--emptyOutDir', '--logLevel', 'error'], {
        cwd: path.join(repoRoot, 'apps/web'),
        env: { ...process.env, PORTAL_CHUNK_GROUPS_LEFT_OUT: variant.leftOut, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
        maxBuffer: 64 * 1024 * 1024,
      });
      const port = 3208;
      const origin = `http://127.0.0.1:${port}`;
      const server = startPortal(port, path.join(work, `portal-${index}.sqlite`), 'warn', {
        DEMO_SEED: 'true',
        LOGIN_MAX_PER_ADDRESS: '1000',
        WEB_DIST: webDist,
      });
      try {
        await waitForHttp(`${origin}/api/health`);
        const session = await demoSession(origin);
        const screens: ScreenScripts[] = [];
        for (const screen of LIGHTHOUSE_SCREENS) screens.push(await screenScripts(browser, origin, screen, webDist, session));
        const { stdout } = await run('sh', ['-c', `ls ${path.join(webDist, 'assets')}/*.js | wc -l`]);
        results.push({
          ...variant,
          files: Number(stdout.trim()),
          screens,
          scripts: screens.reduce((sum, s) => sum + s.scripts, 0),
          gzipBytes: screens.reduce((sum, s) => sum + s.gzipBytes, 0),
        });
      } finally {
        await stop(server);
      }
    }
  } finally {
    await browser.close();
    await rm(work, { recursive: true, force: true });
  }
  return results;
}
