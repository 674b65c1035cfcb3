import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { openDb } from '../apps/server/src/db/connection.js';
import { fillScale } from './scale-fill.js';
import type { FillReport } from './scale-fill.js';
import { fractionTag } from './scale-shape.js';
import { repoRoot } from './paths.js';

/**
 * The scale bench's cache (issue 38): built databases are kept between runs. BENCH_SCALE_CACHE
 * names the folder (bench/.cache/scale by default, never committed); its `tablespace/` holds the
 * databases' files (a PostgreSQL tablespace owned by the postgres user), and a manifest per size
 * says what was built, how long it took and how big it is, and with which migrations and fill.
 */
export const CACHE_DIR = path.resolve(process.env.BENCH_SCALE_CACHE ?? path.join(repoRoot, 'bench/.cache/scale'));
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Space left free on the cache's filesystem whatever is built (BENCH_SCALE_MARGIN_GB). */
export const DISK_MARGIN_BYTES = Number(process.env.BENCH_SCALE_MARGIN_GB ?? 10) * 2 ** 30;
/** A size's bytes are estimated from a built one's, linearly, plus this much for the build's sorts, index builds and WAL. */
const BUILD_OVERHEAD = 1.15;
/** Before any size is built on a machine: the full year's bytes as measured here at 1/50, times 50 (bench/README.md). */
const FULL_YEAR_BYTES_GUESS = 80 * 2 ** 30;

export interface Manifest {
  fraction: number;
  database: string;
  builtAt: string;
  /** The year's last instant: the jobs run as of the day after it. */
  anchor: string;
  buildSeconds: number;
  databaseBytes: number;
  rows: Record<string, number>;
  skew: FillReport['skew'];
  partitioned: boolean;
  keyTables: boolean;
  /** What the database was built with: another migrations list or fill rebuilds it. */
  commit: string;
  migrations: string;
  fill: string;
  /** Set when a job wrote into this database itself (no room for a copy): rebuilt at the next run. */
  dirty?: string;
  steps: { step: string; rows: number; seconds: number }[];
}

