import { Writable } from 'node:stream';
import { TAG_STATUS } from '@portal/domain';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Db, Dialect } from '../../src/db/connection.js';
import { ADVISORY_LOCKS } from '../../src/db/advisory-lock.js';
import { createLogger } from '../../src/logger.js';
import { ensureTerms } from '../../src/modules/terms/bootstrap.js';
import { TermsService } from '../../src/modules/terms/service.js';
import { createServices } from '../../src/services.js';
import { openTestDatabase, registerDriver, useTestApp } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { expectLedgerInvariant, fund } from '../helpers/pix.js';
import { actions, registerTag } from '../helpers/tags.js';

const feeKeys = async (db: Db, driverId: number) =>
  (
    await db.kysely
      .selectFrom('ledger_entries')
      .select('idempotency_key')
      .where('driver_id', '=', driverId)
      .where('idempotency_key', 'like', 'tag-fee:%')
      .execute()
  ).map((r) => r.idempotency_key);

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condição não alcançada');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the monthly billing on PostgreSQL runs on one instance at a time', () => {
  const ctx = useTestApp('postgres');

  it('while another instance holds the billing, a run charges nothing and says so; afterwards it charges once', async () => {
    const { app, db, config } = ctx();
    const d = await registerDriver(app);
    await fund(app, d, 100);
    const tag = await registerTag(app, d);
    expect((await actions.activate(app, d, tag.serial, tag.plate)).statusCode).toBe(200);
    const billing = createServices(config, db, app.log).billing;
    const nextMonth = new Date(Date.now() + 35 * 24 * 3_600_000);

    const other = new pg.Client({ connectionString: config.databaseUrl });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1::bigint)', [ADVISORY_LOCKS.billing]);
      expect(await billing.run(nextMonth)).toMatchObject({ charged: 0, runningElsewhere: true });
      expect(await feeKeys(db, d.id)).toHaveLength(1);
      await other.query('select pg_advisory_unlock($1::bigint)', [ADVISORY_LOCKS.billing]);
      expect(await billing.run(nextMonth)).toMatchObject({ charged: 1 });
      expect(await feeKeys(db, d.id)).toHaveLength(2);
    } finally {
      await other.end();
    }
  }, 90_000);
});

describeEachDatabase('the in-process billing schedule lives from ready to close', (dialect: Dialect) => {
  it(
    dialect === 'postgres' ? 'two instances ticking at once charge a due tag once' : 'charges a due tag once',
    async () => {
      const { database, config, db } = await openTestDatabase(dialect);
      await ensureTerms(new TermsService(db.kysely));
      const logs: string[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          done();
        },
      });
      const build = () =>
        buildApp({ config, db, logger: createLogger('info', sink), billingSchedule: { firstDelayMs: 0, intervalMs: 10 } });
      const plain = await buildApp({ config, db, logger: createLogger('warn') });
      try {
        const d = await registerDriver(plain);
        await fund(plain, d, 100);
        const tag = await registerTag(plain, d);
        // Active and never paid (as after a migration): the schedule's first tick owes this month.
        await db.kysely.updateTable('tags').set({ status_code: TAG_STATUS.active }).where('serial_number', '=', tag.serial).execute();
        const runs = () => logs.filter((l) => l.includes('cobrança mensal')).length;

        const instances = dialect === 'postgres' ? await Promise.all([build(), build()]) : [await build()];
        await until(async () => (await feeKeys(db, d.id)).length > 0 && runs() > 6);
        await Promise.all(instances.map((i) => i.close()));
        const afterClose = runs();
        await new Promise((r) => setTimeout(r, 100));
        expect(runs()).toBe(afterClose);
        expect(await feeKeys(db, d.id)).toHaveLength(1);
        await expectLedgerInvariant(db);
      } finally {
        await plain.close();
        await db.kysely.destroy();
        await database.drop();
      }
    },
    90_000,
  );
});
