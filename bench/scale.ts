import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { maskCpfCnpj } from '@portal/domain';
import { openDb } from '../apps/server/src/db/connection.js';
import { openMixedLoad } from './load.js';
import type { LoadWindow, MixedLoad } from './load.js';
import { repoRoot } from './paths.js';
import {
  CACHE_DIR,
  copyDatabase,
  databaseName,
  databaseUrl,
  DISK_MARGIN_BYTES,
  dropCache,
  dropDatabase,
  ensureBuilt,
  ensureTablespace,
  estimateBytes,
  fingerprints,
  manifestOf,
  freeBytes,
  readManifest,
  sizesOnDisk,
  sizeWithin,
  reusable,
  writeManifest,
} from './scale-cache.js';
import type { Manifest } from './scale-cache.js';
import { fillScale } from './scale-fill.js';
import { JOB_BOUNDS_SECONDS, runJobs } from './scale-jobs.js';
import type { JobRun } from './scale-jobs.js';
import { describeSlowest, measureOperations } from './scale-measure.js';
import type { OpTiming, Picks } from './scale-measure.js';

export interface ScaleSize {
  fraction: number;
  database: string;
  reused: boolean;
  build: Pick<Manifest, 'buildSeconds' | 'databaseBytes' | 'rows' | 'skew' | 'anchor' | 'partitioned' | 'keyTables' | 'commit'>;
  ops: OpTiming[];
  load: LoadWindow | null;
}

export interface ScaleResult {
  requested: number[];
  cache: string;
  disk: { freeBytes: number; totalBytes: number; marginBytes: number; notes: string[] };
  sizes: ScaleSize[];
  /** Each operation at the smallest and the largest size: large / small, p50 and p99 (target <= 1.5). */
  /** byRow: the ratios are by the row answered (an export). */
  comparison: { op: string; small: OpTiming; large: OpTiming; p50Ratio: number; p99Ratio: number; byRow: boolean }[];
  /** When the full year was not built: each figure at the full size by a power law through the two sizes measured. */
  extrapolated: { op: string; p50Ms: number; p99Ms: number }[] | null;
  jobs: {
    fraction: number;
    where: string;
    copySeconds: number | null;
    clock: string;
    baseline: LoadWindow | null;
    runs: (JobRun & { boundSeconds: number })[];
  } | null;
}

const RATIO_TARGET = 1.5;
/** A load window with fewer requests than this has no p99 worth reading (a job over in a second). */
const MIN_WINDOW_REQUESTS = 200;

