import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { ADVISORY_LOCKS } from '../../../src/db/advisory-lock.js';
import type { Db } from '../../../src/db/connection.js';
import { createLogger } from '../../../src/logger.js';
import { Metrics } from '../../../src/metrics.js';
import { RetentionService } from '../../../src/modules/retention/service.js';
import { openTestDatabase, useTwoInstancesDatabase } from '../../helpers/app.js';
import { describeEachDatabase, describeOneDatabase } from '../../helpers/databases.js';

const NOW = Date.now();

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condição não alcançada');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const expiredWindows = (db: Db, scope: string, n: number) =>
  db.kysely
    .insertInto('rate_limits')
    .values(Array.from({ length: n }, (_, i) => ({ scope, key: `k${i}`, window_start: i, hits: 1, expires_at: NOW - 1 })))
    .execute();
const left = async (db: Db, scope: string) =>
  (await db.kysely.selectFrom('rate_limits').select('key').where('scope', '=', scope).execute()).length;

/** Decision 71: two instances on one PostgreSQL never run the job at once. */
describeOneDatabase('retenção de dados em duas instâncias', 'postgres', () => {
  const instances = useTwoInstancesDatabase('postgres');

  it('while another instance holds the job, a run deletes nothing and says so; afterwards it deletes', async () => {
    const { config, dbs } = instances();
    const [first] = dbs;
    await expiredWindows(first, 'trava', 4);
    const retention = new RetentionService(first, config.retention, new Metrics(), createLogger('silent'));
    const other = new pg.Client({ connectionString: config.databaseUrl });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1::bigint)', [ADVISORY_LOCKS.retention]);
      expect(await retention.run(new Date(NOW))).toMatchObject({ rateLimits: 0, runningElsewhere: true });
      expect(await left(first, 'trava')).toBe(4);
      await other.query('select pg_advisory_unlock($1::bigint)', [ADVISORY_LOCKS.retention]);
      expect(await retention.run(new Date(NOW))).toMatchObject({ rateLimits: 4 });
      expect(await left(first, 'trava')).toBe(0);
    } finally {
      await other.end();
    }
  });
});

describeEachDatabase('the retention job lives from ready to close', (dialect) => {
  it(
    dialect === 'postgres' ? 'two instances ticking at once: the rows go, each run logs one line' : 'runs after start and stops at close',
    async () => {
      const { database, config, db } = await openTestDatabase(dialect);
      const logs: string[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          done();
        },
      });
      const apps: FastifyInstance[] = [];
      try {
        await expiredWindows(db, 'agenda', 5);
        const build = () => buildApp({ config, db, logger: createLogger('info', sink), retentionSchedule: { firstDelayMs: 0 } });
        apps.push(...(dialect === 'postgres' ? await Promise.all([build(), build()]) : [await build()]));
        const runs = () => logs.filter((l) => l.includes('retenção de dados concluída')).length;
        await until(async () => runs() > 0 && (await left(db, 'agenda')) === 0);
        await Promise.all(apps.map((a) => a.close()));
        const afterClose = logs.length;
        await new Promise((r) => setTimeout(r, 100));
        expect(logs.length).toBe(afterClose);
        // Counts only, whichever instance ran it.
        const line = JSON.parse(logs.find((l) => l.includes('retenção de dados concluída')) ?? '{}') as Record<string, unknown>;
        expect(Object.keys(line)).toEqual(expect.arrayContaining(['accessRecords', 'sessions', 'rateLimits', 'closedAccounts']));
      } finally {
        for (const a of apps) await a.close();
        await db.kysely.destroy();
        await database.drop();
      }
    },
  );
});
