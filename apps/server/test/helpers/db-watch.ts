import { sql } from 'kysely';
import type { Db } from '../../src/db/connection.js';

/**
 * Tables that legitimately change when a request is refused: the counters of the sign-in and
 * request limits (a refused guess must be counted) and the migrator's own bookkeeping.
 */
const COUNTER_TABLE =
  /^(kysely_migration|kysely_migration_lock|login_failures|login_attempts|rate_limit\w*|request_limit\w*|test_change_log)$/;

export interface DatabaseWatch {
  /** Rows inserted, updated or deleted in the watched tables since the watch began. */
  changes(): Promise<number>;
  /** Every row of every watched table, in key order: compared byte for byte. */
  snapshot(): Promise<string>;
  watched: string[];
}

async function tableNames(db: Db): Promise<string[]> {
  const rows =
    db.dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(
          db.kysely,
        )
      : // A partitioned table's months are read and watched through it (its row triggers reach them).
        await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`.execute(db.kysely);
  return rows.rows.map((r) => r.name).filter((name) => !COUNTER_TABLE.test(name));
}

/**
 * A row trigger on every table (but the counters) bumps one number, in the same transaction as
 * the change: a rolled-back change leaves it as it was, and one read tells whether anything was
 * written. snapshot() reads everything, to check the triggers themselves now and then.
 */
export async function watchDatabase(db: Db): Promise<DatabaseWatch> {
  const watched = await tableNames(db);
  await sql`create table test_change_log (n bigint not null)`.execute(db.kysely);
  await sql`insert into test_change_log (n) values (0)`.execute(db.kysely);
  if (db.dialect === 'postgres') {
    await sql`create function test_bump() returns trigger language plpgsql as $$ begin update test_change_log set n = n + 1; return null; end $$`.execute(
      db.kysely,
    );
    for (const table of watched) {
      await sql`create trigger ${sql.raw(`test_watch_${table}`)} after insert or update or delete on ${sql.table(table)} for each row execute function test_bump()`.execute(
        db.kysely,
      );
    }
  } else {
    for (const table of watched) {
      for (const op of ['insert', 'update', 'delete']) {
        await sql`create trigger ${sql.raw(`test_watch_${table}_${op}`)} after ${sql.raw(op)} on ${sql.table(table)} begin update test_change_log set n = n + 1; end`.execute(
          db.kysely,
        );
      }
    }
  }
  return {
    watched,
    async changes() {
      const row = await sql<{ n: number | string }>`select n from test_change_log`.execute(db.kysely);
      return Number(row.rows[0]?.n ?? 0);
    },
    snapshot: () => snapshotDatabase(db, watched),
  };
}

/** Every row of every table but the counters (or of the tables named), in key order, as one text. */
export async function snapshotDatabase(db: Db, tables?: string[]): Promise<string> {
  const parts: string[] = [];
  for (const table of tables ?? (await tableNames(db))) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by 1`.execute(db.kysely);
    parts.push(`${table}:${JSON.stringify(rows.rows, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v))}`);
  }
  return parts.join('\n');
}
