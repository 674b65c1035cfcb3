import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';

/**
 * Issue 10: the statement in the order of the dates it shows (founding architecture §20). driver_seq was
 * the order entries were posted; it becomes the entry's place in the driver's statement, by
 * (created_at, id), 1 the oldest, and the ledger keeps it so as it posts. Not unique any more:
 * making room for a late entry moves a range up by one, which a unique index refuses row by row
 * on both databases.
 */
export function statementOrder(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('ledger_entries_driver_seq_unique').execute();
      await sql`
        update ledger_entries set driver_seq = numbered.seq
        from (select id, row_number() over (partition by driver_id order by created_at, id) as seq from ledger_entries) as numbered
        where numbered.id = ledger_entries.id and ledger_entries.driver_seq <> numbered.seq`.execute(db);
      await db.schema.createIndex('ledger_entries_statement_idx').on('ledger_entries').columns(['driver_id', 'driver_seq']).execute();
    },
  };
}
