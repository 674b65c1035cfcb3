import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { toIso } from '../../src/db/connection.js';
import type { Db } from '../../src/db/connection.js';
import type { Database } from '../../src/db/schema.js';
import { bucketsOf } from '../../src/modules/ledger/ledger.js';
import { statementPage } from '../../src/modules/statement/service.js';

/** A counter: its entries and what each account moved in it (migration 020). */
interface Counter {
  entries: number;
  own_cents: number;
  third_cents: number;
  vpo_cents: number;
}
type Counts = Map<string, Counter>;

/** The counters the driver's entries call for: per UTC month, day and hour, keyed 'unit bucket'. */
async function countsFromEntries(db: Kysely<Database>, driverId: number): Promise<Counts> {
  const rows = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .select(['e.created_at', 'e.amount_cents', 'a.kind'])
    .where('e.driver_id', '=', driverId)
    .execute();
  const counts: Counts = new Map();
  for (const r of rows) {
    for (const [unit, bucket] of Object.entries(bucketsOf(toIso(r.created_at)))) {
      const key = `${unit} ${bucket}`;
      const counter = counts.get(key) ?? { entries: 0, own_cents: 0, third_cents: 0, vpo_cents: 0 };
      counter.entries += 1;
      counter[`${r.kind}_cents`] += Number(r.amount_cents);
      counts.set(key, counter);
    }
  }
  return counts;
}

/** The driver's counters (ledger_entry_counts, decision 54) as stored, empty ones left out. */
async function storedCounts(db: Kysely<Database>, driverId: number): Promise<Counts> {
  const rows = await db.selectFrom('ledger_entry_counts').selectAll().where('driver_id', '=', driverId).execute();
  return new Map(
    rows
      .filter((r) => Number(r.entries) !== 0)
      .map((r) => [
        `${r.unit} ${toIso(r.bucket)}`,
        { entries: Number(r.entries), own_cents: Number(r.own_cents), third_cents: Number(r.third_cents), vpo_cents: Number(r.vpo_cents) },
      ]),
  );
}

/** For entries written as rows, bypassing the ledger (long histories in tests): their counters. */
export async function writeCountsOf(db: Kysely<Database>, driverId: number): Promise<void> {
  const counts = [...(await countsFromEntries(db, driverId))].map(([key, counter]) => {
    const [unit, bucket] = key.split(' ') as ['month' | 'day' | 'hour', string];
    return { driver_id: driverId, unit, bucket, ...counter };
  });
  for (let i = 0; i < counts.length; i += 500)
    await db
      .insertInto('ledger_entry_counts')
      .values(counts.slice(i, i + 500))
      .execute();
}

/**
 * What the statement's order rests on (decision 54): the driver's counters are exactly the counts
 * of its entries per month, day and hour (and what each account moved in them: migration 020), and the pages, one after the other, are its entries by
 * descending (created_at, id), 10 a page, with the right number of pages.
 */
export async function expectStatementInDateOrder(db: Db, driverId: number): Promise<void> {
  expect(await storedCounts(db.kysely, driverId)).toEqual(await countsFromEntries(db.kysely, driverId));
  const byDate = await db.kysely
    .selectFrom('ledger_entries')
    .select('id')
    .where('driver_id', '=', driverId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const pages = Math.ceil(byDate.length / 10);
  const listed: number[] = [];
  for (let p = 1; p <= Math.max(pages, 1); p++) {
    const page = await statementPage(db.kysely, driverId, p);
    expect(page.totalPages).toBe(pages);
    listed.push(...page.transactions.map((t) => t.transactionId));
  }
  expect(listed).toEqual(byDate.map((r) => r.id));
}

/** Each entry's place in the driver's statement, 1 the oldest, by (created_at, id): what driver_seq held before decision 54. */
export async function placeOf(db: Db, entryId: number): Promise<number> {
  const entry = await db.kysely
    .selectFrom('ledger_entries')
    .select(['driver_id', 'created_at'])
    .where('id', '=', entryId)
    .executeTakeFirstOrThrow();
  const createdAt = toIso(entry.created_at);
  const before = await db.kysely
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('driver_id', '=', entry.driver_id)
    .where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', entryId)])]))
    .executeTakeFirstOrThrow();
  return Number(before.n) + 1;
}
