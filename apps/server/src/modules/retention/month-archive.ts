import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { Db } from '../../db/connection.js';
import { driverHandleOf, nowIso } from '../../db/connection.js';
import { bucketOf } from '../../db/migrations/015-statement-buckets.js';
import { ENTRY_SCOPES } from '../../db/migrations/027-entry-vehicles.js';
import { PARTITIONED_TABLES, attachedMonths, monthOfPartition, nextMonth, partitionName, partitionedTable } from '../../db/partitions.js';
import type { PartitionedTable } from '../../db/partitions.js';
import type { Database } from '../../db/schema.js';

/** One month written to its file and gone from the database. */
export interface MonthArchive {
  partition: string;
  file: string;
  rows: number;
  sha256: string;
}

/** A restore refused (a corrupt file, a month already there): its reason, in Portuguese, for the CLI. */
export class ArchiveRefused extends Error {}

const KEYS_BATCH = 50_000;
/** A month is archived with locks that wait at most this long for the readers before; the next run tries again. */
const LOCK_TIMEOUT = '5s';
const SCOPE_COLUMNS = { vehicle: 'vehicle_id', centre: 'cost_centre_id' } as const;

/** The file a partition's month is written to, and its checksum beside it (sha256sum's format). */
function archiveFile(dir: string, partition: string): string {
  return path.join(dir, `${partition}.csv.gz`);
}

/**
 * Decision 80: every month of a partitioned table that ended before `cutoff` (and a month detached
 * by a run that stopped half way) is archived, oldest first.
 */
export async function archiveMonthsBefore(db: Db, cutoff: Date, dir: string): Promise<MonthArchive[]> {
  const done: MonthArchive[] = [];
  for (const spec of PARTITIONED_TABLES) {
    const attached = (await attachedMonths(db.kysely, spec.table)).filter((p) => nextMonth(p.month) <= cutoff);
    const stranded = await detachedMonths(db.kysely, spec.table);
    const months = [...new Map([...attached, ...stranded].map((p) => [p.name, p.month])).values()].sort(
      (a, b) => a.getTime() - b.getTime(),
    );
    for (const month of months) done.push(await archiveMonth(db, spec, month, dir));
  }
  return done;
}

/**
 * The month is detached (readers and writers of other months go on), copied out with COPY through
 * gzip while its SHA-256 is computed, the file read back and checked, and only then is the archive
 * recorded and the table dropped. What a statement counts leaves with it: the month's entries
 * counters go to zero (their centavos stay: every later balance still adds them up), and its keys
 * are deleted (no retry comes years later). Each step can be run again after a crash.
 */
export async function archiveMonth(db: Db, spec: PartitionedTable, month: Date, dir: string): Promise<MonthArchive> {
  const partition = partitionName(spec.table, month);
  const attached = (await attachedMonths(db.kysely, spec.table)).some((p) => p.name === partition);
  if (attached)
    await db.kysely.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
      await sql`alter table ${sql.ref(spec.table)} detach partition ${sql.ref(partition)}`.execute(trx);
    });
  const recorded = await db.kysely.selectFrom('partition_archives').selectAll().where('partition_name', '=', partition).executeTakeFirst();
  const archive = recorded
    ? { partition, file: recorded.file, rows: Number(recorded.rows), sha256: recorded.sha256 }
    : await copyOut(db, partition, dir);
  const from = month.toISOString();
  const to = nextMonth(month).toISOString();
  if (!recorded)
    await db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('partition_archives')
        .values({
          partition_name: partition,
          table_name: spec.table,
          month: from,
          file: archive.file,
          rows: archive.rows,
          sha256: archive.sha256,
          archived_at: nowIso(),
        })
        .execute();
      if (spec.table === 'ledger_entries') await uncountMonth(trx, partition, from, to);
    });
  await deleteKeys(db.kysely, spec, from, to);
  await sql`drop table ${sql.ref(partition)}`.execute(db.kysely);
  return archive;
}

