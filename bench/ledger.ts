import Database from 'better-sqlite3';
import path from 'node:path';
import type { Db, Trx } from '../apps/server/src/db/connection.js';
import { toIso } from '../apps/server/src/db/connection.js';
import { accountId, post } from '../apps/server/src/modules/ledger/ledger.js';
import type { EntryInput } from '../apps/server/src/modules/ledger/ledger.js';
import { openBenchApp } from './app.js';
import { median } from './lib.js';

export interface LedgerBenchResult {
  ledgerOpsPerSecond: number;
  rawSqlOpsPerSecond: number;
  ratio: number;
  entries: number;
  fillSeconds: number;
  statement: { page: number; medianMs: number; p95Ms: number }[];
  balanceMedianMs: number;
  totalPages: number;
  /** ledger.post of a passage reported late, dated before the `newerEntries` newest entries (nothing moves since decision 54). */
  latePassage: { newerEntries: number; medianMs: number }[];
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)] ?? 0;

/** The least SQL a movement needs (insert an entry, update a balance) in its own transaction: the baseline. */
function rawSqlOpsPerSecond(file: string, ops: number): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table accounts (id integer primary key, balance_cents integer not null)');
  db.exec(
    'create table entries (id integer primary key, account_id integer not null, amount_cents integer not null, idempotency_key text not null unique)',
  );
  db.exec('insert into accounts (id, balance_cents) values (1, 0)');
  const insert = db.prepare('insert into entries (account_id, amount_cents, idempotency_key) values (1, ?, ?)');
  const update = db.prepare('update accounts set balance_cents = balance_cents + ? where id = 1');
  const move = db.transaction((i: number) => {
    insert.run(100, `raw:${i}`);
    update.run(100);
  });
  const start = performance.now();
  for (let i = 0; i < ops; i++) move(i);
  const seconds = (performance.now() - start) / 1000;
  db.close();
  return ops / seconds;
}

/**
 * A passage dated 1 ms before the entry `newer` places from the top of the statement, posted in its
 * own transaction: the median time over `samples` posts.
 */
async function latePassageMs(
  db: Db,
  driverId: number,
  entry: Omit<EntryInput, 'idempotencyKey' | 'createdAt'>,
  newer: number,
  samples: number,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const pivot = await db.kysely
      .selectFrom('ledger_entries')
      .select('created_at')
      .where('driver_id', '=', driverId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(newer - 1)
      .limit(1)
      .executeTakeFirstOrThrow();
    const createdAt = new Date(Date.parse(toIso(pivot.created_at)) - 1).toISOString();
    const start = performance.now();
    await db.kysely.transaction().execute((trx) => post(trx, { ...entry, idempotencyKey: `bench:late:${newer}:${i}`, createdAt }));
    times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * Ledger movements per second on SQLite (one movement per transaction, as the services do),
 * then GET /api/extrato/listar for a driver with `entries` entries: page 1, a middle page and
 * the last page, against GET /api/motorista/saldo on the same app; last, what a passage reported
 * late costs (decision 54: it no longer moves the entries dated after it; bench/statement-order.ts measures it at any date).
 */
export async function benchLedger(entries: number, singleOps = 5000, samples = 200): Promise<LedgerBenchResult> {
  const { dir, db, app, token, driverId, close } = await openBenchApp('ledger');
  try {
    const own = await accountId(db.kysely, driverId, 'own');
    const movement = (trx: Trx, i: number) =>
      post(trx, {
        accountId: own,
        amountCents: i % 3 === 0 ? -590 : 1000,
        origin: 'passagem',
        event: null,
        placeName: `Praça de pedágio ${i % 50}`,
        idempotencyKey: `bench:${i}`,
      });

    let start = performance.now();
    for (let i = 0; i < singleOps; i++) await db.kysely.transaction().execute((trx) => movement(trx, i));
    const ledgerOpsPerSecond = singleOps / ((performance.now() - start) / 1000);
    const rawOps = rawSqlOpsPerSecond(path.join(dir, 'raw.sqlite'), singleOps);

    // The rest of the history through the same ledger code, many movements a transaction.
    start = performance.now();
    const batch = 5000;
    for (let done = singleOps; done < entries; done += batch) {
      await db.kysely.transaction().execute(async (trx) => {
        for (let i = done; i < Math.min(done + batch, entries); i++) await movement(trx, i);
      });
    }
    const fillSeconds = (performance.now() - start) / 1000;

    const get = async (url: string) => {
      const t = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      const ms = performance.now() - t;
      if (res.statusCode !== 200) throw new Error(`${url} -> ${res.statusCode}`);
      return { ms, body: res.json<{ Paginacao?: { TotalPaginas: number }; Transacoes?: unknown[] }>() };
    };
    const totalPages = (await get('/api/extrato/listar?page=1')).body.Paginacao?.TotalPaginas ?? 0;
    const statement = [];
    for (const page of [1, Math.ceil(totalPages / 2), totalPages]) {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const { ms, body } = await get(`/api/extrato/listar?page=${page}`);
        if (!body.Transacoes?.length) throw new Error(`page ${page} came back empty`);
        times.push(ms);
      }
      statement.push({ page, medianMs: median(times), p95Ms: percentile(times, 0.95) });
    }
    const balanceTimes: number[] = [];
    for (let i = 0; i < samples; i++) balanceTimes.push((await get('/api/motorista/saldo')).ms);

    const late = { accountId: own, amountCents: -590, origin: 'passagem', placeName: 'Praça de pedágio tardia' };
    const latePassage = [];
    for (const newer of [100, 10_000].filter((k) => k < entries)) {
      latePassage.push({ newerEntries: newer, medianMs: await latePassageMs(db, driverId, late, newer, 20) });
    }

    return {
      ledgerOpsPerSecond,
      rawSqlOpsPerSecond: rawOps,
      ratio: ledgerOpsPerSecond / rawOps,
      entries,
      fillSeconds,
      statement,
      balanceMedianMs: median(balanceTimes),
      totalPages,
      latePassage,
    };
  } finally {
    await close();
  }
}
