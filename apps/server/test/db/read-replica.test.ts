import { STATEMENT_ORIGINS } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import pg from 'pg';
import { openDb } from '../../src/db/connection.js';
import type { Db } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ReadRouter } from '../../src/db/read-replica.js';
import type { Reader } from '../../src/db/read-replica.js';
import { withRequestWrites } from '../../src/db/request-writes.js';
import { createLogger } from '../../src/logger.js';
import { bearer, json, registerDriver, TEST_ENV } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { recordMovements } from '../helpers/movements.js';
import { EXPORT_CHUNK_ROWS } from '../../src/modules/statement/export-rows.js';
import { StatementService } from '../../src/modules/statement/service.js';
import { ensureTerms } from '../../src/modules/terms/bootstrap.js';
import { TermsService } from '../../src/modules/terms/service.js';
import { replicaAvailable, startPrimary, startReplica } from '../helpers/replica.js';
import type { Primary, Replica } from '../helpers/replica.js';

const MAX_LAG_MS = 1_500;
const FRESH_MS = 2_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Decision 81 against a real streaming replica started on this machine (of a primary started for
 * the test): the statement's history
 * reads the replica when it is close behind and the driver's money has not just moved; the
 * driver's last moments, a request that wrote, a replica behind by more than the limit and a
 * replica gone all read the primary, and no read fails.
 */
