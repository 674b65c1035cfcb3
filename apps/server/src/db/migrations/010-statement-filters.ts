import type { Kysely, Migration } from 'kysely';

/**
 * Issue 12 statement filters. A kind is a set of origins (and is_third): counted and paged inside
 * (driver_id, origin, is_third, driver_seq) without reading the rows, however long the history.
 * A period needs no index: driver_seq follows created_at, so its bounds are a binary search
 * over (driver_id, driver_seq) (modules/statement/queries.ts). An index on created_at was tried and
 * dropped: the ledger's insert ("the newest entry dated at or before this one") then sorted every
 * older entry on SQLite instead of reading one.
 */
export function statementFilters(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('ledger_entries_kind_idx')
        .on('ledger_entries')
        .columns(['driver_id', 'origin', 'is_third', 'driver_seq'])
        .execute();
    },
  };
}
