import type { Kysely, SelectQueryBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from './connection.js';
import type { Database } from './schema.js';

/**
 * SELECT ... FOR UPDATE on PostgreSQL, so concurrent deliveries of the same event queue on the
 * row; SQLite runs one write transaction at a time and has no such clause.
 */
export function forUpdate<DB, TB extends keyof DB, O>(dialect: Dialect) {
  return (qb: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> => (dialect === 'postgres' ? qb.forUpdate() : qb);
}

/**
 * Locks a driver's row until the transaction ends (PostgreSQL): one payout decision at a time per
 * driver. FOR NO KEY UPDATE, not FOR UPDATE: inserting a row that references the driver (a fee, a
 * charge) takes FOR KEY SHARE on it, which FOR UPDATE would block, and a transaction that had
 * already debited the driver's account would then wait for us while we wait for that account: a
 * deadlock (found by the SIGKILL test on PostgreSQL).
 */
export async function lockDriver(trx: Kysely<Database>, dialect: Dialect, driverId: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select id from drivers where id = ${driverId} for no key update`.execute(trx);
}

/**
 * PostgreSQL: the rows a transaction over many tags will write through, each kind sorted: their
 * drivers (FOR NO KEY UPDATE, as lockDriver), the tags (`tagLock`: KEY SHARE for a passage, which
 * only references its tag; UPDATE for the billing, which changes it), then the drivers' accounts
 * (FOR NO KEY UPDATE, as the ledger's UPDATE). Partner passages and the billing take them in this
 * order, and a transaction that locks one driver, or a tag and then its account, meets them in it:
 * they queue instead of deadlocking.
 */
export async function lockTagHolders(
  trx: Kysely<Database>,
  tags: readonly { id: number; driver_id: number }[],
  tagLock: 'key share' | 'update',
): Promise<void> {
  if (tags.length === 0) return;
  const drivers = [...new Set(tags.map((t) => t.driver_id))].sort((a, b) => a - b);
  const tagIds = [...new Set(tags.map((t) => t.id))].sort((a, b) => a - b);
  await sql`select id from drivers where id in (${sql.join(drivers)}) order by id for no key update`.execute(trx);
  await sql`select id from tags where id in (${sql.join(tagIds)}) order by id for ${sql.raw(tagLock)}`.execute(trx);
  await sql`select id from accounts where driver_id in (${sql.join(drivers)}) order by id for no key update`.execute(trx);
}
