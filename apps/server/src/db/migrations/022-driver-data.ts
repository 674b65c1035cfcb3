import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 35, the driver's own data. The access records the Marco Civil da Internet (Lei
 * 12.965/2014, art. 5, VIII and art. 15) asks an application to keep for 6 months: the date and
 * time the account was used from an IP address, one row per sign-in, registration and download of
 * the driver's data (the retention job deletes them after their period); and the indexes the
 * driver's export reads by.
 */
export function driverData(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('access_records')
        .addColumn('id', t.bigId, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        // 'entrada' (sign-in), 'cadastro' (registration), 'dados-baixados' (the driver's data exported).
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('ip_address', 'text', (c) => c.notNull())
        .addColumn('occurred_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('access_records_driver_idx').on('access_records').columns(['driver_id', 'occurred_at', 'id']).execute();
      await db.schema.createIndex('access_records_occurred_idx').on('access_records').column('occurred_at').execute();
      // The driver's export reads each kind in keyset pages of the driver's rows (decision 69): without
      // these, a page of passages or notices would scan the whole table, and a driver's deleted tags
      // and vehicles are outside the partial indexes that serve the screens.
      await db.schema.createIndex('passages_driver_idx').on('passages').columns(['driver_id', 'id']).execute();
      await db.schema.createIndex('notification_outbox_driver_all_idx').on('notification_outbox').columns(['driver_id', 'id']).execute();
      await db.schema.createIndex('tags_driver_idx').on('tags').columns(['driver_id', 'id']).execute();
      await db.schema.createIndex('vehicles_driver_idx').on('vehicles').columns(['driver_id', 'id']).execute();
    },
  };
}