const manifestPath = (fraction: number) => path.join(CACHE_DIR, `manifest-${fractionTag(fraction)}.json`);
export const databaseName = (fraction: number) => `portal_scale_${fractionTag(fraction)}`;

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function sha(parts: string[]): string {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** The migrations (every file of db/migrations and db/partitions.ts) and the fill's own files, hashed; the commit, for the record. */
export function fingerprints(): { migrations: string; fill: string; commit: string } {
  const migrationsDir = path.join(repoRoot, 'apps/server/src/db/migrations');
  const schemaFiles = [
    ...readdirSync(migrationsDir)
      .sort()
      .map((f) => path.join(migrationsDir, f)),
    path.join(repoRoot, 'apps/server/src/db/migrate.ts'),
    path.join(repoRoot, 'apps/server/src/db/partitions.ts'),
  ].filter((f) => existsSync(f));
  const fillFiles = readdirSync(path.join(repoRoot, 'bench'))
    .filter((f) => /^scale-(fill.*|shape|steps)\.ts$/.test(f))
    .sort()
    .map((f) => path.join(repoRoot, 'bench', f));
  const read = (files: string[]) => files.flatMap((f) => [path.relative(repoRoot, f), readFileSync(f, 'utf8')]);
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    const changed = execFileSync('git', ['status', '--porcelain', '--', 'apps/server/src/db'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    if (changed) commit += '+uncommitted schema';
  } catch {
    // not a git checkout
  }
  return { migrations: sha(read(schemaFiles)), fill: sha(read(fillFiles)), commit };
}

export function readManifest(fraction: number): Manifest | null {
  try {
    return JSON.parse(readFileSync(manifestPath(fraction), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

export function writeManifest(manifest: Manifest): void {
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(manifestPath(manifest.fraction), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Every manifest in the cache, smallest size first. */
function cachedManifests(): Manifest[] {
  if (!existsSync(CACHE_DIR)) return [];
  return readdirSync(CACHE_DIR)
    .filter((f) => /^manifest-.*\.json$/.test(f))
    .flatMap((f) => {
      try {
        return [JSON.parse(readFileSync(path.join(CACHE_DIR, f), 'utf8')) as Manifest];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.fraction - b.fraction);
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  return admin(async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`drop database if exists ${name} with (force)`));
}

/**
 * The tablespace in the cache folder, made once: its folder owned by the postgres user (mode 0700,
 * as PostgreSQL wants it). Null (the server's default place) with BENCH_SCALE_TABLESPACE=off, or
 * when PostgreSQL is not on this machine.
 */
export async function ensureTablespace(): Promise<string | null> {
  const host = new URL(ADMIN_URL).hostname;
  if (process.env.BENCH_SCALE_TABLESPACE === 'off' || !['127.0.0.1', 'localhost', '::1', ''].includes(host)) return null;
  const location = path.join(CACHE_DIR, 'tablespace');
  const name = `portal_scale_${sha([location]).slice(0, 8)}`;
  const found = await admin(async (c) => (await c.query('select 1 from pg_tablespace where spcname = $1', [name])).rowCount === 1);
  if (found && existsSync(location)) return name;
  if (found) throw new Error(`a tablespace ${name} aponta para ${location}, que não existe mais: BENCH_SCALE_DROP=1 limpa o cache`);
  mkdirSync(location, { recursive: true });
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(location, uid, gid);
  chmodSync(location, 0o700);
  await admin((c) => c.query(`create tablespace ${name} location '${location.replace(/'/g, "''")}'`));
  return name;
}

/** Every scale database dropped, the tablespace too, and the cache folder removed (BENCH_SCALE_DROP=1). */
export async function dropCache(): Promise<string[]> {
  const dropped = await admin(async (c) => {
    const names = (await c.query<{ datname: string }>("select datname from pg_database where datname like 'portal\\_scale\\_%'")).rows.map(
      (r) => r.datname,
    );
    for (const name of names) await c.query(`drop database if exists ${name} with (force)`);
    const spaces = (await c.query<{ spcname: string }>("select spcname from pg_tablespace where spcname like 'portal\\_scale\\_%'")).rows;
    for (const s of spaces) await c.query(`drop tablespace if exists ${s.spcname}`);
    return names;
  });
  rmSync(CACHE_DIR, { recursive: true, force: true });
  return dropped;
}

/** A copy of a cached database (the jobs write into it), in the same tablespace; no one may be connected to the original. */
export async function copyDatabase(from: string, to: string, tablespace: string | null): Promise<void> {
  await dropDatabase(to);
  await admin((c) => c.query(`create database ${to} template ${from} strategy file_copy${tablespace ? ` tablespace ${tablespace}` : ''}`));
}

/** Free bytes on the cache folder's filesystem. */
export async function freeBytes(): Promise<{ free: number; total: number }> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const s = await statfs(CACHE_DIR);
  return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
}

/** A size's bytes on disk while it is built: linear in the fraction from the largest size built so far, else this machine's guess. */
export function estimateBytes(fraction: number): number {
  const measured = cachedManifests().filter((m) => m.fraction >= 0.001);
  const basis = measured.at(-1);
  const perFull = basis ? basis.databaseBytes / basis.fraction : FULL_YEAR_BYTES_GUESS;
  return perFull * fraction * BUILD_OVERHEAD;
}

/** A fraction that fits in `bytes`, rounded down to two significant digits. */
function fractionFitting(bytes: number): number {
  const perFull = estimateBytes(1);
  const raw = bytes / perFull;
  if (raw <= 0) return 0;
  const scale = 10 ** (Math.floor(Math.log10(raw)) - 1);
  return Number((Math.floor(raw / scale) * scale).toPrecision(2));
}

/** Is the cached database of this size usable: same migrations and fill, not written into by a job, still there. */
export async function reusable(manifest: Manifest | null, prints: { migrations: string; fill: string }): Promise<boolean> {
  if (!manifest || manifest.dirty) return false;
  if (manifest.migrations !== prints.migrations || manifest.fill !== prints.fill) return false;
  return databaseExists(manifest.database);
}

/**
 * The database of `fraction`: the cached one when its manifest matches (BENCH_SCALE_REBUILD=1: never),
 * else built (resumed, when a build of the same fill stopped midway) in the cache's tablespace.
 */
export async function ensureBuilt(
  fraction: number,
  tablespace: string | null,
  log: (line: string) => void,
): Promise<{ manifest: Manifest; url: string; reused: boolean }> {
  const prints = fingerprints();
  const name = databaseName(fraction);
  const cached = readManifest(fraction);
  if (process.env.BENCH_SCALE_REBUILD !== '1' && (await reusable(cached, prints)) && cached) {
    return { manifest: cached, url: databaseUrl(name), reused: true };
  }
  const fillPrint = fillPrintOf(prints);
  if (await databaseExists(name)) {
    if (process.env.BENCH_SCALE_REBUILD === '1' || !(await resumable(name, fillPrint))) await dropDatabase(name);
    else log(`  resuming the build of ${name}`);
  }
  if (!(await databaseExists(name))) await admin((c) => c.query(`create database ${name}${tablespace ? ` tablespace ${tablespace}` : ''}`));
  const url = databaseUrl(name);
  const db = openDb(url, { poolMax: 4 });
  let report: FillReport;
  try {
    report = await fillScale(db, fraction, fillPrint, log);
  } finally {
    await db.kysely.destroy();
  }
  const manifest = manifestOf(fraction, name, report, prints);
  writeManifest(manifest);
  return { manifest, url, reused: false };
}

/** What a build wrote down: its rows, times and size, under the fingerprints it was built with. */
export function manifestOf(
  fraction: number,
  database: string,
  report: FillReport,
  prints: { commit: string; migrations: string; fill: string },
): Manifest {
  return {
    fraction,
    database,
    builtAt: new Date().toISOString(),
    anchor: report.anchor,
    buildSeconds: report.seconds,
    databaseBytes: report.databaseBytes,
    rows: report.rows,
    skew: report.skew,
    partitioned: report.partitioned,
    keyTables: report.keyTables,
    commit: prints.commit,
    migrations: prints.migrations,
    fill: prints.fill,
    steps: report.steps.map((s) => ({ step: s.step, rows: s.rows, seconds: Math.round(s.seconds * 100) / 100 })),
  };
}

/** A size on the disk: usable as built, a build that stopped midway, or one a job wrote into (rebuilt in its place). */
type SizeState = 'built' | 'stopped' | 'dirty';

/**
 * The sizes already on this disk for the current migrations and fill, with the bytes each holds now:
 * built ones (a usable manifest), stopped builds (no manifest yet) and dirty ones (a job wrote into them).
 */
export async function sizesOnDisk(prints: {
  migrations: string;
  fill: string;
}): Promise<{ fraction: number; bytes: number; state: SizeState }[]> {
  const fillPrint = fillPrintOf(prints);
  const databases = await admin(
    async (c) =>
      (
        await c.query<{ datname: string; bytes: string }>(
          "select datname, pg_database_size(datname) as bytes from pg_database where datname like 'portal\\_scale\\_f%'",
        )
      ).rows,
  );
  const sizes = [];
  for (const d of databases) {
    const fraction = Number(d.datname.replace(/^portal_scale_f/, '').replace('_', '.'));
    if (!(fraction > 0 && fraction <= 1) || databaseName(fraction) !== d.datname) continue;
    const manifest = readManifest(fraction);
    const sameBuild = manifest?.migrations === prints.migrations && manifest.fill === prints.fill;
    let state: SizeState | null = null;
    if (await reusable(manifest, prints)) state = 'built';
    else if (manifest?.dirty && sameBuild) state = 'dirty';
    else if (!manifest && (await resumable(d.datname, fillPrint))) state = 'stopped';
    if (state) sizes.push({ fraction, bytes: Number(d.bytes), state });
  }
  return sizes.sort((a, b) => a.fraction - b.fraction);
}

/**
 * The size to measure for a wanted fraction that does not fit whole: the largest of a size on disk
 * at most `wanted` (built; or stopped or dirty, when the rest of its build fits beside what it holds)
 * and a new size that fits in `room`; none larger than `above` (the size measured before it).
 */
export function sizeWithin(
  wanted: number,
  above: number,
  room: number,
  onDisk: readonly { fraction: number; bytes: number; state: SizeState }[],
): { fraction: number; from: SizeState | 'new' } | null {
  const candidates = [
    ...onDisk
      .filter((d) => d.fraction <= wanted && (d.state === 'built' || estimateBytes(d.fraction) - d.bytes <= room))
      .map((d) => ({ fraction: d.fraction, from: d.state })),
    { fraction: Math.min(wanted, fractionFitting(room)), from: 'new' as const },
  ].filter((c) => c.fraction > above);
  return candidates.sort((a, b) => b.fraction - a.fraction)[0] ?? null;
}

/** What a build's scale_progress names: the fill and the migrations it was started with. */
function fillPrintOf(prints: { migrations: string; fill: string }): string {
  return `${prints.fill}:${prints.migrations}`;
}

/** A database whose stopped build was started by this fill (its scale_progress names the same fingerprint). */
async function resumable(name: string, fillPrint: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl(name) });
  await client.connect();
  try {
    const table = await client.query<{ t: string | null }>("select to_regclass('scale_progress')::text as t");
    if (!table.rows[0]?.t) return false;
    const found = await client.query('select 1 from scale_progress where step = $1', [`fingerprint:${fillPrint}`]);
    return found.rowCount === 1;
  } finally {
    await client.end();
  }
}