/** The bench's settings from the environment (bench/README.md, "scale"). */
function settings() {
  const fractions = (process.env.BENCH_SCALE_FRACTIONS ?? '0.02,1')
    .split(',')
    .map(Number)
    .filter((f) => f > 0 && f <= 1)
    .sort((a, b) => a - b);
  return {
    fractions: [...new Set(fractions)],
    samples: Math.max(1, Number(process.env.BENCH_SCALE_SAMPLES ?? 400)),
    loadSeconds: Number(process.env.BENCH_SCALE_LOAD_SECONDS ?? 60),
    jobs: process.env.BENCH_SCALE_JOBS !== '0',
    /** The billing charges this many tags at most (the others marked paid first); 0: every tag. */
    billingTags: Number(process.env.BENCH_SCALE_BILLING_TAGS ?? 50_000) || null,
    /** The test's run: one size built into this (empty) database, no cache. */
    into: process.env.BENCH_SCALE_DATABASE_URL,
  };
}

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GB`;
const log = (line: string) => console.log(line);

/** The mixed load's drivers: light and heavy ones of the picks, each signing in with the year's password. */
function loadDrivers(picks: Picks) {
  return [...picks.light.slice(0, 14), ...picks.heavy].map((d) => ({ cpfCnpj: d.cpfCnpj, serial: d.serial }));
}

/** The built server (npm run build) the mixed load starts; without it the load is skipped. */
const serverBuilt = () => existsSync(path.join(repoRoot, 'apps/server/dist/main.js'));

async function mixedLoadOn(url: string, picks: Picks, seconds: number): Promise<LoadWindow | null> {
  if (seconds <= 0 || !serverBuilt()) return null;
  const load = await openMixedLoad({ url, drivers: loadDrivers(picks) });
  try {
    await load.drive(Math.min(5, seconds));
    return await load.drive(seconds);
  } finally {
    await load.close();
  }
}

/** The sizes to measure: each requested fraction, or, when the disk cannot hold it, the largest that fits (said in `notes`). */
async function buildSizes(fractions: number[], tablespace: string | null, notes: string[]) {
  const built: { manifest: Manifest; url: string; reused: boolean }[] = [];
  const prints = fingerprints();
  for (const wanted of fractions) {
    let fraction = wanted;
    if (!(await reusable(readManifest(wanted), prints))) {
      const need = estimateBytes(wanted);
      const { free } = await freeBytes();
      const room = free - DISK_MARGIN_BYTES;
      if (need > room) {
        const chosen = sizeWithin(wanted, built.at(-1)?.manifest.fraction ?? 0, room, await sizesOnDisk(prints));
        const instead = {
          built: 'the one built before',
          stopped: 'resuming its stopped build',
          dirty: 'built again in place of the copy a job wrote into',
          new: 'building it',
        };
        const note =
          `${wanted} of the year needs about ${gb(need)} (linear from the largest size built, +15 % for the build); ` +
          `${CACHE_DIR}'s filesystem has ${gb(free)} free, less a ${gb(DISK_MARGIN_BYTES)} margin: ` +
          (chosen ? `${chosen.fraction} instead (${instead[chosen.from]})` : 'nothing larger is built');
        notes.push(note);
        log(`\n${note}`);
        if (!chosen) continue;
        fraction = chosen.fraction;
      }
    }
    log(`\nScale: the year at ${fraction} (${databaseName(fraction)})`);
    const size = await ensureBuilt(fraction, tablespace, log);
    log(
      size.reused
        ? `  cached: built ${size.manifest.builtAt} in ${size.manifest.buildSeconds.toFixed(0)} s, ${gb(size.manifest.databaseBytes)}`
        : `  built in ${size.manifest.buildSeconds.toFixed(0)} s, ${gb(size.manifest.databaseBytes)} on disk`,
    );
    built.push(size);
  }
  return built;
}

function sizeOf(manifest: Manifest, reused: boolean, ops: OpTiming[], load: LoadWindow | null): ScaleSize {
  const { buildSeconds, databaseBytes, rows, skew, anchor, partitioned, keyTables, commit } = manifest;
  return {
    fraction: manifest.fraction,
    database: manifest.database,
    reused,
    build: { buildSeconds, databaseBytes, rows, skew, anchor, partitioned, keyTables, commit },
    ops,
    load,
  };
}

/**
 * Issue 38, point 1: a year of the portal built in the database at each fraction of BENCH_SCALE_FRACTIONS
 * (kept in the cache and reused), every operation measured at each size side by side, the mixed
 * load's p50 and p99 at each, and at the largest the three scheduled jobs under the mixed load.
 */
export async function benchScale(): Promise<ScaleResult> {
  const s = settings();
  if (process.env.BENCH_SCALE_DROP === '1') {
    const dropped = await dropCache();
    log(`Scale cache dropped: ${dropped.join(', ') || 'no database'}; ${CACHE_DIR} removed`);
    return emptyResult(s.fractions);
  }
  const runId = `${process.pid}-${Date.now()}`;
  if (s.into) return checkRun(s.into, s.fractions[0] ?? 0.00002, runId);
  const tablespace = await ensureTablespace();
  const disk = await freeBytes();
  const notes: string[] = [];
  const built = await buildSizes(s.fractions, tablespace, notes);
  const sizes: ScaleSize[] = [];
  let largestPicks: Picks | null = null;
  for (const b of built) {
    log(`\nMeasuring at ${b.manifest.fraction} (${s.samples} samples a read)`);
    const { ops, picks } = await measureOperations(b.url, { samples: s.samples, runId, anchor: b.manifest.anchor });
    const load = await mixedLoadOn(b.url, picks, s.loadSeconds);
    sizes.push(sizeOf(b.manifest, b.reused, ops, load));
    largestPicks = picks;
  }
  const largest = built.at(-1);
  const jobs =
    s.jobs && largest && largestPicks
      ? await jobsAtLargest(largest.manifest, tablespace, largestPicks, s.loadSeconds, s.billingTags)
      : null;
  return {
    requested: s.fractions,
    cache: CACHE_DIR,
    disk: { freeBytes: disk.free, totalBytes: disk.total, marginBytes: DISK_MARGIN_BYTES, notes },
    sizes,
    ...compare(sizes),
    jobs,
  };
}

