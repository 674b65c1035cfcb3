import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { ColumnTypes } from './types.js';

/** Drivers, sessions, sign-in throttling, terms of use and the ledger (founding architecture §4). */
export function initial(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('drivers')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('cpf_cnpj', 'text', (c) => c.notNull().unique())
        .addColumn('phone_number', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', t.bigId, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('revoked_at', t.timestamp)
        .execute();
      await db.schema.createIndex('sessions_driver_idx').on('sessions').column('driver_id').execute();

      await db.schema
        .createTable('login_failures')
        .addColumn('id', t.bigId, t.idConstraints)
        .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('document', 'ip')`))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_failures_lookup_idx').on('login_failures').columns(['scope', 'key', 'created_at']).execute();
      await db.schema.createIndex('login_failures_created_idx').on('login_failures').column('created_at').execute();

      await db.schema
        .createTable('terms')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('version', 'integer', (c) => c.notNull().unique())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('pdf', t.blob, (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('published_at', t.timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('term_decisions')
        .addColumn('id', t.bigId, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('cascade'))
        .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id'))
        .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('aceite', 'rejeite')`))
        .addColumn('decided_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('term_decisions_driver_term_idx').on('term_decisions').columns(['driver_id', 'term_id', 'id']).execute();

      await db.schema
        .createTable('accounts')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('restrict'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('own', 'third')`))
        .addColumn('balance_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('accounts_driver_kind_unique', ['driver_id', 'kind'])
        .execute();

      await db.schema
        .createTable('ledger_entries')
        .addColumn('id', t.bigId, t.idConstraints)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('restrict'))
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('restrict'))
        .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents <> 0`))
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('event', 'text')
        .addColumn('place_name', 'text', (c) => c.notNull())
        .addColumn('is_third', 'integer', (c) =>
          c
            .notNull()
            .defaultTo(0)
            .check(sql`is_third in (0, 1)`),
        )
        .addColumn('reference', 'text')
        .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('ledger_entries_statement_idx')
        .on('ledger_entries')
        .columns(['driver_id', 'created_at desc', 'id desc'])
        .execute();
      await db.schema.createIndex('ledger_entries_account_idx').on('ledger_entries').column('account_id').execute();
    },
  };
}
