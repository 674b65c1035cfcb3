import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 25 (decision 57): Web Push. A driver's devices (one push subscription each, tied to the
 * session that made it so 'Sair' removes it), the notifications waiting to be sent (an outbox
 * written in the event's own transaction and drained by one instance at a time), and the server's
 * VAPID key pair when the environment gives none (development: every instance shares one).
 */
export function pushNotifications(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('push_subscriptions')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('session_id', 'integer', (c) => c.references('sessions.id'))
        .addColumn('endpoint', 'text', (c) => c.notNull().unique())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('last_success_at', t.timestamp)
        .execute();
      await db.schema.createIndex('push_subscriptions_driver_idx').on('push_subscriptions').columns(['driver_id']).execute();
      await db.schema.createIndex('push_subscriptions_session_idx').on('push_subscriptions').columns(['session_id']).execute();

      await db.schema
        .createTable('notification_outbox')
        .addColumn('id', t.bigId, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        // The event's name: the same event recorded twice (an idempotent replay) is one row.
        .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('due_at', t.timestamp, (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sent_at', t.timestamp)
        .addColumn('gave_up_at', t.timestamp)
        .addColumn('last_error', 'text')
        // JSON array of the subscriptions already reached (or gone): a retry skips them.
        .addColumn('delivered', 'text')
        .execute();
      // The drainer's read: only what is still to be sent is in it.
      await sql`create index notification_outbox_due_idx on notification_outbox (due_at, id) where sent_at is null and gave_up_at is null`.execute(
        db,
      );
      await sql`create index notification_outbox_driver_idx on notification_outbox (driver_id, kind, id) where sent_at is null and gave_up_at is null`.execute(
        db,
      );
      // Sent rows are kept a while (operator's view), then deleted by the drainer.
      await db.schema.createIndex('notification_outbox_sent_idx').on('notification_outbox').columns(['sent_at']).execute();

      await db.schema
        .createTable('vapid_keys')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
    },
  };
}
