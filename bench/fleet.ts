import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  ACTING_ACCOUNT_HEADER,
  billingPeriod,
  roleAllows,
  saoPauloMidnight,
  saoPauloWallClock,
  STATEMENT_ORIGINS,
  STATEMENT_PLACE_NAMES,
  TAG_MONTHLY_FEE_CENTS,
  TAG_STATUS,
  tagFeePlaceName,
} from '@portal/domain';
import { sql } from 'kysely';
import type { BenchDatabase } from './api.js';
import { openBenchApp } from './app.js';
import type { BenchApp } from './app.js';
import { bigint, checkLedger, instantAt, overNumbers, rebalance, recountEntries } from './ledger-fill.js';
import { median } from './lib.js';
import { FleetAccess } from '../apps/server/src/modules/fleet/access.js';
import { costCentreMonth } from '../apps/server/src/modules/fleet/report.js';
import { SessionStore } from '../apps/server/src/modules/auth/sessions.js';
import { accountId } from '../apps/server/src/modules/ledger/ledger.js';
import { PartnerService } from '../apps/server/src/modules/partners/service.js';

export interface Spread {
  medianMs: number;
  p99Ms: number;
  maxMs: number;
}

/** What was written for the company's history, and how long it took. */
export interface FleetMovements {
  /** All the company's ledger entries: passages + purchases + fees. */
  entries: number;
  passages: number;
  purchases: number;
  fees: number;
  /** The first and last entries' dates (passages and purchases; the fees are charged on each month's first day). */
  from: string;
  to: string;
  fillSeconds: number;
  steps: { label: string; seconds: number }[];
  /** The database's size after the fill (SQLite: the file after a checkpoint; PostgreSQL: pg_database_size). */
  databaseMb: number;
  /** ledger_entries with its indexes. */
  ledgerMb: number | null;
}

/** One page of GET /api/extrato/listar, filtered by a cost centre and unfiltered, timed alternately. */
export interface FleetStatementPage {
  label: string;
  filtered: Spread & { page: number; samples: number };
  unfiltered: Spread & { page: number; samples: number };
  /** filtered / unfiltered, medians. */
  ratio: number;
}

export interface FleetResult {
  database: BenchDatabase;
  vehicles: number;
  members: number;
  centres: number;
  vehiclesPerCentre: number;
  /** The machine's 1-minute load average when the measurements began and when they ended (2 cores: above 2, something else ran). */
  loadAverage: { start: number; end: number };
  setupSeconds: number;
  movements: FleetMovements;
  /** FleetAccess.resolve and roleAllows, what every call on a company's account runs first, in process. */
  check: Spread & { samples: number };
  /** GET /api/veiculo/listar?page=1 through app.inject: the company's own login, and a Motorista acting on it (X-Conta). */
  call: { own: Spread; motorista: Spread; samples: number; addedMedianMs: number; ratio: number };
  /** GET /api/extrato/listar as the company's own login: `centro=` one cost centre, beside the unfiltered statement. */
  statement: {
    centre: { code: string; entries: number; totalPages: number };
    totalPages: number;
    samples: number;
    pages: FleetStatementPage[];
  };
  /** GET /api/empresa/centros-de-custo/:id/relatorio (CSV) of one centre's month, and costCentreMonth alone beside it. */
  report: {
    month: string;
    entries: number;
    passages: number;
    runsMs: number[];
    medianMs: number;
    serviceMs: number[];
    bytes: number;
  };
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { medianMs: median(values), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? 0 };
}

/** A deterministic stream of numbers in [0, 1): the same members asked in every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const DAY = 86_400_000;
const OPERATOR_CNPJ = '90200002000117';
/** One purchase every this many movements of the stream, the rest passages. */
const PURCHASE_EVERY = 100;
/** R$ 2.000,00 a purchase: a little more than the 99 passages between two purchases cost. */
const PURCHASE_CENTS = 200_000;
/** The statement's pages: one slower than this a call on average is asked only MIN_PAGE_SAMPLES times (the run stays within minutes). */
const PAGE_BUDGET_MS = 50;
const MIN_PAGE_SAMPLES = 20;

