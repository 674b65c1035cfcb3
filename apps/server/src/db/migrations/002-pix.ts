import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../connection.js';
import type { ColumnTypes } from './types.js';

/**
 * Issue 3: a per-driver entry sequence (statement pages are index ranges, never a scan of the
 * whole history), Pix charges (buying credit) and withdrawals (payouts to a Pix key).
 */
export function pix(t: ColumnTypes, dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('driver_ledger_counters')
        .addColumn('driver_id', 'integer', (c) => c.primaryKey().references('drivers.id').onDelete('restrict'))
        .addColumn('entry_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema.alterTable('ledger_entries').addColumn('driver_seq', 'bigint').execute();
      // Existing entries are numbered per driver in insertion (id) order; counters start from there.
      await sql`
        update ledger_entries set driver_seq = numbered.seq
        from (select id, row_number() over (partition by driver_id order by id) as seq from ledger_entries) as numbered
        where numbered.id = ledger_entries.id`.execute(db);
      await sql`
        insert into driver_ledger_counters (driver_id, entry_count)
        select d.id, (select count(*) from ledger_entries e where e.driver_id = d.id) from drivers d`.execute(db);
      if (dialect === 'postgres') {
        await sql`alter table ledger_entries alter column driver_seq set not null`.execute(db);
      }
      await db.schema
        .createIndex('ledger_entries_driver_seq_unique')
        .on('ledger_entries')
        .columns(['driver_id', 'driver_seq'])
        .unique()
        .execute();
      // The statement now pages by driver_seq; the created_at index only cost writes.
      await db.schema.dropIndex('ledger_entries_statement_idx').execute();

      await db.schema
        .createTable('pix_charges')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('restrict'))
        .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider in ('local', 'asaas')`))
        .addColumn('provider_charge_id', 'text', (c) => c.notNull().unique())
        .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('encoded_image', 'text')
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'RECEIVED', 'OVERDUE', 'REFUNDED')`))
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('received_at', t.timestamp)
        .addColumn('refunded_at', t.timestamp)
        .execute();
      await db.schema.createIndex('pix_charges_driver_idx').on('pix_charges').column('driver_id').execute();

      await db.schema
        .createTable('withdrawals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('restrict'))
        .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
        .addColumn('pix_key_type', 'text', (c) => c.notNull().check(sql`pix_key_type in ('CPF', 'CNPJ', 'PHONE', 'EMAIL', 'EVP')`))
        .addColumn('pix_key', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PROCESSING', 'DONE', 'FAILED')`))
        .addColumn('provider_transfer_id', 'text', (c) => c.unique())
        .addColumn('failure_reason', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('completed_at', t.timestamp)
        .execute();
      // "Has this driver a withdrawal still processing?" reads only the few PROCESSING rows.
      await sql`create index withdrawals_processing_idx on withdrawals (driver_id) where status = 'PROCESSING'`.execute(db);
    },
  };
}
