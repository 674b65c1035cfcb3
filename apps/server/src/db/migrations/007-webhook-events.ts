import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 9: Asaas counts only HTTP 200 as delivered and pauses its whole queue after repeated
 * failures, so an authenticated event that cannot be applied is answered 200 and kept here for
 * the operator (pix:events). A charge also remembers how much of it was refunded (partial
 * refunds) and when it was cancelled at the provider (expiry, founding decision 14).
 */
export function webhookEvents(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_events')
        .addColumn('id', t.id, t.idConstraints)
        // Asaas's event id (its retries repeat it), or event:reference when it sends none.
        .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('provider_ref', 'text')
        .addColumn('reason_code', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        // Only the fields the contract reads: never keys, names or documents.
        .addColumn('excerpt', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'resolved')`))
        .addColumn('note', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('resolved_at', t.timestamp)
        .execute();
      await db.schema.createIndex('webhook_events_status_idx').on('webhook_events').columns(['status', 'id']).execute();
      await db.schema
        .alterTable('pix_charges')
        .addColumn('refunded_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('pix_charges').addColumn('provider_cancelled_at', t.timestamp).execute();
    },
  };
}