/** The company's k-th tag: 16 digits. */
const serialOf = (k: number) => `9000${String(k).padStart(12, '0')}`;

/**
 * Issue 37: a company of `vehicles` trucks in `centres` cost centres and `members` people (one
 * Gestor, one Financeiro, the rest Motoristas with one or two trucks each), written straight to
 * the database, with `movements` ledger movements over the last 365 days (fillMovements). Then the
 * authorization check of a call on the company's account, for random members, `samples` times;
 * the same read as the company's own login and as a Motorista, alternating, to see what the check
 * adds to a whole call (a baseline in the same run); the statement filtered by one cost centre at
 * its first, middle and last pages beside the unfiltered statement at the same places; and one
 * centre's monthly report.
 */
export async function benchFleet(
  database: BenchDatabase,
  options: {
    vehicles?: number;
    members?: number;
    samples?: number;
    movements?: number;
    centres?: number;
    pageSamples?: number;
    reportRuns?: number;
  } = {},
): Promise<FleetResult> {
  const {
    vehicles = 500,
    members = 2000,
    samples = 20_000,
    movements = 1_000_000,
    centres = 10,
    pageSamples = 300,
    reportRuns = 5,
  } = options;
  const bench = await openBenchApp(`fleet_${database}`, { database });
  try {
    const started = performance.now();
    const db = bench.db.kysely;
    const company = await bench.app.inject({
      method: 'POST',
      url: '/api/user/create-user',
      payload: {
        name: 'Transportes Bench Ltda',
        cpfCnpj: '11222333000181',
        phoneNumber: '11987654321',
        password: 'benchmark123',
        password_confirmation: 'benchmark123',
        type: 'driver',
      },
    });
    if (company.statusCode !== 201) throw new Error(`company: ${company.statusCode} ${company.body}`);
    const { Token: companyToken, User } = company.json<{ Token: string; User: { id: number } }>();
    const companyId = User.id;
    const now = new Date().toISOString();
    const vehicleIds: number[] = [];
    for (let start = 0; start < vehicles; start += 250) {
      const rows = await db
        .insertInto('vehicles')
        .values(
          Array.from({ length: Math.min(250, vehicles - start) }, (_, i) => ({
            driver_id: companyId,
            license_plate: `BEN${String(start + i).padStart(4, '0')}`,
            cpf_cnpj_antt: '',
            rntrc_antt: '12345678',
            axles: 6,
            vehicle_type: 2,
            model_id: 'scania-r-450',
            created_at: now,
            deleted_at: null,
          })),
        )
        .returning('id')
        .execute();
      vehicleIds.push(...rows.map((r) => r.id));
    }
    const people: { id: number; name: string; cpfCnpj: string; memberId: number; role: 'gestor' | 'financeiro' | 'motorista' }[] = [];
    for (let start = 0; start < members; start += 250) {
      const batch = Array.from({ length: Math.min(250, members - start) }, (_, i) => {
        const n = start + i;
        return {
          name: `Pessoa ${n}`,
          cpf_cnpj: String(10_000_000_000 + n),
          phone_number: '11900000000',
          password_hash: '',
          created_at: now,
        };
      });
      const persons = await db.insertInto('drivers').values(batch).returning(['id', 'name', 'cpf_cnpj']).execute();
      const rows = await db
        .insertInto('company_members')
        .values(
          persons.map((p, i) => ({
            company_id: companyId,
            cpf: p.cpf_cnpj,
            person_id: p.id,
            role: start + i === 0 ? ('gestor' as const) : start + i === 1 ? ('financeiro' as const) : ('motorista' as const),
            state: 'ativo' as const,
            invited_by: companyId,
            invited_at: now,
            accepted_at: now,
          })),
        )
        .returning(['id', 'person_id', 'role'])
        .execute();
      rows.forEach((r, i) => {
        const p = persons[i];
        if (p) people.push({ id: p.id, name: p.name, cpfCnpj: p.cpf_cnpj, memberId: r.id, role: r.role });
      });
    }
    const motoristas = people.filter((p) => p.role === 'motorista');
    const assignments = motoristas.flatMap((m, i) => {
      const first = vehicleIds[i % vehicleIds.length] ?? 0;
      const second = vehicleIds[(i * 7 + 3) % vehicleIds.length] ?? 0;
      return i % 3 === 0 && second !== first
        ? [
            { vehicle_id: first, member_id: m.memberId },
            { vehicle_id: second, member_id: m.memberId },
          ]
        : [{ vehicle_id: first, member_id: m.memberId }];
    });
    for (let start = 0; start < assignments.length; start += 500) {
      await db
        .insertInto('vehicle_drivers')
        .values(assignments.slice(start, start + 500))
        .execute();
    }
    const centreIds = await placeInCentres(bench, companyId, vehicleIds, centres);
    const setupSeconds = (performance.now() - started) / 1000;
    const filled = await fillMovements(bench, companyId, vehicleIds, movements);

    const loadAtStart = os.loadavg()[0] ?? 0;
    // The check alone, for random members (a tenth of the samples first, not counted).
    const access = new FleetAccess(db);
    const random = seeded(37);
    const pick = () => people[Math.floor(random() * people.length)] ?? people[0];
    const times: number[] = [];
    for (let i = 0; i < samples * 1.1; i++) {
      const person = pick();
      if (!person) break;
      const t0 = performance.now();
      const resolved = await access.resolve(person, companyId);
      if (!resolved || !roleAllows(resolved.acting.role, 'vehicles')) throw new Error(`${person.name}: sem acesso`);
      const elapsed = performance.now() - t0;
      if (i >= samples * 0.1) times.push(elapsed);
    }

    // A whole call, as the company's own login and as a Motorista, alternating.
    const sessions = new SessionStore(db, 1);
    const motorista = motoristas[0];
    if (!motorista) throw new Error('sem Motorista');
    const motoristaToken = await sessions.create(db, motorista.id);
    const calls = Math.max(200, Math.floor(samples / 20));
    const own: number[] = [];
    const acting: number[] = [];
    const call = async (token: string, header: Record<string, string>) => {
      const t0 = performance.now();
      const res = await bench.app.inject({
        method: 'GET',
        url: '/api/veiculo/listar?page=1',
        headers: { authorization: `Bearer ${token}`, ...header },
      });
      if (res.statusCode !== 200) throw new Error(`listar: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < calls * 1.1; i++) {
      const a = await call(companyToken, {});
      const b = await call(motoristaToken, { [ACTING_ACCOUNT_HEADER]: String(companyId) });
      if (i >= calls * 0.1) {
        own.push(a);
        acting.push(b);
      }
    }
    const ownSpread = spread(own);
    const actingSpread = spread(acting);

    const centre = centreIds[0];
    if (!centre) throw new Error('sem centro de custo');
    const statement = await measureStatement(bench, companyToken, centre, pageSamples);
    const report = await measureReport(bench, companyToken, companyId, centre.id, filled.reportMonth, reportRuns);
    return {
      database,
      vehicles,
      members,
      centres: centreIds.length,
      vehiclesPerCentre: Math.ceil(vehicles / centres),
      loadAverage: { start: loadAtStart, end: os.loadavg()[0] ?? 0 },
      setupSeconds,
      movements: filled.movements,
      check: { ...spread(times), samples: times.length },
      call: {
        own: ownSpread,
        motorista: actingSpread,
        samples: own.length,
        addedMedianMs: actingSpread.medianMs - ownSpread.medianMs,
        ratio: actingSpread.medianMs / ownSpread.medianMs,
      },
      statement,
      report,
    };
  } finally {
    await bench.close();
  }
}

/** `centres` cost centres (C01, C02, …), the trucks in them in order, as many in each (the last may have fewer). */
async function placeInCentres(bench: BenchApp, companyId: number, vehicleIds: number[], centres: number) {
  const db = bench.db.kysely;
  const perCentre = Math.ceil(vehicleIds.length / centres);
  const rows = await db
    .insertInto('cost_centres')
    .values(
      Array.from({ length: centres }, (_, c) => ({
        company_id: companyId,
        code: `C${String(c + 1).padStart(2, '0')}`,
        name: `Região ${c + 1}`,
        created_at: new Date().toISOString(),
      })),
    )
    .returning(['id', 'code'])
    .execute();
  for (const [c, centre] of rows.entries()) {
    const ids = vehicleIds.slice(c * perCentre, (c + 1) * perCentre);
    if (ids.length === 0) continue;
    await db.updateTable('vehicles').set({ cost_centre_id: centre.id }).where('id', 'in', ids).execute();
  }
  return rows;
}

/**
 * The company's history, written by the database (ledger-fill.ts, one INSERT … SELECT a step, in
 * one transaction): a tag on each truck; `movements` entries on its Saldo over the last 365 days,
 * of which one per truck and month is the tag's monthly fee (with its paid tag_fee_charges row,
 * on the month's first day), one in every PURCHASE_EVERY of the rest a Pix purchase (no vehicle)
 * and the others toll passages of R$ 4 to R$ 30, each with its truck (in turn) and that truck's
 * cost centre, its passages row and its passage_payments row (not the notices, month usage or
 * budget counters recordPassages also writes); then the counters made from the entries (the
 * driver's and the scopes'), the balance their sum, and the ledger's invariants checked. Unique
 * idempotency keys, as the real ones are spelled.
 */
async function fillMovements(bench: BenchApp, companyId: number, vehicleIds: number[], movements: number) {
  const { kysely: db, dialect } = bench.db;
  const first = vehicleIds[0] ?? 0;
  // The entries find their truck by arithmetic on its id: the ids must run without a gap.
  if (vehicleIds.some((id, k) => id !== first + k)) throw new Error('os ids dos veículos não são contíguos');
  const vehicles = vehicleIds.length;
  const nowMs = Date.now();
  const oldest = nowMs - 365 * DAY;
  const today = saoPauloWallClock(new Date(nowMs));
  // The 12 months before this one, for the fees; the report's month is in the middle of the history.
  const months = Array.from({ length: 12 }, (_, m) => {
    const start = saoPauloMidnight(today.year, today.month - 12 + m, 1);
    return { period: billingPeriod(start), startMs: start.getTime() };
  });
  const reportMonth = months[6]?.period ?? billingPeriod(new Date(nowMs - 180 * DAY));
  const feeEntries = months.length * vehicles;
  const stream = Math.max(0, movements - feeEntries);
  const stepMs = Math.max(1, Math.floor((nowMs - DAY / 24 - oldest) / Math.max(1, stream)));

  const started = performance.now();
  const steps: { label: string; seconds: number }[] = [];
  let last = started;
  const step = (label: string) => {
    const t = performance.now();
    steps.push({ label, seconds: (t - last) / 1000 });
    last = t;
  };
  const oldestIso = new Date(oldest).toISOString();
  for (let start = 0; start < vehicles; start += 250) {
    await db
      .insertInto('tags')
      .values(
        vehicleIds.slice(start, start + 250).map((vehicle, i) => ({
          driver_id: companyId,
          vehicle_id: vehicle,
          serial_number: serialOf(start + i),
          operator_cnpj: OPERATOR_CNPJ,
          ownership_type: 'own' as const,
          status_code: TAG_STATUS.active,
          activated_at: oldestIso,
          paid_through: months.at(-1)?.period ?? null,
          created_at: oldestIso,
          deleted_at: null,
        })),
      )
      .execute();
  }
  const operator = await new PartnerService(bench.db).create('operator', 'Operadora Benchmark', OPERATOR_CNPJ);
  const own = await accountId(db, companyId, 'own');
  step('tags and operator');

  // The stream's i-th movement: a purchase every PURCHASE_EVERY, else a passage of truck (i mod vehicles).
  const purchase = sql`i % ${sql.lit(PURCHASE_EVERY)} = 0`;
  const instant = instantAt(dialect, sql`${bigint(oldest)} + (i - 1) * ${bigint(stepMs)}`);
  const tollCents = sql`(400 + ((i % 1000) * 7919) % 2600)`;
  const plaza = sql`'Praça de pedágio ' || ((i * 13) % 47)`;
  const truck = sql`v.id = ${first} + i % ${vehicles}`;
  const passageKey = `partner:${operator.id}:passage:`;
  await db.transaction().execute(async (trx) => {
    await sql`insert into ledger_entries (account_id, driver_id, amount_cents, origin, event, place_name, is_third, reference, idempotency_key, created_at, vehicle_id, cost_centre_id)
      ${overNumbers(
        dialect,
        stream,
        sql`select ${own}, ${companyId},
          case when ${purchase} then ${PURCHASE_CENTS} else -${tollCents} end,
          case when ${purchase} then ${STATEMENT_ORIGINS.pixPurchase} else ${STATEMENT_ORIGINS.passage} end,
          case when ${purchase} then 'RECEIVED' end,
          case when ${purchase} then ${STATEMENT_PLACE_NAMES.pixPurchase} else ${plaza} end,
          0,
          case when ${purchase} then 'bench-charge-' || i end,
          case when ${purchase} then 'pix-charge:bench-charge-' || i || ':credit' else ${passageKey} || 'fleet-' || i end,
          ${instant},
          case when ${purchase} then null else v.id end,
          case when ${purchase} then null else v.cost_centre_id end`,
        sql`join vehicles v on ${truck}`,
      )}`.execute(trx);
    step('entries: passages and purchases');
    await sql`insert into passages (partner_id, external_id, operator_cnpj, driver_id, tag_id, serial_number, place_name, occurred_at, amount_cents, is_third, created_at)
      ${overNumbers(
        dialect,
        stream,
        sql`select ${operator.id}, 'fleet-' || i, ${OPERATOR_CNPJ}, ${companyId}, t.id, t.serial_number, ${plaza}, ${instant}, ${tollCents}, 0, ${instant}`,
        sql`join vehicles v on ${truck} join tags t on t.vehicle_id = v.id and t.deleted_at is null where not (${purchase})`,
      )}`.execute(trx);
    step('passages');
    await sql`insert into passage_payments (passage_id, entry_id, account, vpo_id, paid_cents, refunded_cents)
      select p.id, e.id, 'own', null, p.amount_cents, 0
      from passages p join ledger_entries e on e.idempotency_key = ${passageKey} || p.external_id
      where p.partner_id = ${operator.id}`.execute(trx);
    step('passage payments');
    const [before, after] = tagFeePlaceName('{serial}').split('{serial}');
    const formatted = sql.join(
      [0, 4, 8, 12].map((at) => sql`substr(t.serial_number, ${at + 1}, 4)`),
      sql` || ' ' || `,
    );
    for (const month of months) {
      const charged = instantAt(dialect, sql`${bigint(month.startMs + 3_600_000)} + (v.id - ${first}) * 1000`);
      const tail = sql`from tags t join vehicles v on v.id = t.vehicle_id where t.driver_id = ${companyId} and t.deleted_at is null`;
      await sql`insert into tag_fee_charges (tag_id, period, amount_cents, status, created_at, paid_at)
        select t.id, ${month.period}, ${TAG_MONTHLY_FEE_CENTS}, 'paid', ${charged}, ${charged} ${tail}`.execute(trx);
      await sql`insert into ledger_entries (account_id, driver_id, amount_cents, origin, event, place_name, is_third, reference, idempotency_key, created_at, vehicle_id, cost_centre_id)
        select ${own}, ${companyId}, ${-TAG_MONTHLY_FEE_CENTS}, ${STATEMENT_ORIGINS.tagFee}, null, ${before ?? ''} || ${formatted} || ${after ?? ''}, 0,
          cast(t.id as text) || ${`:${month.period}`}, 'tag-fee:' || cast(t.id as text) || ${`:${month.period}`}, ${charged}, v.id, v.cost_centre_id
        ${tail}`.execute(trx);
    }
    step('fees: charges and entries');
    await recountEntries(trx, dialect, companyId);
    step('counters (driver, vehicles, centres)');
    await rebalance(trx, companyId);
    step('balance');
  });
  await checkLedger(db, companyId);
  step('invariants checked');
  let databaseMb: number;
  let ledgerMb: number | null = null;
  if (dialect === 'postgres') {
    await sql`vacuum analyze`.execute(db);
    step('vacuum analyze');
    const { rows } = await sql<{ database: string; ledger: string }>`select pg_database_size(current_database()) as database,
      pg_total_relation_size('ledger_entries') as ledger`.execute(db);
    databaseMb = Number(rows[0]?.database ?? 0) / 2 ** 20;
    ledgerMb = Number(rows[0]?.ledger ?? 0) / 2 ** 20;
  } else {
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
    step('checkpoint');
    databaseMb = (await stat(path.join(bench.dir, 'portal.sqlite'))).size / 2 ** 20;
    try {
      const { rows } = await sql<{ bytes: number }>`select sum(pgsize) as bytes from dbstat
        where name in (select name from sqlite_master where tbl_name = 'ledger_entries')`.execute(db);
      ledgerMb = Number(rows[0]?.bytes ?? 0) / 2 ** 20;
    } catch {
      ledgerMb = null; // dbstat not compiled in
    }
  }
  const { rows: dates } = await sql<{ first: string | Date; last: string | Date; passages: number | string }>`select
    (select min(created_at) from ledger_entries where driver_id = ${companyId} and origin <> ${STATEMENT_ORIGINS.tagFee}) as first,
    (select max(created_at) from ledger_entries where driver_id = ${companyId}) as last,
    (select count(*) from passages where driver_id = ${companyId}) as passages`.execute(db);
  const iso = (v: string | Date | undefined) => (v instanceof Date ? v.toISOString() : String(v ?? ''));
  const passages = Number(dates[0]?.passages ?? 0);
  return {
    reportMonth,
    movements: {
      entries: stream + feeEntries,
      passages,
      purchases: stream - passages,
      fees: feeEntries,
      from: iso(dates[0]?.first),
      to: iso(dates[0]?.last),
      fillSeconds: (performance.now() - started) / 1000,
      steps,
      databaseMb,
      ledgerMb,
    } satisfies FleetMovements,
  };
}

interface StatementBody {
  Transacoes: { veiculo: { placa: string; centroDeCusto: { codigo: string } | null } | null }[];
  Paginacao: { TotalPaginas: number };
}

/**
 * GET /api/extrato/listar as the company's own login, `centro=` the first cost centre at its first,
 * middle and last pages, and the unfiltered statement at its own first, middle and last pages: the
 * six in turn, `samples` rounds after a tenth not counted (a page slower than PAGE_BUDGET_MS stops
 * at MIN_PAGE_SAMPLES). Each page checked first (full, and only the centre's entries when filtered).
 */
async function measureStatement(bench: BenchApp, token: string, centre: { id: number; code: string }, samples: number) {
  const get = async (url: string) => {
    const t0 = performance.now();
    const res = await bench.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return { ms, body: res.json<StatementBody>() };
  };
  const url = (page: number, filtered: boolean) => `/api/extrato/listar?page=${page}${filtered ? `&centro=${centre.id}` : ''}`;
  const totalPages = (await get(url(1, false))).body.Paginacao.TotalPaginas;
  const centrePages = (await get(url(1, true))).body.Paginacao.TotalPaginas;
  const places = (pages: number) =>
    [
      ['page 1', 1],
      ['middle page', Math.ceil(pages / 2)],
      ['last page', pages],
    ] as const;
  const cases = [true, false].flatMap((filtered) =>
    places(filtered ? centrePages : totalPages).map(([label, page]) => ({
      label,
      page,
      filtered,
      times: [] as number[],
      calls: 0,
      spentMs: 0,
    })),
  );
  for (const c of cases) {
    const { body } = await get(url(c.page, c.filtered));
    const rows = body.Transacoes;
    if (rows.length === 0 || (c.page < (c.filtered ? centrePages : totalPages) && rows.length !== 10)) {
      throw new Error(`${url(c.page, c.filtered)}: ${rows.length} linhas`);
    }
    if (c.filtered && rows.some((r) => r.veiculo?.centroDeCusto?.codigo !== centre.code)) {
      throw new Error(`${url(c.page, c.filtered)}: lançamento de fora do centro ${centre.code}`);
    }
  }
  // A page slower than PAGE_BUDGET_MS a call on average: 3 calls of warm-up, MIN_PAGE_SAMPLES counted (its count is reported).
  const warmUp = Math.ceil(samples / 10);
  for (let round = 0; round < samples + warmUp; round++) {
    for (const c of cases) {
      const slow = c.calls > 0 && c.spentMs / c.calls > PAGE_BUDGET_MS;
      if (slow && (round < warmUp ? c.calls >= 3 : c.times.length >= MIN_PAGE_SAMPLES)) continue;
      const { ms } = await get(url(c.page, c.filtered));
      c.calls += 1;
      c.spentMs += ms;
      if (round >= warmUp) c.times.push(ms);
    }
  }
  const pages = places(0).map(([label]) => {
    const of = (filtered: boolean) => {
      const c = cases.find((x) => x.label === label && x.filtered === filtered);
      return { page: c?.page ?? 0, samples: c?.times.length ?? 0, ...spread(c?.times ?? []) };
    };
    const filtered = of(true);
    const unfiltered = of(false);
    return { label, filtered, unfiltered, ratio: filtered.medianMs / unfiltered.medianMs };
  });
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ledger_entries where cost_centre_id = ${centre.id}`.execute(
    bench.db.kysely,
  );
  return {
    centre: { code: centre.code, entries: Number(rows[0]?.n ?? 0), totalPages: centrePages },
    totalPages,
    samples,
    pages,
  };
}

/**
 * The centre's report of `month` as CSV through app.inject (one run not counted, then `runs`), and
 * costCentreMonth alone as many times (the reads, without the CSV and HTTP); its passages checked
 * against the centre's passages of the month.
 */
async function measureReport(bench: BenchApp, token: string, companyId: number, centreId: number, month: string, runs: number) {
  const db = bench.db.kysely;
  const url = `/api/empresa/centros-de-custo/${centreId}/relatorio?mes=${month}&formato=csv`;
  const runsMs: number[] = [];
  let bytes = 0;
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const res = await bench.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    bytes = res.rawPayload.length;
    if (i > 0) runsMs.push(ms);
  }
  const serviceMs: number[] = [];
  let passages = 0;
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const report = await costCentreMonth(db, companyId, centreId, month);
    const ms = performance.now() - t0;
    passages = report?.plates.reduce((sum, p) => sum + p.passages, 0) ?? 0;
    if (i > 0) serviceMs.push(ms);
  }
  const [year, mm] = month.split('-').map(Number) as [number, number];
  const from = saoPauloMidnight(year, mm, 1).toISOString();
  const to = saoPauloMidnight(year, mm + 1, 1).toISOString();
  const { rows } = await sql<{ entries: number | string; passages: number | string }>`select
    (select count(*) from ledger_entries where driver_id = ${companyId} and cost_centre_id = ${centreId} and created_at >= ${from} and created_at < ${to}) as entries,
    (select count(*) from passages p join tags t on t.id = p.tag_id join vehicles v on v.id = t.vehicle_id
      where p.driver_id = ${companyId} and v.cost_centre_id = ${centreId} and p.occurred_at >= ${from} and p.occurred_at < ${to}) as passages`.execute(
    db,
  );
  const expected = Number(rows[0]?.passages ?? 0);
  if (passages !== expected) throw new Error(`relatório de ${month}: ${passages} passagens, ${expected} no banco`);
  return { month, entries: Number(rows[0]?.entries ?? 0), passages, runsMs, medianMs: median(runsMs), serviceMs, bytes };
}
