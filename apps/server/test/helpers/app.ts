import { Writable } from 'node:stream';
import { cpf } from 'cpf-cnpj-validator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import webpush from 'web-push';
import type { PixProvider } from '../../src/adapters/pix/port.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Config } from '../../src/config.js';
import type { Db, Dialect } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createLogger } from '../../src/logger.js';
import { ensureTerms } from '../../src/modules/terms/bootstrap.js';
import { TermsService } from '../../src/modules/terms/service.js';
import { createTestDatabase } from './databases.js';
import type { TestDatabase } from './databases.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** Every log line written so far. */
  logs: string[];
}

/**
 * Cheap argon2 for tests; production keeps the secure defaults. Every test registers its drivers
 * and sends its webhooks and partner calls from 127.0.0.1, so the request limits are out of the
 * way here; their own tests (security/rate-limits.test.ts) set them low. The sign-in limits stay real.
 */
export const TEST_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'info',
  DEMO_SEED: 'false',
  ARGON2_MEMORY_KIB: '256',
  ARGON2_TIME_COST: '1',
  WEB_DIST: '/nonexistent/web/dist',
  REGISTRATION_MAX_PER_ADDRESS: '1000000',
  WEBHOOK_MAX_PER_ADDRESS: '1000000',
  PARTNER_MAX_PER_KEY: '1000000',
  PARTNER_MAX_PER_ADDRESS: '1000000',
  // Per-driver call limits (issue 21) are out of the way too; modules/payouts/protection.test.ts sets them low.
  WITHDRAWALS_PER_HOUR: '1000000',
  PIX_CHARGES_PER_HOUR: '1000000',
  PIX_CHARGES_PENDING_MAX: '1000000',
  // The night limit would make the suite depend on the hour it runs: modules/payouts/protection.test.ts sets its own clock and limits.
  PAYOUT_LIMIT_PER_WITHDRAWAL_DEFAULT: '50000',
  PAYOUT_LIMIT_DAILY_DEFAULT: '100000',
  PAYOUT_LIMIT_NIGHT_DEFAULT: '100000',
};

const vapid = webpush.generateVAPIDKeys();
/**
 * Decision 57: production requires its own VAPID key pair and contact; tests that start production
 * add these (a pair generated per run, so none the repository ships).
 */
export const TEST_VAPID_ENV = {
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
  VAPID_SUBJECT: 'mailto:operacao@portaldomotorista.com.br',
};

/** Decision 72: production requires the encarregado (LGPD art. 41) the privacy notice names. */
export const TEST_PRIVACY_OFFICER_ENV = {
  PRIVACY_OFFICER_NAME: 'Ana Encarregada Teste',
  PRIVACY_OFFICER_EMAIL: 'privacidade@portaldomotorista.com.br',
};

/** A fresh, migrated database and the configuration of an app over it. */
export async function openTestDatabase(
  dialect: Dialect,
  env: Record<string, string> = {},
): Promise<{ database: TestDatabase; config: Config; db: Db }> {
  const database = await createTestDatabase(dialect);
  const config = loadConfig({ ...TEST_ENV, ...env, DATABASE_URL: database.url });
  const db = database.open();
  await migrateToLatest(db);
  return { database, config, db };
}

/**
 * A fresh, migrated database opened twice, as two instances of the portal each see it through their
 * own pool (beforeAll/afterAll); the returned getter is valid inside tests.
 */
export function useTwoInstancesDatabase(dialect: Dialect): () => { config: Config; dbs: [Db, Db] } {
  let opened: { database: TestDatabase; config: Config; dbs: [Db, Db] } | null = null;
  beforeAll(async () => {
    const { database, config, db } = await openTestDatabase(dialect);
    opened = { database, config, dbs: [db, database.open()] };
  });
  afterAll(async () => {
    for (const db of opened?.dbs ?? []) await db.kysely.destroy();
    await opened?.database.drop();
  });
  return () => {
    if (!opened) throw new Error('useTwoInstancesDatabase: database not ready');
    return opened;
  };
}

/** The addresses the driver's data was downloaded from, one per download recorded (issue 35: each is an access). */
export async function recordedDownloads(db: Db, driverId: number): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('access_records')
    .select('ip_address')
    .where('driver_id', '=', driverId)
    .where('action', '=', 'dados-baixados')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.ip_address);
}

/** A fresh database and app per test file (beforeAll/afterAll); the returned getter is valid inside tests. */
export function useTestApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  options: { skipTerms?: boolean; pixProvider?: PixProvider } = {},
): () => TestApp {
  let ctx: TestApp | null = null;
  let drop: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    const { database, config, db } = await openTestDatabase(dialect, env);
    drop = database.drop;
    if (!options.skipTerms) await ensureTerms(new TermsService(db.kysely));
    const logs: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const app = await buildApp({ config, db, logger: createLogger(config.logLevel, sink), pixProvider: options.pixProvider });
    ctx = { app, db, config, logs };
  });
  afterAll(async () => {
    if (ctx) {
      await ctx.app.close();
      await ctx.db.kysely.destroy();
    }
    await drop?.();
  });
  return () => {
    if (!ctx) throw new Error('useTestApp: app not ready');
    return ctx;
  };
}

export const newCpf = (): string => cpf.generate();

export interface Registered {
  id: number;
  token: string;
  cpfCnpj: string;
  password: string;
}

/**
 * A new driver through the registration call who, as every driver who moves money or changes a
 * tag must (founding decision 27), accepted the current terms; `acceptTerms: false` leaves them undecided.
 */
export async function registerDriver(
  app: FastifyInstance,
  overrides: Record<string, string> = {},
  options: { acceptTerms?: boolean } = {},
): Promise<Registered> {
  const body = {
    name: 'Maria das Graças Souza',
    cpfCnpj: newCpf(),
    phoneNumber: '(11) 98765-4321',
    password: 'segredo123',
    password_confirmation: 'segredo123',
    type: 'driver',
    ...overrides,
  };
  const res = await app.inject({ method: 'POST', url: '/api/user/create-user', payload: body });
  if (res.statusCode !== 201) throw new Error(`cadastro falhou: ${res.statusCode} ${res.body}`);
  const json = res.json<{ Token: string; User: { id: number; cpfCnpj: string } }>();
  if (options.acceptTerms ?? true) {
    const accepted = await app.inject({ method: 'POST', url: '/api/termos/aceitar', headers: bearer(json.Token) });
    if (accepted.statusCode !== 200) throw new Error(`aceite dos termos falhou: ${accepted.statusCode} ${accepted.body}`);
  }
  return { id: json.User.id, token: json.Token, cpfCnpj: json.User.cpfCnpj, password: body.password };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json<T>();
}
