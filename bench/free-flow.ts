import { saoPauloDay } from '@portal/domain';
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../apps/server/src/db/connection.js';
import type { Database } from '../apps/server/src/db/schema.js';
import { FreeFlowService } from '../apps/server/src/modules/passages/free-flow/service.js';
import { PartnerService } from '../apps/server/src/modules/partners/service.js';
import type { BenchDatabase } from './api.js';
import { insertActiveTag, openBenchApp } from './app.js';
import { median } from './lib.js';

/** SemParar in src/data/operators.json: the operator of the baseline's tags and of the tags of the opted-in vehicles. */
const OPERATOR_CNPJ = '90200002000117';
/** The contract's TOLL_BATCH_MAX and BATCH_MAX. */
const BATCH = 1000;
/** The vehicles of the one large fleet (the driver whose list is read); the other opted-in vehicles go 5 to a driver. */
const BIG_FLEET = 1000;
const FLEET = 5;
/** Batches pushed first and not counted, each way (JIT, prepared statements, the signing keys' first read). */
const WARM_UP_TOLL_BATCHES = 5;
const WARM_UP_PASSAGE_BATCHES = 1;
const DAY = 86_400_000;

export interface Timing {
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

export interface FreeFlowBenchResult {
  database: BenchDatabase;
  /** Tolls pushed (warm-up included), over `plates` plates of which `optedIn` are opted-in vehicles. */
  tolls: number;
  plates: number;
  optedIn: number;
  drivers: number;
  /** Opted-in vehicles with an active tag (each of their tolls runs the flag's reads). */
  tagged: number;
  setupSeconds: number;
  /** Open tolls written straight to the database (copies of the pushed ones, each driver's share kept) when the push kept fewer than the notices' 100,000. */
  copied: number;
  push: {
    /** Counted (warm-up excluded). */
    tolls: number;
    /** Tolls kept for an opted-in plate, the whole run. */
    kept: number;
    seconds: number;
    msPerToll: number;
    batch: Timing;
  };
  passages: { passages: number; seconds: number; msPerPassage: number; batch: Timing };
  /** msPerToll / msPerPassage (target <= 1.5). */
  ratio: number;
  list: {
    driverTolls: number;
    totalPages: number;
    samples: number;
    cases: { label: string; url: string; page: number; inject: Timing; service: Timing }[];
    worstMedianMs: number;
  };
  notices: {
    openTolls: number;
    sent: number;
    seconds: number;
    transactions: number;
    transaction: Timing & { totalMs: number };
  };
}

function timing(values: number[]): Timing {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    medianMs: median(sorted),
    p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0,
    maxMs: sorted.at(-1) ?? 0,
  };
}

/** A small seeded generator (mulberry32): the same plates and amounts each run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** The i-th Mercosul plate (ABC1D23), distinct for i < 4,569,760. */
function plate(i: number): string {
  const d2 = i % 100;
  let n = Math.floor(i / 100);
  const l = n % 26;
  n = Math.floor(n / 26);
  const d = n % 10;
  n = Math.floor(n / 10);
  return `${LETTERS[n % 26]}${LETTERS[Math.floor(n / 26) % 26]}${LETTERS[Math.floor(n / 676) % 26]}${d}${LETTERS[l]}${String(d2).padStart(2, '0')}`;
}

