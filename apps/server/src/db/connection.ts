import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver } from 'kysely';
import type { DatabaseConnection, Driver, SqliteDialectConfig, Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { writeMarker } from './request-writes.js';
import { withStatementCache } from './sqlite-statement-cache.js';

export type Dialect = 'sqlite' | 'postgres';

/** A transaction over the database: what the ledger, the services and the ports write in. */
export type Trx = Transaction<Database>;

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
}

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite';
}

/** 'file:/x/portal.sqlite', 'sqlite:./x.sqlite', ':memory:' or a plain path. */
export function sqlitePath(url: string): string {
  return url.replace(/^(file|sqlite):(\/\/)?/i, '');
}

const INT8_OID = 20;

/** int8 (bigint, count(*)) as a JS number: centavos and ids stay far below 2^53; refuse otherwise. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') {
      return (value: string) => {
        const n = Number(value);
        if (!Number.isSafeInteger(n)) throw new RangeError(`int8 fora do intervalo seguro: ${value}`);
        return n;
      };
    }
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
};

/** The driver under each Kysely instance that openDb made (db/compiled-query.ts runs its reads on it). */
const handles = new WeakMap<Kysely<Database>, { sqlite: SQLite.Database } | { pool: pg.Pool }>();

export function driverHandleOf(kysely: Kysely<Database>): { sqlite: SQLite.Database } | { pool: pg.Pool } | undefined {
  return handles.get(kysely);
}

export interface OpenOptions {
  poolMax?: number;
  /** An idle PostgreSQL connection failed (server restart, network): the pool replaces it. */
  onPoolError?: (error: Error) => void;
  /** How long a new PostgreSQL connection may take (a replica that went away fails fast); none by default. */
  connectionTimeoutMs?: number;
}

export function openDb(url: string, options: OpenOptions = {}): Db {
  if (dialectOf(url) === 'postgres') {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolMax ?? 10,
      // A connection stays open once made. A new backend plans its first queries cold over every
      // month's partition (decision 80): about 40 ms for one read of ledger_entries against 1 ms
      // warm, 80 to 150 ms for a passage against 15 ms. pg closed idle ones after 10 s, so the
      // first request after a quiet moment paid it. operations.md budgets max_connections for
      // every instance's whole pool.
      idleTimeoutMillis: 0,
      types: pgTypes,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 0,
    });
    // Without a listener an idle client's error would crash the process.
    pool.on('error', (error) => options.onPoolError?.(error));
    // The pool listens to a client only while it is idle. One lent out and ended by the server
    // between two queries (a replica stopped while an export holds it between chunks) emits its
    // error on the client: the query it fails, or its next one, reports it; this keeps it from
    // ending the process as an uncaught exception.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [writeMarker] });
    handles.set(kysely, { pool });
    return { kysely, dialect: 'postgres' };
  }
  const file = sqlitePath(url);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  const kysely = new Kysely<Database>({
    dialect: new WriteLockFirstDialect({ database: withStatementCache(sqlite) }),
    plugins: [writeMarker],
  });
  handles.set(kysely, { sqlite });
  return { kysely, dialect: 'sqlite' };
}

/** How long one SQLite statement waits for another process's write before it reports SQLITE_BUSY. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;
/** Further waits of a transaction's start while another process holds the write lock (each after busy_timeout). */
const SQLITE_BEGIN_ATTEMPTS = 4;

/** SQLite's "database is locked" (SQLITE_BUSY and its extended codes). */
function isSqliteBusy(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  return code.startsWith('SQLITE_BUSY');
}

/**
 * Issue 33, point 8 (decision 61): on SQLite every transaction takes the write lock when it begins
 * (BEGIN IMMEDIATE), the one place where another process's write is met. A deferred transaction reads
 * first; when another process (the CLI, a second instance) commits before it writes, SQLite refuses the
 * write at once with SQLITE_BUSY_SNAPSHOT, without waiting: a webhook answered 500. Begun immediate, the
 * transaction waits for the other write (busy_timeout), then retries the start a few times, nothing yet done.
 * In this process the one connection already runs one transaction at a time (Kysely's mutex).
 */
class WriteLockFirstDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
        return;
      } catch (error) {
        if (!isSqliteBusy(error) || attempt >= SQLITE_BEGIN_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  }
}

class WriteLockFirstDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new WriteLockFirstDriver(this.settings);
  }
}

/** SQLite's and PostgreSQL's unique-constraint violations. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function nowIso(): string {
  return new Date().toISOString();
}

export function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
