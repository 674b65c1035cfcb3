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
