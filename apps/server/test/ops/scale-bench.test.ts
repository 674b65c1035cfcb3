import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { saoPauloDayStartIso } from '@portal/domain';
import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/connection.js';
import { createTestDatabase, describeOneDatabase } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..');

/** The part of bench/scale.ts's result this test reads (the bench is its own TypeScript project). */
interface ScaleRun {
  sizes: {
    build: {
      rows: Record<string, number>;
      skew: { heaviestEntries: number; medianEntries: number; carriersShareOfPassages: number };
      keyTables: boolean;
    };
    ops: { op: string; samples: number; detail: string; maxMs: number; slowest: { ms: number; gcMs: number; newConnections: number }[] }[];
  }[];
  jobs: { runs: { job: string; did: string }[] } | null;
  picks: { heavy: { id: number; entries: number }[] };
}

async function count(db: Db, query: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`select (${query}) as n`.execute(db.kysely);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Issue 38: the scale bench's smaller run, the same code as `npm run bench -- scale` at 1/50,000 of
 * the year (20 drivers), in a fresh database: the fill's rows and invariants (checked here again,
 * after the measured calls wrote through the services), every measured operation once, the jobs once.
 */
describeOneDatabase('the scale bench (bench/scale.ts), a year at 1/50,000', 'postgres', () => {
  let database: TestDatabase;
  let db: Db;
  let result: ScaleRun;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    dir = await mkdtemp(path.join(os.tmpdir(), 'portal-scale-test-'));
    const out = path.join(dir, 'scale.json');
    await run(path.join(repoRoot, 'node_modules/.bin/tsx'), ['bench/scale.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        BENCH_PG_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
        BENCH_SCALE_DATABASE_URL: database.url,
        BENCH_SCALE_FRACTIONS: '0.00002',
        BENCH_SCALE_SAMPLES: '1',
        BENCH_SCALE_LOAD_SECONDS: '0',
        BENCH_SCALE_OUT: out,
      },
      timeout: 120_000,
    });
    result = JSON.parse(await readFile(out, 'utf8')) as ScaleRun;
    db = database.open();
  }, 150_000);

  afterAll(async () => {
    await db?.kysely.destroy();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes every kind of row, near the sizes asked, skewed toward a few carriers', () => {
    const size = result.sizes[0];
    if (!size) throw new Error('sem resultado');
    const { rows, skew } = size.build;
    expect(rows.drivers).toBe(20);
    expect(rows.tags).toBe(30);
    expect(rows.vehicles).toBe(30);
    expect(rows.passages).toBeGreaterThan(700);
    expect(rows.passages).toBeLessThan(900);
    expect(rows.ledger_entries).toBeGreaterThan(900);
    expect(rows.ledger_entries).toBeLessThan(1200);
    expect(rows.vpos).toBe(10);
    expect(rows.contests).toBe(4);
    for (const kind of [
      'tag_fee_charges',
      'pix_charges',
      'free_flow_tolls',
      'ledger_entry_counts',
      'ledger_scope_counts',
      'access_records',
      'sessions',
    ])
      expect(rows[kind], kind).toBeGreaterThan(0);
    expect(skew.heaviestEntries).toBeGreaterThan(10 * skew.medianEntries);
    expect(skew.carriersShareOfPassages).toBeGreaterThan(0.3);
  });

  it('measures every operation once, each answering with its rows', () => {
    const ops = new Map(result.sizes[0]?.ops.map((o) => [o.op, o]));
    expect([...ops.keys()]).toEqual([
      'balance',
      'statement page 1, light driver',
      'statement page 1, carrier',
      'statement page 1, carrier of 5,000',
      'statement deep page, carrier',
      'late passage (3 weeks old)',
      'batch of 1,000 passages',
      "a VPO's read",
      "operator's contest list",
      'statement export, 10,000 rows (CSV)',
      'sign-in',
    ]);
    for (const o of ops.values()) {
      expect(o.samples, o.op).toBe(1);
      // The one call is the slowest, kept with the GC time that fell inside it.
      expect(o.slowest, o.op).toHaveLength(1);
      expect(o.slowest[0]?.ms, o.op).toBe(o.maxMs);
      expect(o.slowest[0]?.gcMs, o.op).toBeLessThanOrEqual(o.maxMs);
    }
    expect(result.jobs?.runs.map((r) => r.job)).toEqual(['billing', 'notices', 'retention']);
    expect(result.jobs?.runs[0]?.did).toMatch(/^[1-9][\d,]* charged/);
  });

  it("exports the heaviest carrier's entries of the period it names, every one", async () => {
    const detail = result.sizes[0]?.ops.find((o) => o.op === 'statement export, 10,000 rows (CSV)')?.detail ?? '';
    const [, from, to, rows] = /(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2}): ([\d,]+) rows$/.exec(detail) ?? [];
    const start = saoPauloDayStartIso(from ?? '', 0);
    const end = saoPauloDayStartIso(to ?? '', 1);
    if (!start || !end || !rows) throw new Error(`exportação sem período: ${detail}`);
    const heaviest = result.picks.heavy[0]?.id ?? 0;
    const entries = await count(
      db,
      sql`select count(*) from ledger_entries where driver_id = ${heaviest} and created_at >= ${start} and created_at < ${end}`,
    );
    expect(entries).toBeGreaterThan(0);
    expect(Number(rows.replace(/,/g, ''))).toBe(entries);
  });

  it('keeps the ledger whole: balances the sums of the entries, counters counting them, every entry its key', async () => {
    expect(
      await count(
        db,
        sql`select count(*) from accounts a left join (select account_id, sum(amount_cents) as total from ledger_entries group by account_id) s
          on s.account_id = a.id where a.balance_cents <> coalesce(s.total, 0)`,
      ),
    ).toBe(0);
    for (const unit of ['month', 'day', 'hour']) {
      expect(
        await count(
          db,
          sql`select count(*) from (select driver_id, count(*) as n from ledger_entries group by driver_id) e
            full join (select driver_id, sum(entries) as n from ledger_entry_counts where unit = ${unit} group by driver_id) c using (driver_id)
            where e.n is distinct from c.n`,
        ),
        unit,
      ).toBe(0);
      expect(
        await count(
          db,
          sql`select count(*) from (select driver_id, count(*) as n from ledger_entries where vehicle_id is not null group by driver_id) e
            full join (select driver_id, sum(entries) as n from ledger_scope_counts where scope = 'vehicle' and unit = ${unit} group by driver_id) c
            using (driver_id) where e.n is distinct from c.n`,
        ),
        `${unit}, per vehicle`,
      ).toBe(0);
    }
    expect(
      await count(db, sql`select count(*) from passages p where not exists (select 1 from passage_payments pp where pp.passage_id = p.id)`),
    ).toBe(0);
    expect(await count(db, sql`select count(*) from vpos where held_cents <> used_cents + left_cents + refunded_cents`)).toBe(0);
    if (result.sizes[0]?.build.keyTables) {
      expect(
        await count(
          db,
          sql`select (select count(*) from ledger_entries e where not exists (select 1 from ledger_entry_keys k where k.idempotency_key = e.idempotency_key))
            + (select count(*) from ledger_entry_keys k where not exists (select 1 from ledger_entries e where e.idempotency_key = k.idempotency_key))
            + (select count(*) from passages p where not exists (select 1 from passage_keys k where k.partner_id = p.partner_id and k.external_id = p.external_id))`,
        ),
      ).toBe(0);
    }
  });
});
