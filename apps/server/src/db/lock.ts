import type { SelectQueryBuilder } from 'kysely';
import type { Dialect } from './connection.js';

/**
 * SELECT ... FOR UPDATE on PostgreSQL, so concurrent deliveries of the same event queue on the
 * row; SQLite runs one write transaction at a time and has no such clause.
 */
export function forUpdate<DB, TB extends keyof DB, O>(dialect: Dialect) {
  return (qb: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> => (dialect === 'postgres' ? qb.forUpdate() : qb);
}