/**
 * The jobs write: they run on a copy of the cached database (CREATE DATABASE ... TEMPLATE, dropped
 * after) when the disk holds one; otherwise on the cached database itself, whose manifest is then
 * marked dirty (rebuilt at the next run).
 */
async function jobsAtLargest(manifest: Manifest, tablespace: string | null, picks: Picks, loadSeconds: number, billingTags: number | null) {
  const { free } = await freeBytes();
  const copy = free - DISK_MARGIN_BYTES > manifest.databaseBytes * 1.05;
  const target = copy ? `${manifest.database}_jobs` : manifest.database;
  let copySeconds: number | null = null;
  if (copy) {
    const t0 = performance.now();
    await copyDatabase(manifest.database, target, tablespace);
    copySeconds = (performance.now() - t0) / 1000;
  }
  const where = copy
    ? `a copy (${target}, made in ${copySeconds?.toFixed(0)} s)`
    : `the cached database itself (no room for a copy): marked dirty`;
  log(`\nJobs at ${manifest.fraction}, on ${where}`);
  let load: MixedLoad | null = null;
  try {
    if (loadSeconds > 0 && serverBuilt()) load = await openMixedLoad({ url: databaseUrl(target), drivers: loadDrivers(picks) });
    const done = await runJobs(databaseUrl(target), {
      anchor: manifest.anchor,
      fraction: manifest.fraction,
      load,
      baselineSeconds: Math.max(10, loadSeconds),
      billingTags,
    });
    return {
      fraction: manifest.fraction,
      where,
      copySeconds,
      clock: done.clock,
      baseline: done.baseline,
      runs: done.runs.map((r) => ({ ...r, boundSeconds: JOB_BOUNDS_SECONDS[r.job] })),
    };
  } finally {
    await load?.close();
    if (copy) await dropDatabase(target);
    else writeManifest({ ...manifest, dirty: `jobs ran ${new Date().toISOString()}` });
  }
}

/** Large / small for each operation; and, when the full year was not measured, each figure extrapolated to it. */
function compare(sizes: ScaleSize[]): Pick<ScaleResult, 'comparison' | 'extrapolated'> {
  const small = sizes[0];
  const large = sizes.at(-1);
  if (!small || !large || small === large) return { comparison: [], extrapolated: null };
  const comparison = large.ops.flatMap((l) => {
    const s = small.ops.find((x) => x.op === l.op);
    if (!s) return [];
    // An export's period holds whole days, so its rows differ by size: compared by the row.
    const perRow = s.rows && l.rows ? s.rows / l.rows : undefined;
    const rows = perRow ?? 1;
    return [
      {
        op: l.op,
        small: s,
        large: l,
        p50Ratio: (l.p50Ms / s.p50Ms) * rows,
        p99Ratio: (l.p99Ms / s.p99Ms) * rows,
        byRow: perRow !== undefined,
      },
    ];
  });
  if (large.fraction >= 1) return { comparison, extrapolated: null };
  // y = a * f^k through the two sizes, at f = 1.
  const at1 = (ys: number, yl: number) => yl * (1 / large.fraction) ** (Math.log(yl / ys) / Math.log(large.fraction / small.fraction));
  const extrapolated = comparison.map((c) => ({
    op: c.op,
    p50Ms: Math.round(at1(c.small.p50Ms, c.large.p50Ms) * 100) / 100,
    p99Ms: Math.round(at1(c.small.p99Ms, c.large.p99Ms) * 100) / 100,
  }));
  return { comparison, extrapolated };
}

