import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import type { Db } from '../apps/server/src/db/connection.js';
import { openDb } from '../apps/server/src/db/connection.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { benchWebhookToken } from './lib.js';

export interface BenchApp {
  dir: string;
  db: Db;
  app: FastifyInstance;
  /** The bearer token and id of one registered driver. */
  token: string;
  driverId: number;
  close(): Promise<void>;
}

/** The server app in process (production settings, silent logs) on a fresh SQLite file, with one driver. */
export async function openBenchApp(name: string): Promise<BenchApp> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `portal-bench-${name}-`));
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      // Founding decision 28: the local Pix provider in production is a demonstration.
      DEMONSTRATION: 'true',
      DATABASE_URL: path.join(dir, 'portal.sqlite'),
      PIX_WEBHOOK_TOKEN: benchWebhookToken,
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'false',
      WEB_DIST: path.join(dir, 'no-web'),
    },
    dir,
  );
  const db = openDb(config.databaseUrl);
  await migrateToLatest(db);
  const app = await buildApp({ config, db });
  const close = async () => {
    await app.close();
    await db.kysely.destroy();
    await rm(dir, { recursive: true, force: true });
  };
  const registration = await app.inject({
    method: 'POST',
    url: '/api/user/create-user',
    payload: {
      name: 'Motorista Benchmark',
      cpfCnpj: '11144477735',
      phoneNumber: '11987654321',
      password: 'benchmark123',
      password_confirmation: 'benchmark123',
      type: 'driver',
    },
  });
  if (registration.statusCode !== 201) {
    await close();
    throw new Error(`registration failed: ${registration.statusCode} ${registration.body}`);
  }
  const { Token: token, User: user } = registration.json<{ Token: string; User: { id: number } }>();
  return { dir, db, app, token, driverId: user.id, close };
}
