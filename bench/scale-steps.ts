import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../apps/server/src/db/schema.js';

/** One step of a build: how many rows it wrote and how long it took. */
export interface StepRecord {
  step: string;
  rows: number;
  seconds: number;
  resumed: boolean;
}

/**
 * The build's steps, each in its own transaction with its row in scale_progress: a build that
 * stops (a crash, Ctrl-C, the disk) starts again after the last step done, and a chunked step
 * loses one chunk at most. Prints each step with its rows per second and the time since the start.
 */
export class Steps {
  readonly done: StepRecord[] = [];
  private readonly started = performance.now();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: (line: string) => void,
  ) {}

  /** The progress table; `fingerprint` must be the one the build started with, else the build starts over (the caller drops it). */
  async open(fingerprint: string): Promise<'fresh' | 'resumed' | 'mismatch'> {
    await sql`create table if not exists scale_progress (step text primary key, rows bigint not null, seconds double precision not null)`.execute(
      this.db,
    );
    const { rows } = await sql<{ step: string }>`select step from scale_progress where step like 'fingerprint:%'`.execute(this.db);
    const stored = rows[0]?.step;
    if (stored === undefined) {
      await sql`insert into scale_progress values (${`fingerprint:${fingerprint}`}, 0, 0)`.execute(this.db);
      return 'fresh';
    }
    return stored === `fingerprint:${fingerprint}` ? 'resumed' : 'mismatch';
  }

  /** A value kept across a resumed build (the anchor instant): the stored one, else `value` stored now. */
  async keep(name: string, value: number): Promise<number> {
    const { rows } = await sql<{ rows: string }>`select rows from scale_progress where step = ${`value:${name}`}`.execute(this.db);
    if (rows[0]) return Number(rows[0].rows);
    await sql`insert into scale_progress values (${`value:${name}`}, ${value}, 0)`.execute(this.db);
    return value;
  }

  /** Runs `write` in one transaction (bulk settings on) unless done before; `write` answers the rows it wrote. */
  async run(step: string, write: (trx: Kysely<Database>) => Promise<number>): Promise<void> {
    const { rows } = await sql<{ rows: string; seconds: number }>`select rows, seconds from scale_progress where step = ${step}`.execute(
      this.db,
    );
    if (rows[0]) {
      this.done.push({ step, rows: Number(rows[0].rows), seconds: rows[0].seconds, resumed: true });
      this.log(`  ${step}: done in an earlier run`);
      return;
    }
    const t0 = performance.now();
    const written = await this.db.transaction().execute(async (trx) => {
      await bulkSettings(trx);
      const n = await write(trx);
      await sql`insert into scale_progress values (${step}, ${n}, ${(performance.now() - t0) / 1000})`.execute(trx);
      return n;
    });
    const seconds = (performance.now() - t0) / 1000;
    this.done.push({ step, rows: written, seconds, resumed: false });
    const rate = written > 0 && seconds > 0 ? `, ${Math.round(written / seconds).toLocaleString('en')} rows/s` : '';
    this.log(`  ${step}: ${written.toLocaleString('en')} rows in ${seconds.toFixed(1)} s${rate} [${this.elapsed()}]`);
  }

  /** Outside a transaction (VACUUM cannot run in one): timed and printed, never skipped. */
  async plain(step: string, work: () => Promise<void>): Promise<void> {
    const t0 = performance.now();
    await work();
    const seconds = (performance.now() - t0) / 1000;
    this.done.push({ step, rows: 0, seconds, resumed: false });
    this.log(`  ${step}: ${seconds.toFixed(1)} s [${this.elapsed()}]`);
  }

  elapsed(): string {
    const s = (performance.now() - this.started) / 1000;
    return s < 120 ? `${s.toFixed(0)} s` : `${(s / 60).toFixed(1)} min`;
  }
}

/** A bulk load's session: asynchronous commit (a crash loses the last steps, which run again), big sorts in memory. */
async function bulkSettings(trx: Kysely<Database>): Promise<void> {
  await sql`set local synchronous_commit = off`.execute(trx);
  await sql`set local work_mem = '512MB'`.execute(trx);
  await sql`set local maintenance_work_mem = '1GB'`.execute(trx);
}

/** The rows an INSERT, UPDATE or DELETE touched. */
export async function affected(trx: Kysely<Database>, statement: RawBuilder<unknown>): Promise<number> {
  const result = await statement.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** One number read back (count, sum, max): 0 when null. */
export async function scalar(db: Kysely<Database>, query: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ v: string | number | null }>`select (${query}) as v`.execute(db);
  return Number(rows[0]?.v ?? 0);
}

/**
 * The build's SQL helpers, dropped with the plan tables at the end: scale_h(a, b), a uniform draw
 * in [0, 1) from a hash of two numbers (the same at every build, in any order the rows are made);
 * scale_cpf and scale_cnpj, valid documents (check digits) from a base number.
 */
export async function createHelpers(db: Kysely<Database>): Promise<void> {
  await sql`create or replace function scale_h(a bigint, b integer) returns double precision
    language sql immutable parallel safe as
    $$ select ((hashint8extended($1, $2) >> 11) & 9007199254740991)::double precision / 9007199254740992 $$`.execute(db);
  await sql`create or replace function scale_cpf(base bigint) returns text language plpgsql immutable as $$
    declare s text := lpad(base::text, 9, '0'); a int := 0; b int := 0; r1 int; r2 int;
    begin
      for i in 1..9 loop
        a := a + substr(s, i, 1)::int * (11 - i);
        b := b + substr(s, i, 1)::int * (12 - i);
      end loop;
      r1 := (a * 10) % 11; if r1 = 10 then r1 := 0; end if;
      b := b + r1 * 2;
      r2 := (b * 10) % 11; if r2 = 10 then r2 := 0; end if;
      return s || r1 || r2;
    end $$`.execute(db);
  await sql`create or replace function scale_cnpj(base bigint) returns text language plpgsql immutable as $$
    declare s text := lpad(base::text, 12, '0'); w1 int[] := array[5,4,3,2,9,8,7,6,5,4,3,2];
      w2 int[] := array[6,5,4,3,2,9,8,7,6,5,4,3,2]; a int := 0; b int := 0; r1 int; r2 int;
    begin
      for i in 1..12 loop a := a + substr(s, i, 1)::int * w1[i]; end loop;
      r1 := a % 11; r1 := case when r1 < 2 then 0 else 11 - r1 end;
      s := s || r1;
      for i in 1..13 loop b := b + substr(s, i, 1)::int * w2[i]; end loop;
      r2 := b % 11; r2 := case when r2 < 2 then 0 else 11 - r2 end;
      return s || r2;
    end $$`.execute(db);
}

export async function dropHelpers(db: Kysely<Database>): Promise<void> {
  for (const name of ['scale_h(bigint, integer)', 'scale_cpf(bigint)', 'scale_cnpj(bigint)'])
    await sql.raw(`drop function if exists ${name}`).execute(db);
}

/** scale_h over SQL expressions. */
export const h = (a: RawBuilder<unknown>, b: number): RawBuilder<number> => sql<number>`scale_h(${a}, ${sql.lit(b)})`;

/** An instant in milliseconds (SQL expression) as timestamptz. */
export const at = (ms: RawBuilder<unknown>): RawBuilder<string> => sql<string>`to_timestamp((${ms}) / 1000.0)`;

/** A number from Node inlined as a literal (numbers only: never text). */
export const n = (value: number): RawBuilder<number> => sql<number>`${sql.lit(value)}`;
