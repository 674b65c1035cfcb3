import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 24 (decision 56): a toll passage becomes a record of its own (which operator, tag, plaza,
 * instant and value; what each account paid of it and what was given back), so that a driver can
 * contest it and an accepted contest gives back once to the account that paid. A passage flagged
 * on arrival as a possible double charge names the earlier one. Passages recorded before this
 * migration left no record of their tag and cannot be contested in the portal (decision 56).
 */
export function contests(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('passages')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('partner_id', 'integer', (c) => c.notNull().references('partners.id'))
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('operator_cnpj', 'text', (c) => c.notNull())
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id'))
        .addColumn('serial_number', 'text', (c) => c.notNull())
        .addColumn('place_name', 'text', (c) => c.notNull())
        .addColumn('occurred_at', t.timestamp, (c) => c.notNull())
        .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
        .addColumn('is_third', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('duplicate_of', 'integer', (c) => c.references('passages.id'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('passages_partner_external_unique', ['partner_id', 'external_id'])
        .execute();
      // The same tag at the same plaza around an instant: the double-charge check on arrival.
      await db.schema.createIndex('passages_tag_place_idx').on('passages').columns(['tag_id', 'place_name', 'occurred_at']).execute();
      // The dashboard's possible double charges: only the flagged passages are in it.
      await sql`create index passages_driver_duplicate_idx on passages (driver_id, id) where duplicate_of is not null`.execute(db);

      await db.schema
        .createTable('passage_payments')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('passage_id', 'integer', (c) => c.notNull().references('passages.id'))
        .addColumn('entry_id', 'integer', (c) => c.notNull().unique().references('ledger_entries.id'))
        .addColumn('account', 'text', (c) => c.notNull().check(sql`account in ('own', 'third', 'vpo')`))
        .addColumn('vpo_id', 'integer', (c) => c.references('vpos.id'))
        .addColumn('paid_cents', 'bigint', (c) => c.notNull().check(sql`paid_cents > 0`))
        .addColumn('refunded_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addCheckConstraint('passage_payments_refund_range', sql`refunded_cents >= 0 and refunded_cents <= paid_cents`)
        .execute();
      await db.schema.createIndex('passage_payments_passage_idx').on('passage_payments').columns(['passage_id', 'id']).execute();

      await db.schema
        .createTable('contests')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('passage_id', 'integer', (c) => c.notNull().references('passages.id'))
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('operator_cnpj', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) =>
          c.notNull().check(sql`reason in ('DUPLICADA', 'CATEGORIA', 'NAO_PASSOU', 'VPO_E_SALDO', 'OUTRO')`),
        )
        .addColumn('description', 'text')
        .addColumn('state', 'text', (c) =>
          c
            .notNull()
            .defaultTo('ABERTA')
            .check(sql`state in ('ABERTA', 'ACEITA', 'RECUSADA')`),
        )
        .addColumn('opened_at', t.timestamp, (c) => c.notNull())
        .addColumn('due_at', t.timestamp, (c) => c.notNull())
        .addColumn('answered_at', t.timestamp)
        .addColumn('answer', 'text')
        .addColumn('refund_cents', 'bigint', (c) => c.check(sql`refund_cents is null or refund_cents > 0`))
        .addColumn('answered_by', 'text')
        .execute();
      // One contest under analysis per passage, whatever runs beside the one being opened.
      await sql`create unique index contests_one_open_idx on contests (passage_id) where state = 'ABERTA'`.execute(db);
      await db.schema.createIndex('contests_passage_idx').on('contests').columns(['passage_id', 'id']).execute();
      await db.schema.createIndex('contests_driver_idx').on('contests').columns(['driver_id', 'id']).execute();
      await db.schema.createIndex('contests_operator_idx').on('contests').columns(['operator_cnpj', 'state', 'opened_at']).execute();
      await db.schema.createIndex('contests_due_idx').on('contests').columns(['state', 'due_at']).execute();
    },
  };
}
