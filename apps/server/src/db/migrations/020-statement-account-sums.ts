import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { bucketOf } from './015-statement-buckets.js';

/** The counters' money columns, one per ledger account kind (own, third, vpo). */
export const COUNTER_CENTS = { own: 'own_cents', third: 'third_cents', vpo: 'vpo_cents' } as const;

/**
 * Issue 33 (decision 63): each statement row shows its own account's balance right after it. The
 * driver's counters per UTC month, day and hour (migration 015) also sum what each account moved
 * in the bucket, so that an account's balance at any instant is a few counter rows plus one hour's
 * entries, whatever the length of the history. Filled from the entries already there.
 */
export function statementAccountSums(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const column of Object.values(COUNTER_CENTS)) {
        await db.schema
          .alterTable('ledger_entry_counts')
          .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
      }
      for (const unit of ['month', 'day', 'hour'] as const) {
        const sums = Object.entries(COUNTER_CENTS).map(
          ([kind, column]) => sql`coalesce(sum(case when a.kind = ${sql.lit(kind)} then e.amount_cents end), 0) as ${sql.ref(column)}`,
        );
        await sql`
          update ledger_entry_counts set ${sql.join(Object.values(COUNTER_CENTS).map((c) => sql`${sql.ref(c)} = s.${sql.ref(c)}`))}
          from (
            select e.driver_id, ${bucketOf(unit, dialect)} as bucket, ${sql.join(sums)}
            from ledger_entries e inner join accounts a on a.id = e.account_id
            group by e.driver_id, 2
          ) s
          where ledger_entry_counts.driver_id = s.driver_id and ledger_entry_counts.unit = ${sql.lit(unit)}
            and ledger_entry_counts.bucket = s.bucket`.execute(db);
      }
    },
  };
}
