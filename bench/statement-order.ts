import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../apps/server/src/db/connection.js';
import { openDb } from '../apps/server/src/db/connection.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { accountId, balances, openAccounts, post } from '../apps/server/src/modules/ledger/ledger.js';
import { StatementService, statementPage } from '../apps/server/src/modules/statement/service.js';
import { bigint, instantAt, overNumbers, rebalance, recountEntries } from './ledger-fill.js';
import { createPostgresDatabase, median } from './lib.js';

export interface Timing {
  medianMs: number;
  p95Ms: number;
  samples: number;
}

export interface StatementOrderBenchResult {
  database: 'sqlite' | 'postgres';
  entries: number;
  fillSeconds: number;
  /** 'renumbering' while ledger_entries has driver_seq (the scheme of decision 32), else 'buckets' (decision 54). */
  scheme: 'renumbering' | 'buckets';
  totalPages: number;
  /** ledger.post of one passage in its own transaction, dated now, 360 days back, at the oldest entry's date. */
  passage: { dated: string; timing: Timing }[];
  /** statementPage (service, no HTTP), no filters; and a period (the last 30 days of the history). */
  pages: { label: string; page: number; timing: Timing }[];
  /** Another driver's balance read alone, then while 40 passages dated 360 days back run 8 at a time. */
  balanceIdle: Timing;
  balanceUnderLatePassages: Timing;
  latePassagesSeconds: number;
}

const DAY = 86_400_000;

function timing(values: number[]): Timing {
  const sorted = [...values].sort((a, b) => a - b);
  return { medianMs: median(values), p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0, samples: values.length };
}

async function time(samples: number, run: (i: number) => Promise<unknown>): Promise<Timing> {
  const values: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await run(i);
    values.push(performance.now() - start);
  }
  return timing(values);
}

async function newDriver(db: Db, doc: string): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('drivers')
      .values({
        name: 'Motorista Benchmark',
        cpf_cnpj: doc,
        phone_number: '+5511987654321',
        password_hash: 'x',
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await openAccounts(trx, id);
    return id;
  });
}

async function hasColumn(db: Db, table: string, column: string): Promise<boolean> {
  try {
    await sql`select ${sql.ref(column)} from ${sql.table(table)} where 1 = 0`.execute(db.kysely);
    return true;
  } catch {
    return false;
  }
}

/**
 * `entries` passages of R$ 1,00 for one driver, one INSERT ... SELECT (ledger-fill.ts overNumbers:
 * a recursive CTE on SQLite, generate_series on PostgreSQL), dated evenly from `oldest` to an hour
 * ago, ids in date order; then what the ledger keeps beside them (driver_seq and the counter for
 * the old scheme; the counters for the new, made from the entries), the balance their sum.
 */
async function fill(db: Db, driverId: number, entries: number, oldest: number, scheme: StatementOrderBenchResult['scheme']): Promise<void> {
  const own = await accountId(db.kysely, driverId, 'own');
  const stepMs = Math.floor((Date.now() - DAY / 24 - oldest) / entries);
  const seq = scheme === 'renumbering' ? sql`driver_seq, ` : sql``;
  const seqValue = scheme === 'renumbering' ? sql`i, ` : sql``;
  await db.kysely.transaction().execute(async (trx) => {
    await sql`
      insert into ledger_entries (account_id, driver_id, ${seq}amount_cents, origin, place_name, is_third, idempotency_key, created_at)
      ${overNumbers(
        db.dialect,
        entries,
        sql`select ${own}, ${driverId}, ${seqValue}-100, 'passagem', 'Praça de pedágio ' || (i % 50), 0, 'fill-' || i,
          ${instantAt(db.dialect, sql`${bigint(oldest)} + (i - 1) * ${bigint(stepMs)}`)}`,
      )}`.execute(trx);
    if (scheme === 'renumbering') {
      await trx
        .updateTable('accounts')
        .set({ balance_cents: -100 * entries })
        .where('id', '=', own)
        .execute();
      await sql`update driver_ledger_counters set entry_count = ${entries} where driver_id = ${driverId}`.execute(trx);
    } else {
      await recountEntries(trx, db.dialect, driverId);
      await rebalance(trx, driverId);
    }
  });
  if (db.dialect === 'postgres') await sql`analyze`.execute(db.kysely);
}

/**
 * One driver with `entries` entries over 400 days on SQLite or PostgreSQL (service calls, no HTTP):
 * what a passage costs by its date, the statement's pages, and another driver's balance read while
 * 40 passages dated 360 days back run 8 at a time (SQLite has one writer; the old scheme renumbered
 * every newer entry of the driver).
 */
