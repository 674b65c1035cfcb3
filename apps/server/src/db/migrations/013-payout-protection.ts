import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 21 (decision 44): payouts protected as the Central Bank asks of Pix. The driver's saved
 * Pix keys (a new one is capped in its first 24 hours), and the driver's withdrawal limits, one
 * row per limit that was ever changed (absent: the domain's default of the day), with a raise
 * waiting for its time beside the value in force.
 */
export function payoutProtection(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('pix_keys')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('key_type', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('pix_keys_driver_key', ['driver_id', 'key_type', 'key'])
        .execute();
      await db.schema
        .createTable('payout_limits')
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('perWithdrawal', 'daily', 'night')`))
        .addColumn('value_cents', 'bigint', (c) => c.notNull())
        .addColumn('pending_cents', 'bigint')
        .addColumn('pending_at', t.timestamp)
        .addPrimaryKeyConstraint('payout_limits_pk', ['driver_id', 'kind'])
        .execute();
      // The limits and the dashboard read a driver's withdrawals of a period; the hourly count too.
      await db.schema.createIndex('withdrawals_driver_created_idx').on('withdrawals').columns(['driver_id', 'created_at']).execute();
    },
  };
}