/** COPY … TO STDOUT through gzip to a temporary file, hashed on the way, then read back before it takes its name. */
async function copyOut(db: Db, partition: string, dir: string): Promise<MonthArchive> {
  await fs.mkdir(dir, { recursive: true });
  const file = archiveFile(dir, partition);
  const partial = `${file}.partial`;
  const hash = createHash('sha256');
  const rows = await withClient(db, async (client) => {
    const source = client.query(copyTo(`copy ${quoteIdent(partition)} to stdout with (format csv, header true)`));
    await pipeline(source, createGzip(), hashing(hash), createWriteStream(partial));
    return source.rowCount;
  });
  const sha256 = hash.digest('hex');
  const counted = await sql<{ n: number }>`select count(*) as n from ${sql.ref(partition)}`.execute(db.kysely);
  if (Number(counted.rows[0]?.n) !== rows) throw new Error(`${partition}: COPY escreveu ${rows} linhas de ${counted.rows[0]?.n}`);
  if ((await sha256Of(partial)) !== sha256) throw new Error(`${partition}: o arquivo lido de volta não confere com o escrito`);
  const handle = await fs.open(partial, 'r');
  await handle.sync();
  await handle.close();
  await fs.rename(partial, file);
  await fs.writeFile(`${file}.sha256`, `${sha256}  ${path.basename(file)}\n`);
  return { partition, file, rows, sha256 };
}

/**
 * The archived month back in its table: the file's checksum checked first, the rows copied into a
 * new table, which is attached as the month's partition; its keys and its counters' entries come
 * back from its rows. Refused when the file does not match its checksum or the month is there.
 */