export async function benchStatementOrder(
  database: 'sqlite' | 'postgres',
  entries: number,
  samples = 50,
): Promise<StatementOrderBenchResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-order-'));
  const pg = database === 'postgres' ? await createPostgresDatabase('portal_bench_order') : null;
  const db = openDb(pg ? pg.url : path.join(dir, 'portal.sqlite'), { poolMax: 10 });
  try {
    await migrateToLatest(db);
    const scheme = (await hasColumn(db, 'ledger_entries', 'driver_seq')) ? 'renumbering' : 'buckets';
    const driver = await newDriver(db, '11144477735');
    const other = await newDriver(db, '52998224725');
    const oldest = Date.now() - 400 * DAY;
    let start = performance.now();
    await fill(db, driver, entries, oldest, scheme);
    const fillSeconds = (performance.now() - start) / 1000;
    const own = await accountId(db.kysely, driver, 'own');
    const otherOwn = await accountId(db.kysely, other, 'own');
    await db.kysely
      .transaction()
      .execute((trx) =>
        post(trx, { accountId: otherOwn, amountCents: 5000, origin: 'credito', placeName: 'Crédito', idempotencyKey: 'other-credit' }),
      );
    const passageAt = (key: string, createdAt: () => string) => (i: number) =>
      db.kysely.transaction().execute((trx) =>
        post(trx, {
          accountId: own,
          amountCents: -590,
          origin: 'passagem',
          placeName: 'Praça tardia',
          idempotencyKey: `${key}-${i}`,
          createdAt: createdAt(),
        }),
      );
    const oldestIso = new Date(oldest).toISOString();
    const passage = [
      {
        dated: 'now',
        timing: await time(
          samples,
          passageAt('now', () => new Date().toISOString()),
        ),
      },
      {
        dated: '360 days back',
        timing: await time(
          samples,
          passageAt('d360', () => new Date(Date.now() - 360 * DAY).toISOString()),
        ),
      },
      {
        dated: 'the oldest date',
        timing: await time(
          samples,
          passageAt('oldest', () => oldestIso),
        ),
      },
    ];

    const { totalPages } = await statementPage(db.kysely, driver, 1);
    const now = new Date();
    const from = new Date(now.getTime() - 30 * DAY).toISOString().slice(0, 10);
    const to = now.toISOString().slice(0, 10);
    const period = { periodo: 'intervalo', de: from, ate: to } as const;
    const periodPages = (await statementPage(db.kysely, driver, 1, period, now)).totalPages;
    const pages = [];
    for (const [label, page, filters] of [
      ['no filter', 1, undefined],
      ['no filter', 50_000, undefined],
      ['no filter', totalPages, undefined],
      ['last 30 days', 1, period],
      ['last 30 days', periodPages, period],
    ] as const) {
      if (page > totalPages) continue;
      const check = await statementPage(db.kysely, driver, page, filters, now);
      if (check.transactions.length === 0) throw new Error(`page ${page} came back empty`);
      pages.push({ label, page, timing: await time(samples * 4, () => statementPage(db.kysely, driver, page, filters, now)) });
    }
    // Issue 33: the screen's read adds the period's totals per account (from the counters' sums).
    const screen = new StatementService(db.kysely);
    for (const [label, page, filters] of [
      ['no filter, with totals', 1, { periodo: 'tudo' }],
      ['no filter, with totals', Math.min(50_000, totalPages), { periodo: 'tudo' }],
      ['last 30 days, with totals', 1, period],
    ] as const) {
      pages.push({ label, page, timing: await time(samples * 4, () => screen.pageWithTotals(driver, page, filters, now)) });
    }

    const balanceIdle = await time(samples * 4, () => balances(db.kysely, other));
    const late = Array.from({ length: 40 }, (_, i) => i);
    let running = true;
    const underLoad: number[] = [];
    start = performance.now();
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; i < late.length; i += 8) {
        await passageAt('load', () => new Date(Date.now() - 360 * DAY).toISOString())(i);
      }
    });
    const reader = (async () => {
      while (running) {
        const t = performance.now();
        await balances(db.kysely, other);
        underLoad.push(performance.now() - t);
      }
    })();
    await Promise.all(writers);
    const latePassagesSeconds = (performance.now() - start) / 1000;
    running = false;
    await reader;
    return {
      database,
      entries,
      fillSeconds,
      scheme,
      totalPages,
      passage,
      pages,
      balanceIdle,
      balanceUnderLatePassages: timing(underLoad),
      latePassagesSeconds,
    };
  } finally {
    await db.kysely.destroy();
    await pg?.drop();
    await rm(dir, { recursive: true, force: true });
  }
}
