import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/connection.js';
import { createTestDatabase, describeOneDatabase } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';

/** pg's own idle timeout, which the pool no longer applies: a quiet moment longer than it. */
const PG_DEFAULT_IDLE_MS = 10_000;

describeOneDatabase('the PostgreSQL pool after a quiet moment', 'postgres', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = database.open();
  });

  afterAll(async () => {
    await db?.kysely.destroy();
    await database?.drop();
  });

  const backends = async () =>
    (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(db.kysely)).rows
      .map((r) => r.pid)
      .sort();

  it('keeps its connections open, so the next request finds a backend that has planned before', async () => {
    // Three at once: the pool opens three backends.
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.2)`.execute(db.kysely)));
    const before = await backends();
    expect(before.length).toBeGreaterThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, PG_DEFAULT_IDLE_MS + 1_000));
    expect(await backends()).toEqual(before);
  }, 30_000);

  it('a connection ended by the server while held between two queries fails its next query, and the process goes on', async () => {
    // An export holds its connection between chunks; a replica stopped then ends it (57P01). pg
    // emits the error on the client, which the pool no longer listens to while it is lent out:
    // without a listener of its own, an uncaught exception that ends the server.
    await db.kysely.connection().execute(async (held) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(held);
      const other = database.open();
      try {
        await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(other.kysely);
      } finally {
        await other.kysely.destroy();
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(sql`select 1`.execute(held)).rejects.toThrow();
    });
    expect((await sql<{ one: number }>`select 1 as one`.execute(db.kysely)).rows).toEqual([{ one: 1 }]);
  });
});