function emptyResult(fractions: number[]): ScaleResult {
  return {
    requested: fractions,
    cache: CACHE_DIR,
    disk: { freeBytes: 0, totalBytes: 0, marginBytes: DISK_MARGIN_BYTES, notes: [] },
    sizes: [],
    comparison: [],
    extrapolated: null,
    jobs: null,
  };
}

/**
 * The test's run (BENCH_SCALE_DATABASE_URL): the same code at a tiny fraction, in a database the
 * caller made and drops, without the cache: the fill, every operation once, the jobs once (no load
 * unless BENCH_SCALE_LOAD_SECONDS is set); the result also to BENCH_SCALE_OUT as JSON.
 */
async function checkRun(url: string, fraction: number, runId: string): Promise<ScaleResult> {
  const db = openDb(url, { poolMax: 4 });
  let manifest: Manifest;
  try {
    const report = await fillScale(db, fraction, 'check', log);
    manifest = {
      ...manifestOf(fraction, new URL(url).pathname.slice(1), report, { commit: fingerprints().commit, migrations: '', fill: '' }),
      steps: [],
    };
  } finally {
    await db.kysely.destroy();
  }
  const s = settings();
  const { ops, picks } = await measureOperations(url, { samples: s.samples, runId, anchor: manifest.anchor });
  const load = await mixedLoadOn(url, picks, s.loadSeconds);
  const done = s.jobs ? await runJobs(url, { anchor: manifest.anchor, fraction, load: null, baselineSeconds: 0, billingTags: null }) : null;
  const result: ScaleResult = {
    ...emptyResult([fraction]),
    sizes: [sizeOf(manifest, false, ops, load)],
    jobs: done && {
      fraction,
      where: 'the check database',
      copySeconds: null,
      clock: done.clock,
      baseline: null,
      runs: done.runs.map((r) => ({ ...r, boundSeconds: JOB_BOUNDS_SECONDS[r.job] })),
    },
  };
  if (process.env.BENCH_SCALE_OUT) await writeFile(process.env.BENCH_SCALE_OUT, JSON.stringify({ ...result, picks: maskedPicks(picks) }));
  return result;
}

/** The picks as the test reads them: ids only, documents masked. */
function maskedPicks(picks: Picks) {
  return {
    light: picks.light.map((d) => ({ id: d.id, document: maskCpfCnpj(d.cpfCnpj) })),
    heavy: picks.heavy.map((d) => ({ id: d.id, document: maskCpfCnpj(d.cpfCnpj), entries: d.entries })),
  };
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(2));

