import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 25 (decision 58): the balance topped up by Pix Automático. An authorization is the driver's
 * consent at their bank (its QR Code's first Pix pays cycle 1 and authorizes the rest); each cycle's
 * debit is a Pix charge (pix_charges, settled and receipted as a purchase is) with its cycle's
 * row here: the debit's day, the bank's instruction and why it was not debited.
 */
export function pixAutomatic(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('pix_automatic_authorizations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('restrict'))
        .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider in ('local', 'asaas')`))
        .addColumn('provider_authorization_id', 'text', (c) => c.notNull().unique())
        // The first Pix's QR Code: the payment that settles it names it (Asaas: pixQrCodeId).
        .addColumn('conciliation_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('CREATED', 'ACTIVE', 'REFUSED', 'CANCELLED', 'EXPIRED')`))
        .addColumn('frequency', 'text', (c) => c.notNull().check(sql`frequency in ('SEMANAL', 'MENSAL')`))
        .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('qr_expires_at', t.timestamp, (c) => c.notNull())
        // The next debit's São Paulo day ('YYYY-MM-DD') while active; the day of the month it keeps.
        .addColumn('next_due_date', 'text')
        .addColumn('anchor_day', 'integer')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('activated_at', t.timestamp)
        .addColumn('ended_at', t.timestamp)
        .addColumn('end_reason', 'text', (c) =>
          c.check(
            sql`end_reason is null or end_reason in ('driver', 'bank', 'replaced', 'valueChanged', 'qrExpired', 'refused', 'expired')`,
          ),
        )
        .addColumn('replaces_id', 'text', (c) => c.references('pix_automatic_authorizations.id'))
        .execute();
      // One waiting or active authorization per driver, whatever runs beside the one being created.
      await sql`create unique index pix_automatic_one_live_idx on pix_automatic_authorizations (driver_id) where status in ('CREATED', 'ACTIVE')`.execute(
        db,
      );
      await db.schema
        .createIndex('pix_automatic_driver_idx')
        .on('pix_automatic_authorizations')
        .columns(['driver_id', 'created_at'])
        .execute();
      await sql`create index pix_automatic_conciliation_idx on pix_automatic_authorizations (conciliation_id) where conciliation_id is not null`.execute(
        db,
      );
      // The schedule's read: the active ones whose next debit is near.
      await sql`create index pix_automatic_due_idx on pix_automatic_authorizations (next_due_date) where status = 'ACTIVE'`.execute(db);

      await db.schema
        .createTable('pix_automatic_cycles')
        .addColumn('charge_id', 'text', (c) => c.primaryKey().references('pix_charges.id'))
        .addColumn('authorization_id', 'text', (c) => c.notNull().references('pix_automatic_authorizations.id'))
        .addColumn('number', 'integer', (c) => c.notNull().check(sql`number >= 1`))
        .addColumn('due_date', 'text', (c) => c.notNull())
        .addColumn('instruction_id', 'text', (c) => c.unique())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('SCHEDULED', 'PAID', 'REFUSED', 'CANCELLED')`))
        .addColumn('failure_reason', 'text')
        .addColumn('failed_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('pix_automatic_cycles_number_unique', ['authorization_id', 'number'])
        .execute();
    },
  };
}
