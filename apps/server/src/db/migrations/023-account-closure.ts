import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 35 (decision 70): a driver closes their account. The drivers row stays (the ledger, receipts,
 * VPOs, passages and contests point to it and are kept 5 years after the closing, Lei 9.613/1998
 * art. 10, § 2º) with its name, phone and password erased and its CPF/CNPJ replaced, so that the
 * document can open a new account. The document is kept here alone, until keep_until, when the
 * retention job erases it. The closing receipt is fetched once the session is gone through a
 * short-lived token (only its hash is stored).
 */
export function accountClosure(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('closed_accounts')
        .addColumn('driver_id', 'integer', (c) => c.primaryKey().references('drivers.id'))
        .addColumn('cpf_cnpj', 'text', (c) => c.notNull())
        .addColumn('closed_at', t.timestamp, (c) => c.notNull())
        // closed_at + 5 years: until then the records (and this document) stay; the retention job reads it.
        .addColumn('keep_until', t.timestamp, (c) => c.notNull())
        .addColumn('receipt_token_hash', 'text', (c) => c.unique())
        .addColumn('receipt_expires_at', t.timestamp)
        .execute();
      await db.schema.createIndex('closed_accounts_keep_until_idx').on('closed_accounts').column('keep_until').execute();
      await db.schema.createIndex('closed_accounts_document_idx').on('closed_accounts').column('cpf_cnpj').execute();

      // A closed account's tag the operator gateway could not cancel at once: retried (CLI) until done.
      await db.schema
        .createTable('closure_tag_cancellations')
        .addColumn('tag_id', 'integer', (c) => c.primaryKey().references('tags.id'))
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('cancelled_at', t.timestamp)
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .execute();
      await db.schema.createIndex('closure_tag_cancellations_pending_idx').on('closure_tag_cancellations').column('cancelled_at').execute();
    },
  };
}
