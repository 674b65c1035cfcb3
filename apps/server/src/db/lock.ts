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

/** Locks a driver's row until the transaction ends (PostgreSQL): one payout decision at a time per driver. */
export async function lockDriver(trx: Kysely<Database>, dialect: Dialect, driverId: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select id from drivers where id = ${driverId} for update`.execute(trx);
}
