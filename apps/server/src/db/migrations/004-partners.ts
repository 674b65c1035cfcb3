import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 5: partners that push data with an API key (stored as its sha256), and the VPOs shippers
 * issue. Passages and third-party movements are ledger entries whose idempotency key carries the
 * partner's id and its own externalId.
 */
export function partners(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('partners')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('shipper', 'operator', 'platform')`))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('api_key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('api_key_prefix', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('revoked_at', t.timestamp)
        .execute();

      await db.schema
        .createTable('vpos')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('restrict'))
        .addColumn('partner_id', 'integer', (c) => c.notNull().references('partners.id').onDelete('restrict'))
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('serial_number', 'text', (c) => c.notNull())
        .addColumn('plate', 'text', (c) => c.notNull())
        .addColumn('shipper_document', 'text', (c) => c.notNull())
        .addColumn('value_cents', 'integer', (c) => c.notNull().check(sql`value_cents > 0`))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('origin', 'text')
        .addColumn('destination', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('vpos_partner_external', ['partner_id', 'external_id'])
        .execute();
      // One index per sortable column of /vpos/listar, with id as the tie-break.
      await sql`create index vpos_driver_value on vpos (driver_id, value_cents, id)`.execute(db);
      await sql`create index vpos_driver_plate on vpos (driver_id, plate, id)`.execute(db);
      await sql`create index vpos_driver_created on vpos (driver_id, created_at, id)`.execute(db);
      // TotalPaginas without counting: bumped in the transaction that stores a VPO.
      await db.schema
        .createTable('driver_vpo_counters')
        .addColumn('driver_id', 'integer', (c) => c.primaryKey().references('drivers.id').onDelete('restrict'))
        .addColumn('vpo_count', 'integer', (c) => c.notNull())
        .execute();
    },
  };
}
