import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './paths.js';

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await sleep(200);
  }
}

export function startProcess(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('exit', (code) => {
    // 143 = ended by our own SIGTERM (stop()); anything else non-zero is a failure to report.
    if (code && code !== 143) console.error(`${command} ${args.join(' ')} exited with ${code}`);
  });
  return child;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(5000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The built server in production mode on a fresh SQLite file, without demo data. */
export function startPortal(port: number, dataDir: string, logLevel: string): ChildProcess {
  return startProcess('node', [path.join(repoRoot, 'apps/server/dist/main.js')], {
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    PIX_WEBHOOK_TOKEN: 'bench-webhook-token-not-secret',
    DEMO_SEED: 'false',
    LOG_LEVEL: logLevel,
    DATABASE_URL: path.join(dataDir, 'portal.sqlite'),
  });
}
