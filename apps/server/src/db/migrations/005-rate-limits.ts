import type { Kysely, Migration } from 'kysely';

/**
 * Issue 8: one table of counters for the sign-in and request limits (docs/decisions.md, "Sign-in
 * and request limits"), shared by every instance. A row is one fixed window of one bucket; times
 * are epoch milliseconds so both dialects compare plain integers. It replaces login_failures,
 * which counted failures after the password check and so could be out-raced.
 */
export function rateLimits(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rate_limits')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('next_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limits_pk', ['scope', 'key', 'window_start'])
        .execute();
      await db.schema.createIndex('rate_limits_expires_idx').on('rate_limits').column('expires_at').execute();
      await db.schema.dropTable('login_failures').execute();
    },
  };
}
