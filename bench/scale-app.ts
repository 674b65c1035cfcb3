import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import type { Config } from '../apps/server/src/config.js';
import { openDb } from '../apps/server/src/db/connection.js';
import type { Db } from '../apps/server/src/db/connection.js';
import { benchPrivacyOfficerEnv, benchVapidEnv, benchWebhookToken } from './lib.js';
import { LOAD_NO_LIMITS } from './load.js';

/**
 * The server's settings in production (a demonstration: founding decision 28), on `databaseUrl`,
 * silent, with the load bench's raised request limits (one address sends everything).
 */
export function scaleConfig(databaseUrl: string): Config {
  return loadConfig(
    {
      NODE_ENV: 'production',
      DEMONSTRATION: 'true',
      DATABASE_URL: databaseUrl,
      PIX_WEBHOOK_TOKEN: benchWebhookToken,
      ...benchVapidEnv,
      ...benchPrivacyOfficerEnv,
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'false',
      WEB_DIST: path.join(os.tmpdir(), 'portal-bench-scale-no-web'),
      ...LOAD_NO_LIMITS,
    },
    os.tmpdir(),
  );
}

export interface ScaleApp {
  config: Config;
  db: Db;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** The server app in process on an existing database (built by scale-fill.ts): what every call is measured through. */
export async function openScaleApp(databaseUrl: string): Promise<ScaleApp> {
  const config = scaleConfig(databaseUrl);
  const db = openDb(config.databaseUrl);
  const app = await buildApp({ config, db });
  return {
    config,
    db,
    app,
    close: async () => {
      await app.close();
      await db.kysely.destroy();
    },
  };
}
