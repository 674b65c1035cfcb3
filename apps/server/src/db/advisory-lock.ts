import { sql } from 'kysely';
import type { Db } from './connection.js';

/** PostgreSQL advisory lock keys shared by every instance on one database. */
export const ADVISORY_LOCKS = {
  firstStart: 8_460_001,
  migrations: 8_460_002,
  billing: 8_460_003,
  /** Decision 57: the push notifications' outbox, drained by one instance at a time. */
  pushOutbox: 8_460_057,
  /** Decision 58: the Pix Automático cycles' schedule. */
  pixAutomaticCycles: 8_460_058,
  /** Decision 71: the retention job, one instance at a time. */
  retention: 8_460_071,
} as const;

/**
 * Runs `work` while this process holds the session lock `key`, waiting for it when another
 * instance has it. The lock lives on one pooled connection (released if the process dies), and
 * `work` gets a Db bound to that same connection, so a pool of one is enough and locks nest.
 * SQLite is one process: no lock.
 */
export async function withAdvisoryLock<T>(db: Db, key: number, work: (locked: Db) => Promise<T>): Promise<T> {
  if (db.dialect !== 'postgres') return work(db);
  return db.kysely.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${key}::bigint)`.execute(conn);
    try {
      return await work({ kysely: conn, dialect: db.dialect });
    } finally {
      await sql`select pg_advisory_unlock(${key}::bigint)`.execute(conn);
    }
  });
}

/** Like withAdvisoryLock, without waiting: `null` when another instance holds the lock. */
export async function tryAdvisoryLock<T>(db: Db, key: number, work: (locked: Db) => Promise<T>): Promise<{ value: T } | null> {
  if (db.dialect !== 'postgres') return { value: await work(db) };
  return db.kysely.connection().execute(async (conn) => {
    const got = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}::bigint) as locked`.execute(conn);
    if (!got.rows[0]?.locked) return null;
    try {
      return { value: await work({ kysely: conn, dialect: db.dialect }) };
    } finally {
      await sql`select pg_advisory_unlock(${key}::bigint)`.execute(conn);
    }
  });
}