/** The figures as bench/run.ts prints them. */
export function printScale(r: ScaleResult): void {
  for (const note of r.disk.notes) console.log(`\n${note}`);
  if (r.sizes.length === 0) return;
  console.log(`\nScale (issue 38): the cache in ${r.cache}; ${gb(r.disk.freeBytes)} free of ${gb(r.disk.totalBytes)} when the run began`);
  for (const s of r.sizes) {
    const rows = s.build.rows;
    const n = (k: string) => (rows[k] ?? 0).toLocaleString('en');
    console.log(
      `  ${s.fraction} (${s.database}, ${s.reused ? 'cached' : 'built now'}): built in ${(s.build.buildSeconds / 60).toFixed(1)} min, ${gb(s.build.databaseBytes)} on disk; ` +
        `${n('drivers')} drivers, ${n('tags')} tags, ${n('ledger_entries')} movements, ${n('passages')} passages, ${n('vpos')} VPOs, ${n('contests')} contests; ` +
        `heaviest driver ${s.build.skew.heaviestEntries.toLocaleString('en')} entries, median ${s.build.skew.medianEntries}; carriers ${(s.build.skew.carriersShareOfPassages * 100).toFixed(0)} % of the passages`,
    );
  }
  const small = r.sizes[0]!;
  const large = r.sizes.at(-1)!;
  if (r.comparison.length > 0) {
    console.log(
      `\n  operation                              ${`${small.fraction} p50/p99 ms`.padEnd(22)} ${`${large.fraction} p50/p99 ms`.padEnd(22)} ratio p50/p99 (target <= ${RATIO_TARGET})`,
    );
    for (const c of r.comparison) {
      const met = Math.max(c.p50Ratio, c.p99Ratio) <= RATIO_TARGET ? 'met' : 'NOT MET';
      console.log(
        `  ${c.op.padEnd(38)} ${`${ms(c.small.p50Ms)} / ${ms(c.small.p99Ms)}`.padEnd(22)} ${`${ms(c.large.p50Ms)} / ${ms(c.large.p99Ms)}`.padEnd(22)} ${c.p50Ratio.toFixed(2)} / ${c.p99Ratio.toFixed(2)} ${met}${c.byRow ? ` (a row: ${c.small.rows?.toLocaleString('en')} and ${c.large.rows?.toLocaleString('en')} rows)` : ''}`,
      );
      if (met !== 'met')
        console.log(
          `    slowest calls: ${describeSlowest(c.small.slowest)} at ${small.fraction}; ${describeSlowest(c.large.slowest)} at ${large.fraction}`,
        );
    }
  } else {
    for (const o of large.ops) console.log(`  ${o.op.padEnd(38)} p50 ${ms(o.p50Ms)} ms, p99 ${ms(o.p99Ms)} ms (${o.samples}; ${o.detail})`);
  }
  for (const o of large.ops) console.log(`    ${o.op}: ${o.detail}`);
  if (r.extrapolated) {
    console.log(`\n  extrapolated to the full year (a power law through ${small.fraction} and ${large.fraction}):`);
    for (const e of r.extrapolated) console.log(`  ${e.op.padEnd(38)} p50 ${ms(e.p50Ms)} ms, p99 ${ms(e.p99Ms)} ms`);
  }
  for (const s of r.sizes) {
    if (!s.load) continue;
    console.log(
      `\n  mixed load at ${s.fraction} (bench/load.ts, 2 instances behind nginx, 10 clients, ${s.load.seconds} s): ${s.load.requestsPerSecond} req/s, p50 ${s.load.p50Ms} ms, p99 ${s.load.p99Ms} ms, errors ${s.load.errors} of ${s.load.requests}`,
    );
    for (const [op, o] of Object.entries(s.load.byOperation))
      console.log(`    ${op}: ${o.requests} requests, p50 ${o.p50Ms} ms, p99 ${o.p99Ms} ms, errors ${o.errors}`);
  }
  const j = r.jobs;
  if (!j) return;
  console.log(`\n  jobs at ${j.fraction}, on ${j.where}, as of ${j.clock}`);
  if (j.baseline)
    console.log(
      `    mixed load alone first: ${j.baseline.requestsPerSecond} req/s, p50 ${j.baseline.p50Ms} ms, p99 ${j.baseline.p99Ms} ms`,
    );
  for (const run of j.runs) {
    const under = !run.load
      ? ''
      : run.load.requests < MIN_WINDOW_REQUESTS
        ? `; the load meanwhile ${run.load.requests} requests (too few for a p99)`
        : `; the load meanwhile ${run.load.requests} requests, p99 ${run.load.p99Ms} ms (${run.p99Ratio?.toFixed(2) ?? '—'}x alone; target <= ${RATIO_TARGET})`;
    console.log(
      `    ${run.label}: ${run.seconds.toFixed(1)} s (${run.did}); the full year${run.job === 'billing' ? ' (1,500,000 tags at this rate)' : ', linearly'}: ${(run.fullYearSeconds / 60).toFixed(1)} min (bound ${run.boundSeconds / 60} min: ${run.fullYearSeconds <= run.boundSeconds ? 'met' : 'NOT MET'})${under}`,
    );
  }
}

// `npx tsx bench/scale.ts` runs this bench alone (its test runs it so: apps/server/test/ops/scale-bench.test.ts).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) printScale(await benchScale());
