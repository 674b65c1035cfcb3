import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 11 (safe retries, founding architecture §21): the Idempotency-Key of a driver's call that moves
 * money or changes state. One row per driver and key: the sha256 of the request (method, route,
 * path parameters, body as parsed), and once the call answered, its status, content type and body
 * byte for byte. status_code 0 is a claim whose call is still running (or whose process died
 * before answering): it is never run again. Rows are kept until expires_at (24 hours after the
 * first request), then deleted by whoever claims a key next (http/idempotency.ts).
 */
export function idempotencyKeys(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('answered_at', t.timestamp)
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['driver_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
    },
  };
}
