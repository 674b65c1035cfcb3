import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromiumArgs, chromiumPath, viewports } from './chromium.js';

/** The journeys run on the phone; the rest run on the desktop. */
const PHONE_JOURNEYS = [
  'credit',
  'tags',
  'stolen-phone',
  'prerender',
  'dashboard-attention',
  'vpo-money',
  'contests',
  'what-the-driver-reads',
  'live-updates',
  'touch-targets',
  'safe-to-touch',
].map((name) => `**/${name}.spec.ts`);

const SLOW_PHONE = '**/slow-phone.spec.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.E2E_PORT ?? 3100);
// One database per port: two runs on two ports (E2E_PORT) never share a file.
const dataDir = path.join(root, 'e2e', port === 3100 ? '.data' : `.data-${port}`);

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results',
  // The journeys of one file in order, two files at a time (one per core) against the one server:
  // every journey registers its own drivers. 8.8 -> 7.1 minutes on the 2-core CI machine.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // Journeys are not benchmarks: the same suite ran 2.5x slower on one CI machine than on another
  // (every step, the landed code too), and a limit a slow machine crosses says nothing about the portal.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  // Decision 51: each journey runs once, on a phone or on a desktop (the suite split in two halves
  // of about the same time), and every screen it looks at (`look`) is photographed and checked by axe
  // at both widths. Journeys about a phone on the road run on the phone.
  projects: [
    // The longest file, its journeys one at a time (each is a slowed phone): started first.
    { name: 'slow-phone', testMatch: SLOW_PHONE, use: { viewport: viewports.desktop } },
    { name: 'phone', testMatch: PHONE_JOURNEYS, use: { viewport: viewports.phone, hasTouch: true, isMobile: true } },
    { name: 'desktop', testIgnore: [...PHONE_JOURNEYS, SLOW_PHONE], use: { viewport: viewports.desktop } },
  ],
  webServer: {
    // A real server on a fresh SQLite database, serving the built web app.
    command: `rm -rf "${dataDir}" && node apps/server/dist/main.js`,
    cwd: root,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: path.join(dataDir, 'portal.sqlite'),
      NODE_ENV: 'development',
      DEMO_SEED: 'true',
      LOG_LEVEL: 'warn',
      // Every journey registers its drivers from 127.0.0.1: room for all of them, limits stay on.
      REGISTRATION_MAX_PER_ADDRESS: '200',
    },
  },
});
