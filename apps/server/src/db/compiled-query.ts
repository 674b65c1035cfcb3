import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Compilable, Kysely } from 'kysely';
import { driverHandleOf } from './connection.js';
import type { Database } from './schema.js';

const MARK = '\u0000param:';

/**
 * A Kysely query built and compiled to SQL once, run with new values on each call. Building and
 * compiling costs more than running a small indexed query (the balance call's two); the SQL is
 * the same for every call, only the parameters change. `build` receives `param(name)` to put
 * where a value goes; every other value stays as it was compiled.
 *
 * On SQLite a read runs straight on the connection when no transaction is open on it: the
 * statement is synchronous, so nothing can interleave with it, and it skips Kysely's connection
 * mutex and its chain of awaits (the hot path's largest cost after the socket). While another
 * request is between BEGIN and COMMIT on the one connection, the read waits for it through
 * Kysely like any query, so it never sees money that is not committed. On PostgreSQL it runs on
 * the pool, as Kysely would, but as a named statement: each connection parses and plans it once.
 */
export function compileOnce<K extends string, R>(
  db: Kysely<Database>,
  build: (param: (name: K) => never) => Compilable<R>,
): (values: Record<K, unknown>) => Promise<R[]> {
  const compiled = build((name) => `${MARK}${name}` as never).compile();
  const slots: ({ name: K } | { value: unknown })[] = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(MARK) ? { name: value.slice(MARK.length) as K } : { value },
  );
  const handle = driverHandleOf(db);
  if (handle && 'pool' in handle) {
    const name = `portal_${createHash('sha256').update(compiled.sql).digest('hex').slice(0, 32)}`;
    return async (values) => {
      const parameters = slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value));
      return (await handle.pool.query({ name, text: compiled.sql, values: parameters })).rows as R[];
    };
  }
  const sqlite = handle?.sqlite;
  // Prepared on first use: the app may be built before its tables exist (migrations run at start).
  let statement: Statement<unknown[], R> | null = null;
  const direct = () => {
    if (!sqlite || sqlite.inTransaction) return null;
    if (!statement) {
      statement = sqlite.prepare<unknown[], R>(compiled.sql);
      if (!statement.reader) throw new Error('compileOnce: só consultas de leitura');
    }
    return statement;
  };
  return async (values) => {
    const parameters = slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value));
    const read = direct();
    if (read) return read.all(parameters);
    return (await db.executeQuery<R>({ ...compiled, parameters })).rows;
  };
}
