import { spawn, type ChildProcess } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { repoRoot } from './paths.js';

export async function waitForHttp(url: string, timeoutMs = 30_000, headers: Record<string, string> = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { headers });
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

/** 44 characters, new each run: a webhook token must be at least 32, and none the repository ships (founding decision 28). */
export const benchWebhookToken = `bench-webhook-${randomBytes(15).toString('hex')}`;

/** Decision 57: production requires a VAPID pair (P-256) and contact; one generated per run. */
function vapidPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const secret = ecdh.getPrivateKey();
  // A leading zero byte is dropped by getPrivateKey: the key is always 32 bytes.
  const privateKey = Buffer.concat([Buffer.alloc(32 - secret.length), secret]).toString('base64url');
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey };
}
const benchVapid = vapidPair();
export const benchVapidEnv = {
  VAPID_PUBLIC_KEY: benchVapid.publicKey,
  VAPID_PRIVATE_KEY: benchVapid.privateKey,
  VAPID_SUBJECT: 'mailto:bench@portaldomotorista.com.br',
};
/** Decision 72: production names the encarregado (LGPD art. 41). */
export const benchPrivacyOfficerEnv = {
  PRIVACY_OFFICER_NAME: 'Encarregado do Bench',
  PRIVACY_OFFICER_EMAIL: 'bench@portaldomotorista.com.br',
};

/**
 * The built server in production mode on the given database (a SQLite path or a postgres:// URL),
 * without demo data; `env` adds to or overrides its settings (e.g. the request limits of a load test);
 * `main` starts another build instead (the load bench's variants).
 * A demonstration (founding decision 28): production refuses the local Pix provider and the demo driver without it.
 */
export function startPortal(
  port: number,
  databaseUrl: string,
  logLevel: string,
  env: Record<string, string> = {},
  main = path.join(repoRoot, 'apps/server/dist/main.js'),
): ChildProcess {
  return startProcess('node', [main], {
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    DEMONSTRATION: 'true',
    PIX_WEBHOOK_TOKEN: benchWebhookToken,
    ...benchVapidEnv,
    ...benchPrivacyOfficerEnv,
    DEMO_SEED: 'false',
    LOG_LEVEL: logLevel,
    DATABASE_URL: databaseUrl,
    ...env,
  });
}

/** PostgreSQL of the benches: BENCH_PG_URL names the admin database (the test server's by default). */
const postgresAdminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh PostgreSQL database for one bench run; drop() removes it. */
export async function createPostgresDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