(replicaAvailable ? describe : describe.skip)('leituras numa réplica (DATABASE_READ_URL)', () => {
  let primary: Primary;
  let replica: Replica;
  let db: Db;
  let app: FastifyInstance;
  let reads: ReadRouter;

  beforeAll(async () => {
    // A primary of the test's own: its base backup is small whatever the shared cluster holds.
    primary = await startPrimary();
    const admin = new pg.Client({ connectionString: primary.urlOf('postgres') });
    await admin.connect();
    await admin.query('create database portal');
    await admin.end();
    db = openDb(primary.urlOf('portal'), { poolMax: 5 });
    await migrateToLatest(db);
    await ensureTerms(new TermsService(db.kysely));
    replica = await startReplica({ primaryUrl: primary.urlOf('postgres') });
    await replica.catchUp(20_000);
    const config = loadConfig({
      ...TEST_ENV,
      DATABASE_URL: primary.urlOf('portal'),
      DATABASE_READ_URL: replica.urlOf('portal'),
      DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
      DATABASE_READ_FRESH_MS: String(FRESH_MS),
    });
    app = await buildApp({ config, db, logger: createLogger('silent') });
    reads = new ReadRouter(db, config.databaseRead, () => undefined, 200);
  }, 60_000);

  afterAll(async () => {
    await reads?.close();
    await app?.close();
    await db?.kysely.destroy();
    await replica?.destroy();
    await primary?.destroy();
  });

  const credit = (driver: Registered, place: string) =>
    recordMovements(db, driver, [{ at: new Date().toISOString(), cents: 1_000, origin: STATEMENT_ORIGINS.pixPurchase, place }], place);

  async function statementPlaces(token: string): Promise<string[]> {
    const res = await app.inject({ method: 'GET', url: '/api/extrato/listar?page=1&periodo=tudo', headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return json<{ Transacoes: { placeName: string }[] }>(res).Transacoes.map((r) => r.placeName);
  }

  /** A change the replica has not replayed, made behind the ledger's back so the driver's money does not "move". */
  async function renameOnPrimary(driverId: number, from: string, to: string): Promise<void> {
    await db.kysely
      .updateTable('ledger_entries')
      .set({ place_name: to })
      .where('driver_id', '=', driverId)
      .where('place_name', '=', from)
      .execute();
  }

  async function until(condition: () => Promise<boolean>, ms = 10_000): Promise<void> {
    const end = Date.now() + ms;
    while (!(await condition())) {
      if (Date.now() > end) throw new Error('condição não alcançada a tempo');
      await sleep(100);
    }
  }

  it('reads the replica for an old history, the primary for the driver’s last moments and once the replica falls behind', async () => {
    const d = await registerDriver(app);
    await credit(d, 'Compra antiga');
    // The driver's own last moments: the primary, whatever the replica has.
    expect(await reads.readsReplica(d.id)).toBe(false);
    expect(await statementPlaces(d.token)).toContain('Compra antiga');
    await replica.catchUp();
    await sleep(FRESH_MS + 200);
    await until(async () => reads.readsReplica(d.id));

    // The replica stops replaying: what changed since is not there, and the statement shows the replica's.
    await replica.pauseReplay();
    await renameOnPrimary(d.id, 'Compra antiga', 'Compra renomeada');
    expect(await statementPlaces(d.token)).toContain('Compra antiga');
    // Behind by more than the limit: the primary again, with what it holds.
    await until(async () => !(await reads.readsReplica(d.id)), 5_000);
    await until(async () => (await statementPlaces(d.token)).includes('Compra renomeada'), 5_000);

    // A new movement while the replica is behind: the driver sees it at once.
    await credit(d, 'Compra nova');
    expect(await statementPlaces(d.token)).toEqual(expect.arrayContaining(['Compra nova', 'Compra renomeada']));
    await replica.resumeReplay();
    await replica.catchUp();
  }, 40_000);

  it('a request that wrote reads the primary from then on', async () => {
    const d = await registerDriver(app);
    await credit(d, 'Antes');
    await replica.catchUp();
    await sleep(FRESH_MS + 200);
    await until(async () => reads.readsReplica(d.id));
    await new Promise<void>((resolve, reject) => {
      withRequestWrites(() => {
        void (async () => {
          expect(await reads.readsReplica(d.id)).toBe(true);
          await db.kysely
            .insertInto('access_records')
            .values({ driver_id: d.id, action: 'entrada', ip_address: '127.0.0.1', occurred_at: new Date().toISOString() })
            .execute();
          expect(await reads.readsReplica(d.id)).toBe(false);
        })().then(resolve, reject);
      });
    });
  }, 20_000);

  it('a partner’s read of a record the replica has not received yet finds it on the primary', async () => {
    const d = await registerDriver(app);
    await replica.catchUp();
    await until(async () => reads.lagMs() <= MAX_LAG_MS);
    await replica.pauseReplay();
    try {
      const { id } = await db.kysely
        .insertInto('access_records')
        .values({ driver_id: d.id, action: 'entrada', ip_address: '127.0.0.1', occurred_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const read = (k: Reader) => k.selectFrom('access_records').select('id').where('id', '=', id).executeTakeFirst();
      // Read on the replica, which does not have it; told it may be missing, the primary is asked.
      expect(await reads.tolerant(read)).toBeUndefined();
      expect(await reads.tolerant(read, (found) => found === undefined)).toEqual({ id });
    } finally {
      await replica.resumeReplay();
      await replica.catchUp();
    }
  }, 20_000);

  it('a replica gone: every read goes to the primary and none fails; back, it is read again', async () => {
    const d = await registerDriver(app);
    await credit(d, 'Antes da queda');
    await replica.catchUp();
    await sleep(FRESH_MS + 200);
    await until(async () => reads.readsReplica(d.id));
    await replica.stop();
    // At once (before the next check notices), and after.
    for (let i = 0; i < 5; i++) {
      expect(await statementPlaces(d.token)).toContain('Antes da queda');
      await sleep(150);
    }
    const csv = await app.inject({ method: 'GET', url: '/api/extrato/exportar?formato=csv&periodo=tudo', headers: bearer(d.token) });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Antes da queda');
    expect(await reads.readsReplica(d.id)).toBe(false);
    await replica.start();
    await replica.catchUp(20_000);
    await until(async () => reads.readsReplica(d.id), 10_000);
    expect(await statementPlaces(d.token)).toContain('Antes da queda');
  }, 40_000);

  it('an export streaming from the replica when it goes away ends on the primary: the same file, every row once', async () => {
    const d = await registerDriver(app);
    const count = EXPORT_CHUNK_ROWS * 2 + 37;
    const start = Date.now() - 3_600_000 - count * 60_000;
    await recordMovements(
      db,
      d,
      Array.from({ length: count }, (_, i) => ({
        at: new Date(start + i * 60_000).toISOString(),
        cents: 100 + i,
        origin: STATEMENT_ORIGINS.pixPurchase,
        place: `Lote ${String(i).padStart(4, '0')}`,
      })),
      'stream',
    );
    await replica.catchUp();
    await sleep(FRESH_MS + 200);
    const lost: Error[] = [];
    const settings = { url: replica.urlOf('portal'), maxLagMs: MAX_LAG_MS, freshMs: FRESH_MS };
    const router = new ReadRouter(db, settings, (e) => lost.push(e), 200);
    try {
      await until(async () => router.readsReplica(d.id));
      const now = new Date();
      const file = await new StatementService(db.kysely, router).export(d.id, 'csv', { periodo: 'tudo' }, now);
      const chunks = file.body[Symbol.asyncIterator]();
      const parts: string[] = [];
      const first = await chunks.next();
      parts.push(String(first.value));
      await replica.stop();
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) parts.push(String(next.value));
      const csv = parts.join('');

      expect(lost.length).toBeGreaterThan(0);
      const fromPrimary = await new StatementService(db.kysely).export(d.id, 'csv', { periodo: 'tudo' }, now);
      let expected = '';
      for await (const part of fromPrimary.body) expected += String(part);
      expect(csv).toBe(expected);
      const places = [...csv.matchAll(/Lote (\d{4})/g)].map((m) => Number(m[1]));
      expect(places).toEqual(Array.from({ length: count }, (_, i) => i));
    } finally {
      await router.close();
      await replica.start();
      await replica.catchUp(20_000);
    }
  }, 60_000);
});
