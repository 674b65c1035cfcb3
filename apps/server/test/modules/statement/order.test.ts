import fc from 'fast-check';
import type { StatementFilters } from '@portal/contract';
import { STATEMENT_ORIGINS, statementKindOf, statementRange } from '@portal/domain';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { toIso } from '../../../src/db/connection.js';
import type { Db } from '../../../src/db/connection.js';
import { migrateTo, migrateToLatest } from '../../../src/db/migrate.js';
import { accountId, openAccounts, post } from '../../../src/modules/ledger/ledger.js';
import { exportPlan, exportRows, exportSummary } from '../../../src/modules/statement/export-rows.js';
import { readsOn } from '../../../src/db/read-replica.js';
import { statementPage } from '../../../src/modules/statement/service.js';
import { describeEachDatabase, useFreshDatabase } from '../../helpers/databases.js';
import { expectLedgerInvariant } from '../../helpers/pix.js';
import { expectStatementInDateOrder } from '../../helpers/statement-order.js';
import { watchDatabase } from '../../helpers/db-watch.js';

/**
 * Decision 54: an entry's place in the statement is its (created_at, id), found through the
 * driver's counters per month, day and hour; nothing is renumbered. Every page and period must be
 * what a naive ORDER BY created_at desc, id desc over the driver's entries gives.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Statement periods are São Paulo days; the histories below sit around these. */
const BASE = Date.UTC(2026, 2, 1, 3);

async function newDriver(db: Db, doc: string): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('drivers')
      .values({ name: 'Ordem', cpf_cnpj: doc, phone_number: '+5511900000000', password_hash: 'x', created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await openAccounts(trx, id);
    return id;
  });
}

let documents = 0;
const nextDoc = () => `ORD${process.pid}-${++documents}`;

async function postAt(db: Db, driverId: number, createdAt: string, key: string, third = false): Promise<number> {
  const result = await db.kysely.transaction().execute(async (trx) =>
    post(trx, {
      accountId: await accountId(trx, driverId, third ? 'third' : 'own'),
      amountCents: third ? 250 : -100,
      origin: third ? STATEMENT_ORIGINS.thirdPartyCredit : STATEMENT_ORIGINS.passage,
      placeName: key,
      isThird: third,
      idempotencyKey: `${driverId}-${key}`,
      createdAt,
    }),
  );
  if (result.status !== 'posted') throw new Error(`not posted: ${key}`);
  return result.entryId;
}

