import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliTarget } from './fixtures.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A server of a journey's own, on a fresh SQLite database: its address and database, for the CLI too. */
export interface OwnServer extends CliTarget {
  stop(): Promise<void>;
}

/** The address of the server startOwnServer(offset) starts (known before, for test.use's baseURL). */
export function ownServerUrl(offset: number): string {
  return `http://127.0.0.1:${String(Number(process.env.E2E_PORT ?? 3100) + offset + Number(process.env.TEST_PARALLEL_INDEX ?? 0))}`;
}

/**
 * Starts the built server as the e2e server is started, on `offset` ports above E2E_PORT (plus the
 * worker's index: two workers never share one) and a database of its own, with `env` on top: a
 * journey that needs other settings than the shared server's (a push host accepted, a clock).
 */
export async function startOwnServer(offset: number, env: Record<string, string>): Promise<OwnServer> {
  const url = ownServerUrl(offset);
  const port = new URL(url).port;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-own-'));
  const database = path.join(dataDir, 'portal.sqlite');
  const server: ChildProcess = spawn('node', ['apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: port,
      HOST: '127.0.0.1',
      DATABASE_URL: database,
      NODE_ENV: 'development',
      DEMO_SEED: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`the server for this journey exited with ${String(server.exitCode)}`);
    }
    const up = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, database, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${url} did not answer within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
