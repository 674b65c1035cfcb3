import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 4: vehicles, their tags, the monthly fee charges (one per tag and month, whatever runs
 * twice) and the operator side kept by the `local` tag operator gateway.
 */
export function tags(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('vehicles')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('restrict'))
        .addColumn('license_plate', 'text', (c) => c.notNull())
        .addColumn('cpf_cnpj_antt', 'text', (c) => c.notNull())
        .addColumn('rntrc_antt', 'text', (c) => c.notNull())
        .addColumn('axles', 'integer', (c) => c.notNull().check(sql`axles between 2 and 20`))
        .addColumn('vehicle_type', 'integer', (c) => c.notNull().check(sql`vehicle_type in (1, 2)`))
        .addColumn('model_id', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('deleted_at', t.timestamp)
        .execute();
      await sql`create unique index vehicles_driver_plate_live on vehicles (driver_id, license_plate) where deleted_at is null`.execute(db);

      await db.schema
        .createTable('tags')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('restrict'))
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id').onDelete('restrict'))
        .addColumn('serial_number', 'text', (c) => c.notNull())
        .addColumn('operator_cnpj', 'text', (c) => c.notNull())
        .addColumn('ownership_type', 'text', (c) => c.notNull().check(sql`ownership_type in ('own', 'operator')`))
        .addColumn('status_code', 'integer')
        .addColumn('activated_at', t.timestamp)
        .addColumn('paid_through', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('deleted_at', t.timestamp)
        .execute();
      await sql`create unique index tags_serial_live on tags (serial_number) where deleted_at is null`.execute(db);
      await sql`create unique index tags_vehicle_live on tags (vehicle_id) where deleted_at is null`.execute(db);
      await sql`create index tags_driver_live on tags (driver_id, id) where deleted_at is null`.execute(db);
      await sql`create index tags_active on tags (status_code) where deleted_at is null`.execute(db);

      await db.schema
        .createTable('tag_fee_charges')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('restrict'))
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('amount_cents', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('paid', 'unpaid')`))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('paid_at', t.timestamp)
        .addUniqueConstraint('tag_fee_charges_tag_period', ['tag_id', 'period'])
        .execute();

      // The operator side of the `local` gateway (founding architecture §5): what the operator knows of each serial.
      await db.schema
        .createTable('operator_tags')
        .addColumn('serial_number', 'text', (c) => c.primaryKey())
        .addColumn('operator_cnpj', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('license_plate', 'text')
        .addColumn('holder_document', 'text')
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
    },
  };
}
