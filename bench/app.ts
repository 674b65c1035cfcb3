import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import type { Db } from '../apps/server/src/db/connection.js';
import type { Database } from '../apps/server/src/db/schema.js';
import { openDb } from '../apps/server/src/db/connection.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { benchPrivacyOfficerEnv, benchVapidEnv, benchWebhookToken, createPostgresDatabase } from './lib.js';

export interface BenchApp {
  dir: string;
  db: Db;
  app: FastifyInstance;
  /** The bearer token and id of one registered driver. */
  token: string;
  driverId: number;
  close(): Promise<void>;
}

/**
 * The server app in process (production settings, silent logs) on a fresh SQLite file (or a fresh
 * PostgreSQL database), with one driver; `env` adds settings (raised request limits).
 */
export async function openBenchApp(
  name: string,
  options: { database?: 'sqlite' | 'postgres'; env?: Record<string, string> } = {},
): Promise<BenchApp> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `portal-bench-${name}-`));
  const pg = options.database === 'postgres' ? await createPostgresDatabase(`portal_bench_${name}`) : null;
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      // Founding decision 28: the local Pix provider in production is a demonstration.
      DEMONSTRATION: 'true',
      DATABASE_URL: pg?.url ?? path.join(dir, 'portal.sqlite'),
      PIX_WEBHOOK_TOKEN: benchWebhookToken,
      ...benchVapidEnv,
      ...benchPrivacyOfficerEnv,
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'false',
      WEB_DIST: path.join(dir, 'no-web'),
      ...options.env,
    },
    dir,
  );
  const db = openDb(config.databaseUrl);
  await migrateToLatest(db);
  const app = await buildApp({ config, db });
  const close = async () => {
    await app.close();
    await db.kysely.destroy();
    await pg?.drop();
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

/**
 * An active tag of `operatorCnpj` on a new vehicle of the driver, written straight to the database
 * (the benches measure passages, not registrations).
 */
export async function insertActiveTag(
  db: Kysely<Database>,
  driver: { id: number; document: string },
  tag: { serial: string; plate: string; operatorCnpj: string },
): Promise<void> {
  const now = new Date().toISOString();
  const vehicle = await db
    .insertInto('vehicles')
    .values({
      driver_id: driver.id,
      license_plate: tag.plate,
      cpf_cnpj_antt: driver.document,
      rntrc_antt: '12345678',
      axles: 3,
      vehicle_type: 2,
      model_id: 'scania-r-450',
      created_at: now,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('tags')
    .values({
      driver_id: driver.id,
      vehicle_id: vehicle.id,
      serial_number: tag.serial,
      operator_cnpj: tag.operatorCnpj,
      ownership_type: 'own',
      status_code: 100,
      activated_at: now,
      paid_through: null,
      created_at: now,
      deleted_at: null,
    })
    .execute();
}