/** The reference: the driver's entries in the period (and of the kind) by ORDER BY created_at desc, id desc, in pages of 10. */
async function naivePages(db: Db, driverId: number, filters: StatementFilters, now: Date): Promise<number[][]> {
  const { from, to } = statementRange(filters, now);
  let query = db.kysely
    .selectFrom('ledger_entries')
    .select(['id', 'origin', 'is_third'])
    .where('driver_id', '=', driverId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  if (from) query = query.where('created_at', '>=', from.toISOString());
  if (to) query = query.where('created_at', '<', to.toISOString());
  const ids = (await query.execute())
    .filter((r) => filters.tipo === undefined || statementKindOf(r.origin, r.is_third === 1) === filters.tipo)
    .map((r) => r.id);
  const pages: number[][] = [];
  for (let i = 0; i < ids.length; i += 10) pages.push(ids.slice(i, i + 10));
  return pages;
}

/** Every page of the statement for the filters, one past the end included, against the reference. */
async function expectPagesAsNaive(db: Db, driverId: number, filters: StatementFilters, now: Date): Promise<void> {
  const expected = await naivePages(db, driverId, filters, now);
  for (let p = 1; p <= expected.length + 1; p++) {
    const page = await statementPage(db.kysely, driverId, p, filters, now);
    expect(page.totalPages, `${JSON.stringify(filters)} total`).toBe(expected.length);
    expect(
      page.transactions.map((t) => t.transactionId),
      `${JSON.stringify(filters)} page ${p}`,
    ).toEqual(expected[p - 1] ?? []);
  }
}

const day = (ms: number) => new Date(ms - 3 * HOUR).toISOString().slice(0, 10);
const periods: StatementFilters[] = [
  { periodo: 'tudo' },
  { periodo: 'intervalo', de: day(BASE - 40 * DAY), ate: day(BASE + 40 * DAY) },
  { periodo: 'intervalo', de: day(BASE), ate: day(BASE) },
  { periodo: 'intervalo', de: day(BASE - DAY), ate: day(BASE + 2 * DAY) },
  { periodo: 'intervalo', de: day(BASE + 5 * DAY), ate: day(BASE + 31 * DAY) },
  { periodo: 'intervalo', de: day(BASE - 400 * DAY), ate: day(BASE - 300 * DAY) },
  { periodo: 'este-mes' },
  { periodo: 'mes-passado' },
  { periodo: 'tudo', tipo: 'terceiros' },
  { periodo: 'intervalo', de: day(BASE - DAY), ate: day(BASE + 2 * DAY), tipo: 'passagens' },
];

describeEachDatabase('extrato: lugar de um lançamento tardio sem renumerar', (dialect) => {
  const freshDb = useFreshDatabase(dialect, async (db) => void (await migrateToLatest(db)));

  it('a late entry at the oldest date, in the middle, at the same instant as others and ties by id lands in its place on every page and period', async () => {
    const db = freshDb();
    const d = await newDriver(db, nextDoc());
    const other = await newDriver(db, nextDoc());
    // 45 entries over three days, some hours crowded, across a month's end; another driver's in between.
    for (let i = 0; i < 45; i++) {
      await postAt(db, d, new Date(BASE + (i % 15) * 5 * HOUR + Math.floor(i / 15) * 60_000).toISOString(), `h${i}`, i % 4 === 0);
      if (i % 10 === 0) await postAt(db, other, new Date(BASE + i * HOUR).toISOString(), `o${i}`);
    }
    const now = new Date(BASE + 3 * DAY);
    const late: [string, number][] = [
      ['oldest', BASE - 200 * DAY],
      ['month before', BASE - 2 * DAY],
      ['middle', BASE + 30 * HOUR + 1],
      ['same instant A', BASE + 10 * HOUR],
      ['same instant B', BASE + 10 * HOUR],
      ['same instant C', BASE + 10 * HOUR + 60_000],
      ['newest', BASE + 80 * HOUR],
      ['oldest again', BASE - 200 * DAY],
    ];
    for (const [key, at] of late) {
      const id = await postAt(db, d, new Date(at).toISOString(), key);
      await expectStatementInDateOrder(db, d);
      for (const filters of periods) await expectPagesAsNaive(db, d, filters, now);
      const all = (await naivePages(db, d, { periodo: 'tudo' }, now)).flat();
      // Ties: the later posted shows first, i.e. above the entries of the same instant posted before it.
      const sameInstant = await db.kysely
        .selectFrom('ledger_entries')
        .select('id')
        .where('driver_id', '=', d)
        .where('created_at', '=', new Date(at).toISOString())
        .execute();
      const firstOfInstant = all.findIndex((x) => sameInstant.some((r) => r.id === x));
      expect(all[firstOfInstant]).toBe(id);
    }
    await expectStatementInDateOrder(db, other);
    await expectLedgerInvariant(db);
  });

  it('a passage dated 400 days back writes what one dated now writes: its entry, its key, its account, its three counters; no other entry moves', async () => {
    const db = freshDb();
    const driverId = await newDriver(db, nextDoc());
    for (let i = 0; i < 120; i++) await postAt(db, driverId, new Date(BASE - 300 * DAY + i * DAY).toISOString(), `h${i}`);
    const watch = await watchDatabase(db);
    const writes = async (createdAt: string, key: string) => {
      const before = await watch.changes();
      await postAt(db, driverId, createdAt, key);
      return (await watch.changes()) - before;
    };
    const now = await writes(new Date(BASE).toISOString(), 'now');
    const late = await writes(new Date(BASE - 400 * DAY).toISOString(), 'late');
    // Under the renumbering of decision 32 the late one also rewrote all 121 newer entries.
    expect(late).toBe(now);
    expect(now).toBeLessThanOrEqual(6);
  });

  it('the export walks the same order and opens each account with the balance dated before the period', async () => {
    const db = freshDb();
    const d = await newDriver(db, nextDoc());
    for (let i = 0; i < 1100; i += 1) {
      const at = BASE - 20 * DAY + ((i * 7919) % 1100) * 30 * 60_000;
      await postAt(db, d, new Date(at).toISOString(), `x${i}`, i % 5 === 0);
    }
    const now = new Date(BASE + 30 * DAY);
    for (const filters of [
      { periodo: 'tudo' },
      { periodo: 'intervalo', de: day(BASE - 10 * DAY), ate: day(BASE + 1 * DAY) },
      { periodo: 'intervalo', de: day(BASE), ate: day(BASE + 20 * DAY), tipo: 'passagens' },
    ] as StatementFilters[]) {
      const { from, to } = statementRange(filters, now);
      const plan = await exportPlan(db.kysely, d, filters, now);
      const rows = [];
      for await (const chunk of exportRows(readsOn(db.kysely), d, plan)) rows.push(...chunk);
      const all = await db.kysely
        .selectFrom('ledger_entries')
        .select(['created_at', 'amount_cents', 'is_third', 'origin'])
        .where('driver_id', '=', d)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const opening = { own: 0, third: 0 };
      const expected: [string, number, number][] = [];
      for (const e of all) {
        const at = toIso(e.created_at);
        const account = e.is_third === 1 ? 'third' : 'own';
        if (from && at < from.toISOString()) {
          opening[account] += Number(e.amount_cents);
          continue;
        }
        if (to && at >= to.toISOString()) break;
        opening[account] += Number(e.amount_cents);
        if (filters.tipo === 'passagens' && e.is_third === 1) continue;
        expected.push([at, Number(e.amount_cents), opening[account]]);
      }
      expect(rows.map((r) => [r.createdAt, r.amountCents, r.balanceAfterCents])).toEqual(expected);
      expect((await exportSummary(db.kysely, d, plan)).rowCount).toBe(expected.length);
    }
  });
});

describeEachDatabase('extrato: propriedade contra ORDER BY created_at desc, id desc', (dialect) => {
  const freshDb = useFreshDatabase(dialect, async (db) => void (await migrateToLatest(db)));

  it('pages, periods and TotalPaginas equal the naive order under random inserts at random dates', async () => {
    const db = freshDb();
    // Dates: a few crowded instants (ties), then spread over a year, across months, days and hours.
    const when = fc.oneof(
      fc.constantFrom(0, 1, HOUR, DAY - 1, DAY),
      fc.integer({ min: -370 * DAY, max: 40 * DAY }),
      fc.integer({ min: -2 * HOUR, max: 2 * HOUR }),
    );
    const insert = fc.record({ at: when, third: fc.boolean() });
    const filters = fc.oneof(
      fc.constant<StatementFilters>({ periodo: 'tudo' }),
      fc
        .tuple(fc.integer({ min: -380, max: 45 }), fc.integer({ min: 0, max: 60 }), fc.option(fc.constantFrom('passagens', 'terceiros')))
        .map(([start, length, tipo]): StatementFilters => ({
          periodo: 'intervalo',
          de: day(BASE + start * DAY),
          ate: day(BASE + (start + length) * DAY),
          ...(tipo ? { tipo } : {}),
        })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(insert, { minLength: 0, maxLength: 60 }),
        fc.array(filters, { minLength: 1, maxLength: 4 }),
        async (list, asked) => {
          const d = await newDriver(db, nextDoc());
          for (const [i, e] of list.entries()) await postAt(db, d, new Date(BASE + e.at).toISOString(), `p${i}`, e.third);
          const now = new Date(BASE + 50 * DAY);
          for (const f of asked) await expectPagesAsNaive(db, d, f, now);
          await expectStatementInDateOrder(db, d);
        },
      ),
      { numRuns: dialect === 'sqlite' ? 25 : 12 },
    );
  });
});

describeEachDatabase('migração 015: contadores do extrato', (dialect) => {
  const freshDb = useFreshDatabase(dialect);

  it('counts the entries already there per month, day and hour, drops driver_seq, and the statement keeps its answers', async () => {
    const db = freshDb();
    await migrateTo(db, '014-vpo-money');
    const now = new Date(BASE + 10 * DAY).toISOString();
    const drivers: number[] = [];
    for (const doc of ['MIG15A', 'MIG15B']) {
      const r = await sql<{ id: number }>`insert into drivers (name, cpf_cnpj, phone_number, password_hash, created_at)
        values ('M', ${doc}, '+5511900000000', 'x', ${now}) returning id`.execute(db.kysely);
      const id = r.rows[0]!.id;
      drivers.push(id);
      await sql`insert into accounts (driver_id, kind, balance_cents) values (${id}, 'own', 0), (${id}, 'third', 0), (${id}, 'vpo', 0)`.execute(
        db.kysely,
      );
    }
    const [a, b] = drivers as [number, number];
    // As the ledger left them at 014: driver_seq the place by (created_at, id); three dates share an instant.
    const dated = [
      [a, BASE + 5 * HOUR],
      [b, BASE],
      [a, BASE - 40 * DAY],
      [a, BASE + 5 * HOUR],
      [a, BASE + 5 * HOUR + 1],
      [b, BASE + 2 * DAY],
      [a, BASE + 30 * DAY],
      [a, BASE + 5 * HOUR],
    ] as const;
    for (const [i, [driver, at]] of dated.entries()) {
      await sql`insert into ledger_entries (account_id, driver_id, driver_seq, amount_cents, origin, place_name, idempotency_key, created_at)
        values ((select id from accounts where driver_id = ${driver} and kind = 'own'), ${driver}, 0, ${100 + i}, 'passagem', ${`E${i}`}, ${`m15-${i}`}, ${new Date(at).toISOString()})`.execute(
        db.kysely,
      );
    }
    await sql`update ledger_entries set driver_seq = numbered.seq
      from (select id, row_number() over (partition by driver_id order by created_at, id) as seq from ledger_entries) as numbered
      where numbered.id = ledger_entries.id`.execute(db.kysely);
    await sql`update accounts set balance_cents = (select coalesce(sum(amount_cents), 0) from ledger_entries e where e.account_id = accounts.id)`.execute(
      db.kysely,
    );
    for (const [driver, n] of [
      [a, 6],
      [b, 2],
    ])
      await sql`insert into driver_ledger_counters (driver_id, entry_count) values (${driver}, ${n})`.execute(db.kysely);
    const bySeq = async (driver: number) =>
      (
        await sql<{ id: number }>`select id from ledger_entries where driver_id = ${driver} order by driver_seq desc`.execute(db.kysely)
      ).rows.map((r) => r.id);
    const before = { a: await bySeq(a), b: await bySeq(b) };

    await migrateToLatest(db);

    // The counters, per unit and bucket, as the ledger would have written them.
    const counts = await db.kysely
      .selectFrom('ledger_entry_counts')
      .select(['driver_id', 'unit', 'bucket', 'entries'])
      .orderBy('driver_id')
      .orderBy('unit')
      .orderBy('bucket')
      .execute();
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(counts.map((c) => [c.driver_id, c.unit, toIso(c.bucket), Number(c.entries)])).toEqual([
      [a, 'day', iso(Date.UTC(2026, 0, 20)), 1],
      [a, 'day', iso(Date.UTC(2026, 2, 1)), 4],
      [a, 'day', iso(Date.UTC(2026, 2, 31)), 1],
      [a, 'hour', iso(Date.UTC(2026, 0, 20, 3)), 1],
      [a, 'hour', iso(Date.UTC(2026, 2, 1, 8)), 4],
      [a, 'hour', iso(Date.UTC(2026, 2, 31, 3)), 1],
      [a, 'month', iso(Date.UTC(2026, 0, 1)), 1],
      [a, 'month', iso(Date.UTC(2026, 2, 1)), 5],
      [b, 'day', iso(Date.UTC(2026, 2, 1)), 1],
      [b, 'day', iso(Date.UTC(2026, 2, 3)), 1],
      [b, 'hour', iso(Date.UTC(2026, 2, 1, 3)), 1],
      [b, 'hour', iso(Date.UTC(2026, 2, 3, 3)), 1],
      [b, 'month', iso(Date.UTC(2026, 2, 1)), 2],
    ]);
    await expectStatementInDateOrder(db, a);
    await expectStatementInDateOrder(db, b);
    // The statement answers as it did by driver_seq.
    expect((await statementPage(db.kysely, a, 1)).transactions.map((t) => t.transactionId)).toEqual(before.a);
    expect((await statementPage(db.kysely, b, 1)).transactions.map((t) => t.transactionId)).toEqual(before.b);
    await expect(sql`select driver_seq from ledger_entries`.execute(db.kysely)).rejects.toThrow();
    await expect(sql`select * from driver_ledger_counters`.execute(db.kysely)).rejects.toThrow();

    // A late entry after the migration takes its place among the old ones.
    const late = await postAt(db, a, iso(BASE + 5 * HOUR), 'late');
    expect((await statementPage(db.kysely, a, 1)).transactions.map((t) => t.transactionId)).toEqual([
      before.a[0],
      before.a[1],
      late,
      ...before.a.slice(2),
    ]);
    await expectStatementInDateOrder(db, a);
    await expectLedgerInvariant(db);
  });
});
