import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, pgUp } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { replicaAvailable, startReplica } from '../helpers/replica.js';
import type { Replica } from '../helpers/replica.js';

async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const rows = async (url: string) => (await query<{ n: number }>(url, 'select n from t order by n')).map((r) => r.n);

/** The harness itself (helpers/replica.ts): a real standby that follows, lags when paused, and fails when stopped. */
(pgUp && replicaAvailable ? describe : describe.skip)('réplica de streaming para testes', () => {
  let database: TestDatabase | undefined;
  let replica: Replica | undefined;
  let primaryUrl = '';
  let replicaUrl = '';

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    primaryUrl = database.url;
    replica = await startReplica();
    replicaUrl = replica.urlOf(new URL(database.url).pathname.slice(1));
  });

  afterAll(async () => {
    await replica?.destroy();
    await database?.drop();
  });

  const r = () => {
    if (!replica) throw new Error('réplica não iniciada');
    return replica;
  };

  it('follows the primary', async () => {
    await query(primaryUrl, 'create table t (n int primary key)');
    await query(primaryUrl, 'insert into t values (1)');
    await r().catchUp();
    expect(await rows(replicaUrl)).toEqual([1]);
  });

  it('paused, it receives the WAL but keeps answering with the old data', async () => {
    await r().pauseReplay();
    await query(primaryUrl, 'insert into t values (2)');
    const [target] = await query<{ lsn: string }>(primaryUrl, 'select pg_current_wal_lsn()::text as lsn');
    for (let i = 0; ; i++) {
      const [received] = await query<{ done: boolean | null }>(
        replicaUrl,
        `select pg_last_wal_receive_lsn() >= '${target?.lsn}'::pg_lsn as done`,
      );
      if (received?.done) break;
      expect(i, 'a réplica não recebeu o WAL do primário').toBeLessThan(100);
      await sleep(50);
    }
    await expect(r().catchUp(300)).rejects.toThrow(/não alcançou/);
    expect(await rows(replicaUrl)).toEqual([1]);
    expect(await rows(primaryUrl)).toEqual([1, 2]);
  });

  it('resumed, it catches up', async () => {
    await r().resumeReplay();
    await r().catchUp();
    expect(await rows(replicaUrl)).toEqual([1, 2]);
  });

  it('stopped, connections fail; started again, it catches up', async () => {
    await r().stop();
    await expect(rows(replicaUrl)).rejects.toThrow();
    await r().start();
    await r().catchUp();
    expect(await rows(replicaUrl)).toEqual([1, 2]);
  });

  it('destroy stops it for good and can be called twice', async () => {
    await r().destroy();
    await r().destroy();
    await expect(rows(replicaUrl)).rejects.toThrow();
  });
});
