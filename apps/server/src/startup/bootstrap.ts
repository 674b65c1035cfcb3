import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { ADVISORY_LOCKS, withAdvisoryLock } from '../db/advisory-lock.js';
import type { Db } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { ensureTerms } from '../modules/terms/bootstrap.js';
import { createServices } from '../services.js';
import { seedDemoDriver } from './demo-seed.js';

/**
 * Everything the start does before listening: migrations, first terms, demo data. Several
 * instances starting at once on one PostgreSQL database take turns (advisory lock): the first
 * does the work, the others find it done.
 */
export async function prepareDatabase(config: Config, db: Db, log: FastifyBaseLogger): Promise<void> {
  await withAdvisoryLock(db, ADVISORY_LOCKS.firstStart, (locked) => prepareUnlocked(config, locked, log));
}

async function prepareUnlocked(config: Config, db: Db, log: FastifyBaseLogger): Promise<void> {
  const applied = await migrateToLatest(db);
  if (applied.length > 0) log.info({ migrations: applied }, 'migrações aplicadas');
  const services = createServices(config, db, log);
  if (await ensureTerms(services.terms)) log.info('termos de uso MODELO publicados (versão 1)');
  if (config.demoSeed) await seedDemoDriver(db, services, log, config);
}