export async function restoreArchive(db: Db, file: string): Promise<MonthArchive> {
  if (db.dialect !== 'postgres') throw new ArchiveRefused('Só o PostgreSQL guarda meses particionados e arquivados.');
  const partition = path.basename(file).replace(/\.csv\.gz$/, '');
  const month = monthOfPartition(partition);
  const table = partition.replace(/_p\d{6}$/, '');
  if (!month || !PARTITIONED_TABLES.some((t) => t.table === table))
    throw new ArchiveRefused(`${path.basename(file)} não é o arquivo de um mês arquivado (ex.: ledger_entries_p202001.csv.gz).`);
  const spec = partitionedTable(table);
  const expected = await readChecksum(file);
  const actual = await sha256Of(file);
  if (actual !== expected) throw new ArchiveRefused(`${path.basename(file)} não confere com o seu SHA-256: arquivo corrompido ou trocado.`);
  const exists = await sql<{ name: string | null }>`select to_regclass(${partition}) as name`.execute(db.kysely);
  if (exists.rows[0]?.name) throw new ArchiveRefused(`${partition} já está no banco: nada a restaurar.`);

  const from = month.toISOString();
  const to = nextMonth(month).toISOString();
  await sql`create table ${sql.ref(partition)} (like ${sql.ref(table)} including defaults including constraints)`.execute(db.kysely);
  const rows = await withClient(db, async (client) => {
    const sink = client.query(copyFrom(`copy ${quoteIdent(partition)} from stdin with (format csv, header true)`));
    await pipeline(createReadStream(file), createGunzip(), sink);
    return sink.rowCount;
  });
  await db.kysely.transaction().execute(async (trx) => {
    await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
    await sql`with moved as (delete from ${sql.ref(`${table}_default`)} where created_at >= ${from} and created_at < ${to} returning *)
      insert into ${sql.ref(partition)} select * from moved`.execute(trx);
    await sql`alter table ${sql.ref(table)} attach partition ${sql.ref(partition)} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
      trx,
    );
    await restoreKeys(trx, spec, partition);
    if (table === 'ledger_entries') await recountMonth(trx, partition);
    await trx.deleteFrom('partition_archives').where('partition_name', '=', partition).execute();
  });
  return { partition, file, rows, sha256: actual };
}

/** Detached month tables left by a run that stopped between detaching and dropping. */
async function detachedMonths(db: Kysely<Database>, table: string): Promise<{ name: string; month: Date }[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    where c.relkind = 'r' and c.relname like ${`${table}_p%`} and not c.relispartition`.execute(db);
  return rows.flatMap((r) => {
    const month = monthOfPartition(r.name);
    return month && r.name === partitionName(table, month) ? [{ name: r.name, month }] : [];
  });
}

/** The month's entries no longer counted (pages never reach them); centavos kept for every later balance. */
async function uncountMonth(trx: Kysely<Database>, partition: string, from: string, to: string): Promise<void> {
  for (const counters of ['ledger_entry_counts', 'ledger_scope_counts'] as const)
    await sql`update ${sql.ref(counters)} set entries = 0
      where bucket >= ${from} and bucket < ${to} and driver_id in (select distinct driver_id from ${sql.ref(partition)})`.execute(trx);
}

/** The restored month's counters count its entries again (the ledger's buckets, migration 015). */
async function recountMonth(trx: Kysely<Database>, partition: string): Promise<void> {
  const source = sql.ref(partition);
  for (const unit of ['month', 'day', 'hour'] as const) {
    const bucket = bucketOf(unit, 'postgres');
    await sql`update ledger_entry_counts c set entries = s.n
      from (select driver_id, ${bucket} as bucket, count(*) as n from ${source} group by 1, 2) s
      where c.driver_id = s.driver_id and c.unit = ${unit} and c.bucket = s.bucket`.execute(trx);
    for (const scope of ENTRY_SCOPES) {
      const column = sql.ref(SCOPE_COLUMNS[scope]);
      await sql`update ledger_scope_counts c set entries = s.n
        from (select driver_id, ${column} as scope_id, ${bucket} as bucket, count(*) as n from ${source}
              where ${column} is not null group by 1, 2, 3) s
        where c.driver_id = s.driver_id and c.scope = ${scope} and c.scope_id = s.scope_id and c.unit = ${unit} and c.bucket = s.bucket`.execute(
        trx,
      );
    }
  }
}

async function deleteKeys(db: Kysely<Database>, spec: PartitionedTable, from: string, to: string): Promise<void> {
  const keys = sql.ref(spec.keys);
  for (;;) {
    const result = await sql`delete from ${keys} where ctid in (
      select ctid from ${keys} where created_at >= ${from} and created_at < ${to} limit ${KEYS_BATCH})`.execute(db);
    if (Number(result.numAffectedRows ?? 0) < KEYS_BATCH) return;
  }
}

async function restoreKeys(trx: Kysely<Database>, spec: PartitionedTable, partition: string): Promise<void> {
  const source = sql.ref(partition);
  if (spec.keys === 'ledger_entry_keys')
    await sql`insert into ledger_entry_keys (idempotency_key, created_at) select idempotency_key, created_at from ${source}
      on conflict do nothing`.execute(trx);
  else
    await sql`insert into passage_keys (partner_id, external_id, created_at) select partner_id, external_id, created_at from ${source}
      on conflict do nothing`.execute(trx);
}

async function withClient<T>(db: Db, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const handle = driverHandleOf(db.kysely);
  if (!handle || !('pool' in handle)) throw new Error('COPY precisa de uma conexão PostgreSQL');
  const client = await handle.pool.connect();
  try {
    return await run(client);
  } finally {
    client.release();
  }
}

function hashing(hash: ReturnType<typeof createHash>): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function readChecksum(file: string): Promise<string> {
  let text: string;
  try {
    text = await fs.readFile(`${file}.sha256`, 'utf8');
  } catch {
    throw new ArchiveRefused(`${path.basename(file)}.sha256 não encontrado: sem ele o arquivo não pode ser conferido.`);
  }
  const hex = /^([0-9a-f]{64})\s/.exec(text)?.[1];
  if (!hex) throw new ArchiveRefused(`${path.basename(file)}.sha256 não traz um SHA-256.`);
  return hex;
}

/** A partition's name as an SQL identifier inside COPY's text (names are ours: table_pYYYYMM). */
function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Nome de tabela inesperado: ${name}`);
  return `"${name}"`;
}