async function insertInSlices<T>(rows: T[], size: number, insert: (slice: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * The drivers, their accounts and the opted-in vehicles written straight to the database (the bench
 * measures tolls, not registrations): the registered driver holds BIG_FLEET vehicles, the others
 * FLEET each; every other vehicle has an active tag. Returns the number of drivers and tags.
 */
async function seed(db: Kysely<Database>, bigDriverId: number, optedIn: number): Promise<{ drivers: number; tagged: number }> {
  const now = new Date().toISOString();
  const others = Math.ceil(Math.max(0, optedIn - BIG_FLEET) / FLEET);
  const driverIds: number[] = [];
  await db.transaction().execute(async (trx) => {
    await insertInSlices(
      Array.from({ length: others }, (_, i) => i),
      500,
      async (slice) => {
        const rows = await trx
          .insertInto('drivers')
          .values(
            slice.map((i) => ({
              name: `Motorista Livre Passagem ${i}`,
              cpf_cnpj: `9${String(i).padStart(10, '0')}`,
              phone_number: '+5511987654321',
              password_hash: 'x',
              created_at: now,
            })),
          )
          .returning('id')
          .execute();
        driverIds.push(...rows.map((r) => r.id));
        await trx
          .insertInto('accounts')
          .values(rows.flatMap((r) => (['own', 'third', 'vpo'] as const).map((kind) => ({ driver_id: r.id, kind, balance_cents: 0 }))))
          .execute();
      },
    );
    const vehicles = Array.from({ length: optedIn }, (_, i) => ({
      driver_id: i < BIG_FLEET ? bigDriverId : driverIds[Math.floor((i - BIG_FLEET) / FLEET)]!,
      license_plate: plate(i),
      cpf_cnpj_antt: '11144477735',
      rntrc_antt: '12345678',
      axles: 3,
      vehicle_type: 2,
      model_id: 'scania-r-450',
      created_at: now,
      deleted_at: null,
      free_flow_consent_at: now,
    }));
    const ids: number[] = [];
    await insertInSlices(vehicles, 500, async (slice) => {
      const rows = await trx.insertInto('vehicles').values(slice).returning(['id', 'driver_id']).execute();
      ids.push(...rows.map((r) => r.id));
      const tagged = rows.filter((_, k) => (ids.length - rows.length + k) % 2 === 0);
      if (tagged.length === 0) return;
      await trx
        .insertInto('tags')
        .values(
          tagged.map((r) => ({
            driver_id: r.driver_id,
            vehicle_id: r.id,
            serial_number: `71${String(r.id).padStart(14, '0')}`,
            operator_cnpj: OPERATOR_CNPJ,
            ownership_type: 'own' as const,
            status_code: 100,
            activated_at: new Date(Date.now() - 400 * DAY).toISOString(),
            paid_through: null,
            created_at: now,
            deleted_at: null,
          })),
        )
        .execute();
    });
  });
  return { drivers: others + 1, tagged: Math.ceil(optedIn / 2) };
}

/** One more driver with ten tagged vehicles, not opted in: the tag passages of the baseline. */
async function passageDriver(db: Kysely<Database>): Promise<string[]> {
  const { id } = await db.transaction().execute(async (trx) => {
    const driver = await trx
      .insertInto('drivers')
      .values({
        name: 'Motorista Passagens',
        cpf_cnpj: '98888888888',
        phone_number: '+5511987654321',
        password_hash: 'x',
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('accounts')
      .values((['own', 'third', 'vpo'] as const).map((kind) => ({ driver_id: driver.id, kind, balance_cents: 0 })))
      .execute();
    return driver;
  });
  const serials: string[] = [];
  for (let i = 0; i < 10; i++) {
    const serial = `70000000000001${String(i).padStart(2, '0')}`;
    serials.push(serial);
    await insertActiveTag(db, { id, document: '98888888888' }, { serial, plate: `BEN${i}C2${i}`, operatorCnpj: OPERATOR_CNPJ });
  }
  return serials;
}

/** Each db.kysely.transaction().execute while it is on: from BEGIN (IMMEDIATE on SQLite: the write lock) to COMMIT. */
function timeTransactions(kysely: Kysely<Database>, durations: number[]): () => void {
  const original = kysely.transaction.bind(kysely);
  Object.defineProperty(kysely, 'transaction', {
    configurable: true,
    writable: true,
    value: () => {
      const builder = original();
      const execute = builder.execute.bind(builder);
      builder.execute = async <T>(callback: (trx: Transaction<Database>) => Promise<T>): Promise<T> => {
        const start = performance.now();
        try {
          return await execute(callback);
        } finally {
          durations.push(performance.now() - start);
        }
      };
      return builder;
    },
  });
  return () => {
    delete (kysely as { transaction?: unknown }).transaction;
  };
}

const TOLL_COLUMNS = sql.raw(
  'partner_id, external_id, driver_id, vehicle_id, plate, gantry, highway, km_milli, direction, axles, amount_cents, occurred_at, due_day, created_at, flag, flag_passage_id',
);

/**
 * A smaller run (BENCH_FREE_FLOW_TOLLS, the PostgreSQL default) keeps fewer than `target` tolls: the
 * pushed ones are copied (new externalIds, each driver's share kept) until `target`, so that the
 * notices and the deepest list are read at the full run's size. Returns the rows written.
 */
async function topUp(db: Db, kept: number, target: number): Promise<number> {
  let total = kept;
  for (let round = 1; total < target && kept > 0; round++) {
    const missing = Math.min(kept, target - total);
    await sql`
      insert into free_flow_tolls (${TOLL_COLUMNS})
      select partner_id, external_id || ${`-c${round}`}, driver_id, vehicle_id, plate, gantry, highway, km_milli, direction, axles,
        amount_cents, occurred_at, due_day, created_at, flag, flag_passage_id
      from free_flow_tolls where external_id not like ${'%-c%'} order by id limit ${missing}`.execute(db.kysely);
    total += missing;
  }
  if (total > kept) await recountTotals(db);
  return total - kept;
}

/** The drivers' totals as the server keeps them (decision 76), recounted after the copies written above. */
async function recountTotals(db: Db): Promise<void> {
  await sql`delete from free_flow_driver_totals`.execute(db.kysely);
  await sql`
    insert into free_flow_driver_totals (driver_id, tolls, open_tolls, open_cents, open_flagged)
    select driver_id, count(*),
      sum(case when paid_at is null and cancelled_at is null then 1 else 0 end),
      sum(case when paid_at is null and cancelled_at is null then amount_cents else 0 end),
      sum(case when paid_at is null and cancelled_at is null and flag is not null then 1 else 0 end)
    from free_flow_tolls group by driver_id`.execute(db.kysely);
}

/**
 * PostgreSQL's tables as autovacuum leaves them after so many inserts (autovacuum_vacuum_insert_threshold,
 * PostgreSQL 13+): statistics, and the visibility map that lets an index-only scan skip the table.
 * SQLite is left as the server leaves it (it never runs ANALYZE).
 */
async function analyze(db: Db): Promise<void> {
  if (db.dialect === 'postgres') await sql`vacuum analyze`.execute(db.kysely);
}

/**
 * Issue 36, decision 76: `tolls` free-flow tolls pushed through POST /api/parceiro/livre-passagem/lote
 * (app.inject, batches of 1,000, random plates among `plates`, 10 % of them opted-in vehicles) against
 * tag passages through POST /api/parceiro/passagens/lote (batches of 1,000) in the same app, one passage
 * batch after every tenth toll batch so that the database's growth weighs on both; then the list of the
 * driver with the most tolls (page 1, the last page, filtered), and the daily deadline notices for
 * every open toll made due in 5 days, each write transaction timed.
 */
export async function benchFreeFlow(
  database: BenchDatabase,
  tolls = 1_000_000,
  plates = 100_000,
  samples = 50,
  openTarget = 100_000,
): Promise<FreeFlowBenchResult> {
  const { db, app, token, driverId, close } = await openBenchApp('free_flow', {
    database,
    env: { PARTNER_MAX_PER_KEY: '100000000', PARTNER_MAX_PER_ADDRESS: '100000000' },
  });
  try {
    const setupStart = performance.now();
    const optedIn = Math.round(plates / 10);
    const { drivers, tagged } = await seed(db.kysely, driverId, optedIn);
    const serials = await passageDriver(db.kysely);
    const partners = new PartnerService(db);
    const concessionaire = await partners.create('concessionaire', 'Concessionária Benchmark');
    const operator = await partners.create('operator', 'Operadora Benchmark', OPERATOR_CNPJ);
    await analyze(db);
    const setupSeconds = (performance.now() - setupStart) / 1000;

    const rand = random(76);
    const now = Date.now();
    let tollSeq = 0;
    const toll = () => {
      tollSeq += 1;
      const gantry = Math.floor(rand() * 40);
      return {
        externalId: `t-${tollSeq}`,
        placa: plate(Math.floor(rand() * plates)),
        portico: `Pórtico ${gantry}`,
        rodovia: 'BR-116',
        km: 100 + gantry * 12.5,
        sentido: gantry % 2 ? 'Norte' : 'Sul',
        eixos: 2 + Math.floor(rand() * 8),
        valor: Math.round(500 + rand() * 2500) / 100,
        // The last 20 days: due 30 days after, so open.
        occurredAt: new Date(now - Math.floor(rand() * 20 * DAY)).toISOString(),
      };
    };
    const tollBatches = Math.ceil(tolls / BATCH);
    const tollWarmUp = Math.min(WARM_UP_TOLL_BATCHES, Math.floor(tollBatches / 2));
    const passageEvery = 10;
    const passageBatches = WARM_UP_PASSAGE_BATCHES + Math.ceil(tollBatches / passageEvery);
    // Passages in time order, a minute apart, fifty plazas in turn (passage-batch.ts's rhythm).
    const passageBase = now - (passageBatches * BATCH + 60) * 61_000;
    let passageSeq = 0;
    const passage = () => {
      passageSeq += 1;
      return {
        externalId: `p-${passageSeq}`,
        serialNumber: serials[passageSeq % serials.length],
        placeName: `Praça ${passageSeq % 50} (SP-348)`,
        value: 12.3,
        occurredAt: new Date(passageBase + passageSeq * 61_000).toISOString(),
        is_third: passageSeq % 10 === 0,
      };
    };

    const tollHeaders = { 'x-api-key': concessionaire.key };
    const passageHeaders = { 'x-api-key': operator.key };
    const tollTimes: number[] = [];
    const passageTimes: number[] = [];
    let tollsCounted = 0;
    let passagesCounted = 0;
    let pushed = 0;
    const passageBatch = async (): Promise<number> => {
      const batch = Array.from({ length: BATCH }, passage);
      const start = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/api/parceiro/passagens/lote',
        headers: passageHeaders,
        payload: { passagens: batch },
      });
      const ms = performance.now() - start;
      const accepted = res.statusCode === 200 ? res.json<{ Aceitas: number }>().Aceitas : -1;
      if (accepted !== batch.length) throw new Error(`passagens/lote -> ${res.statusCode} ${res.body.slice(0, 300)}`);
      return ms;
    };
    for (let w = 0; w < WARM_UP_PASSAGE_BATCHES; w++) await passageBatch();
    for (let b = 0; b < tollBatches; b++) {
      const items = Array.from({ length: Math.min(BATCH, tolls - pushed) }, toll);
      pushed += items.length;
      const start = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/api/parceiro/livre-passagem/lote',
        headers: tollHeaders,
        payload: { debitos: items },
      });
      const ms = performance.now() - start;
      const accepted = res.statusCode === 200 ? res.json<{ Aceitas: number }>().Aceitas : -1;
      if (accepted !== items.length) throw new Error(`livre-passagem/lote -> ${res.statusCode} ${res.body.slice(0, 300)}`);
      if (b >= tollWarmUp) {
        tollTimes.push(ms);
        tollsCounted += items.length;
      }
      if (b % passageEvery === 0) {
        passageTimes.push(await passageBatch());
        passagesCounted += BATCH;
      }
      if ((b + 1) % 100 === 0 && process.env.BENCH_FREE_FLOW_PROGRESS) {
        console.error(`  free-flow: ${pushed} tolls pushed, last batch ${ms.toFixed(0)} ms`);
      }
    }
    const sum = (values: number[]) => values.reduce((a, v) => a + v, 0);
    const tollSeconds = sum(tollTimes) / 1000;
    const passageSeconds = sum(passageTimes) / 1000;
    const msPerToll = (tollSeconds * 1000) / tollsCounted;
    const msPerPassage = (passageSeconds * 1000) / passagesCounted;

    const kept = Number(
      (
        await db.kysely
          .selectFrom('free_flow_tolls')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const copied = await topUp(db, kept, openTarget);
    await analyze(db);

    // The driver with the most tolls, and that driver's plate with the most tolls.
    const top = await db.kysely
      .selectFrom('free_flow_tolls')
      .select(['driver_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('driver_id')
      .orderBy('n', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    if (top.driver_id !== driverId) throw new Error(`the driver with the most tolls is ${top.driver_id}, not the one signed in`);
    const topPlate = await db.kysely
      .selectFrom('free_flow_tolls')
      .select(['plate', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('driver_id', '=', driverId)
      .groupBy('plate')
      .orderBy('n', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();

    const service = new FreeFlowService(db, app.log);
    const get = async (url: string) => {
      const start = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      const ms = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`${url} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms, body: res.json<{ Debitos: unknown[]; Paginacao: { TotalPaginas: number } }>() };
    };
    const pagesOf = async (query: string) => (await get(`/api/livre-passagem?page=1${query}`)).body.Paginacao.TotalPaginas;
    const totalPages = await pagesOf('');
    const filter = `&estado=EM_ABERTO&placa=${topPlate.plate}`;
    const filteredPages = await pagesOf(filter);
    const openPages = await pagesOf('&estado=EM_ABERTO');
    const cases = [
      { label: 'page 1', query: '', page: 1 },
      { label: 'last page', query: '', page: totalPages },
      { label: 'EM_ABERTO, last page', query: '&estado=EM_ABERTO', page: openPages },
      { label: `EM_ABERTO + plate ${topPlate.plate}, page 1`, query: filter, page: 1 },
      { label: `EM_ABERTO + plate ${topPlate.plate}, last page`, query: filter, page: filteredPages },
    ];
    const list = [];
    for (const c of cases) {
      const url = `/api/livre-passagem?page=${c.page}${c.query}`;
      const injected: number[] = [];
      const direct: number[] = [];
      const params = new URLSearchParams(c.query.slice(1));
      const query = {
        page: c.page,
        ...(params.get('placa') ? { placa: params.get('placa')! } : {}),
        ...(params.get('estado') ? { estado: params.get('estado') as 'EM_ABERTO' } : {}),
      };
      for (let i = 0; i < samples; i++) {
        const { ms, body } = await get(url);
        if (body.Debitos.length === 0) throw new Error(`${url} came back empty`);
        injected.push(ms);
        const start = performance.now();
        await service.list(driverId, query);
        direct.push(performance.now() - start);
      }
      list.push({ label: c.label, url, page: c.page, inject: timing(injected), service: timing(direct) });
    }

    // The deadline notices: every open toll (up to openTarget, the oldest ids) made due in 5 days, São Paulo's calendar.
    const dueDay = saoPauloDay(new Date(Date.now() + 5 * DAY));
    const open = db.kysely
      .selectFrom('free_flow_tolls')
      .select('id')
      .where('paid_at', 'is', null)
      .where('cancelled_at', 'is', null)
      .orderBy('id')
      .limit(openTarget);
    const updated = await db.kysely.updateTable('free_flow_tolls').set({ due_day: dueDay }).where('id', 'in', open).executeTakeFirst();
    const openTolls = Number(updated.numUpdatedRows);
    await analyze(db);
    const durations: number[] = [];
    const restore = timeTransactions(db.kysely, durations);
    let sent: number;
    const noticesStart = performance.now();
    try {
      sent = await service.sendDeadlineNotices();
    } finally {
      restore();
    }
    const noticesSeconds = (performance.now() - noticesStart) / 1000;
    if (sent !== openTolls) throw new Error(`${sent} notices sent for ${openTolls} tolls due`);

    return {
      database,
      tolls,
      plates,
      optedIn,
      drivers,
      tagged,
      setupSeconds,
      copied,
      push: { tolls: tollsCounted, kept, seconds: tollSeconds, msPerToll, batch: timing(tollTimes) },
      passages: { passages: passagesCounted, seconds: passageSeconds, msPerPassage, batch: timing(passageTimes) },
      ratio: msPerToll / msPerPassage,
      list: {
        driverTolls: Number(top.n),
        totalPages,
        samples,
        cases: list,
        worstMedianMs: Math.max(...list.map((c) => c.inject.medianMs)),
      },
      notices: {
        openTolls,
        sent,
        seconds: noticesSeconds,
        transactions: durations.length,
        transaction: { ...timing(durations), totalMs: sum(durations) },
      },
    };
  } finally {
    await close();
  }
}
