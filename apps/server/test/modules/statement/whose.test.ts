import { messages, PAGE_SIZE } from '@portal/domain';
import { cnpj } from 'cpf-cnpj-validator';
import { expect, it } from 'vitest';
import { bearer, registerDriver } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { joinCompany, onCompany } from '../../helpers/fleet.js';
import { pdfText } from '../../helpers/files.js';
import { capturingQueries } from '../../helpers/queries.js';
import { recordMovements } from '../../helpers/movements.js';
import type { Movement } from '../../helpers/movements.js';
import { expectLedgerInvariant, usePixTestApp } from '../../helpers/pix.js';
import { activeTag, registerTag } from '../../helpers/tags.js';
import { toIso } from '../../../src/db/connection.js';
import { bucketsOf } from '../../../src/modules/ledger/ledger.js';
import { EXPORT_CHUNK_ROWS, exportPlan, exportRows } from '../../../src/modules/statement/export-rows.js';
import { readsOn } from '../../../src/db/read-replica.js';
import type { CompiledQuery } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../src/db/connection.js';

/**
 * Decision 79: a company's statement by plate, cost centre or driver. Each entry names its vehicle
 * and the cost centre it was in when posted; the filtered pages (near the top and deep, found by
 * the counters per vehicle and centre) are exactly the entries a plain query over the ledger finds,
 * newest first, with the same totals, in the screen and in the CSV.
 */

/** A seeded stream of numbers in [0, 1): the same history in every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** `n` movements for `vehicle` (or none) from `start`, minutes to days apart, some at one instant. */
function history(n: number, vehicle: number | undefined, start: number, random: () => number): Movement[] {
  const out: Movement[] = [];
  let at = start;
  for (let i = 0; i < n; i++) {
    const r = random();
    at += r < 0.1 ? 0 : r < 0.6 ? Math.floor(random() * 90) * 60_000 : Math.floor(random() * 4 * 86_400_000);
    const credit = vehicle === undefined;
    out.push({
      at: new Date(at).toISOString(),
      cents: credit ? 5_000 + Math.floor(random() * 20_000) : -(100 + Math.floor(random() * 3_000)),
      origin: credit ? 'compra-pix' : 'passagem',
      place: credit ? 'Compra de saldo via Pix' : `Praça ${i}`,
      ...(random() < 0.15 && !credit ? { third: true } : {}),
      ...(vehicle === undefined ? {} : { vehicle }),
    });
  }
  return out;
}

interface Row {
  transactionId: number;
  value: number;
  conta: { tipo: string };
  veiculo: { placa: string; centroDeCusto: { codigo: string; nome: string } | null } | null;
}

describeEachDatabase('extrato da empresa por placa, centro de custo e motorista (decisão 79)', (dialect) => {
  const t = usePixTestApp(dialect);

  async function carrier() {
    const app = t.app();
    const db = t.db();
    const firm = await registerDriver(app, { name: 'Transportes Filtro Ltda', cpfCnpj: cnpj.generate() });
    const south = await centre(app, firm, 'Operação Sul', 'OP-SUL');
    const north = await centre(app, firm, 'Operação Norte', 'OP-NORTE');
    // One tag activated (its fee is an entry of the truck), two vehicles only registered.
    const a = await activeTag(app, firm);
    const b = await registerTag(app, firm);
    const c = await registerTag(app, firm);
    await move(app, firm, a.vehicleId, south);
    await move(app, firm, b.vehicleId, north);
    const { memberId: driverId } = await joinCompany(app, firm, 'Dora Motorista', 'motorista');
    await joinCompany(app, firm, 'Sem Caminhão', 'motorista');
    const assigned = await onCompany(app, firm, firm, 'POST', `/api/empresa/veiculos/${a.vehicleId}/motoristas`, {
      motoristas: [driverId],
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const alsoB = await onCompany(app, firm, firm, 'POST', `/api/empresa/veiculos/${b.vehicleId}/motoristas`, { motoristas: [driverId] });
    expect(alsoB.statusCode, alsoB.body).toBe(200);
    const random = seeded(79);
    const start = Date.parse('2026-03-01T10:00:00.000Z');
    // A's first 150 movements in OP-SUL; then A moves to OP-NORTE and has 140 more.
    await recordMovements(db, firm, history(150, a.vehicleId, start, random), 'a1');
    await move(app, firm, a.vehicleId, north);
    await recordMovements(db, firm, history(140, a.vehicleId, start + 5 * 86_400_000, random), 'a2');
    await recordMovements(db, firm, history(70, b.vehicleId, start + 2 * 86_400_000, random), 'b');
    await recordMovements(db, firm, history(25, c.vehicleId, start + 86_400_000, random), 'c');
    await recordMovements(db, firm, history(30, undefined, start - 86_400_000, random), 'pix');
    return { app, db, firm, south, north, a, b, c, driverId };
  }

  async function centre(app: FastifyInstance, firm: Registered, nome: string, codigo: string): Promise<number> {
    const res = await onCompany(app, firm, firm, 'POST', '/api/empresa/centros-de-custo', { nome, codigo });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ Centro: { id: number } }>().Centro.id;
  }

  async function move(app: FastifyInstance, firm: Registered, vehicleId: number, centroDeCusto: number) {
    const res = await onCompany(app, firm, firm, 'POST', `/api/empresa/veiculos/${vehicleId}/centro-de-custo`, { centroDeCusto });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** Every page of the statement for the query, newest first, and the totals of the first. */
  async function allPages(app: FastifyInstance, firm: Registered, query: string) {
    const first = await app.inject({ method: 'GET', url: `/api/extrato/listar?page=1&${query}`, headers: bearer(firm.token) });
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json<{
      Transacoes: Row[];
      Paginacao: { TotalPaginas: number };
      Totais: { conta: { tipo: string }; total: number }[];
    }>();
    const rows = [...body.Transacoes];
    for (let page = 2; page <= body.Paginacao.TotalPaginas; page++) {
      const res = await app.inject({ method: 'GET', url: `/api/extrato/listar?page=${page}&${query}`, headers: bearer(firm.token) });
      expect(res.statusCode, res.body).toBe(200);
      rows.push(...res.json<{ Transacoes: Row[] }>().Transacoes);
    }
    return { rows, totalPages: body.Paginacao.TotalPaginas, totals: body.Totais };
  }

  /** What a plain query over the ledger keeps for the filter, newest first, and its sums by account. */
  async function expected(db: Db, firmId: number, column: 'vehicle_id' | 'cost_centre_id', ids: number[], from?: string, to?: string) {
    let query = db.kysely
      .selectFrom('ledger_entries as e')
      .innerJoin('accounts as a', 'a.id', 'e.account_id')
      .select(['e.id', 'e.amount_cents', 'a.kind'])
      .where('e.driver_id', '=', firmId)
      .where(`e.${column}`, 'in', ids.length === 0 ? [-1] : ids);
    if (from) query = query.where('e.created_at', '>=', from);
    if (to) query = query.where('e.created_at', '<', to);
    const rows = await query.orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').execute();
    const sums = new Map<string, number>();
    for (const r of rows) sums.set(r.kind, (sums.get(r.kind) ?? 0) + Number(r.amount_cents));
    return { ids: rows.map((r) => r.id), sums };
  }

  it('each filter pages exactly its entries, near the top and deep, with totals per account; the rows name plate and centre', async () => {
    const { app, db, firm, south, north, a, b, c, driverId } = await carrier();
    const cases: [string, 'vehicle_id' | 'cost_centre_id', number[]][] = [
      [`placa=${a.plate}`, 'vehicle_id', [a.vehicleId]],
      [`placa=${c.plate.toLowerCase()}`, 'vehicle_id', [c.vehicleId]],
      [`centro=${south}`, 'cost_centre_id', [south]],
      [`centro=${north}`, 'cost_centre_id', [north]],
      [`motorista=${driverId}`, 'vehicle_id', [a.vehicleId, b.vehicleId]],
    ];
    for (const [query, column, ids] of cases) {
      const want = await expected(db, firm.id, column, ids);
      const got = await allPages(app, firm, query);
      expect(
        got.rows.map((r) => r.transactionId),
        query,
      ).toEqual(want.ids);
      expect(got.totalPages, query).toBe(Math.ceil(want.ids.length / PAGE_SIZE));
      const totals = new Map(got.totals.map((x) => [x.conta.tipo, Math.round(x.total * 100)]));
      expect(totals.get('SALDO'), query).toBe(want.sums.get('own') ?? 0);
      expect(totals.get('SALDO_TERCEIRO') ?? 0, query).toBe(want.sums.get('third') ?? 0);
      // The same in a period of São Paulo days (its bounds cut through months, days and hours).
      const period = await allPages(app, firm, `${query}&periodo=intervalo&de=2026-03-04&ate=2026-03-20`);
      const inPeriod = await expected(db, firm.id, column, ids, '2026-03-04T03:00:00.000Z', '2026-03-21T03:00:00.000Z');
      expect(
        period.rows.map((r) => r.transactionId),
        `${query} período`,
      ).toEqual(inPeriod.ids);
      const periodTotals = new Map(period.totals.map((x) => [x.conta.tipo, Math.round(x.total * 100)]));
      expect(periodTotals.get('SALDO') ?? 0, `${query} período`).toBe(inPeriod.sums.get('own') ?? 0);
    }
    // A's rows before its move say OP-SUL, after it OP-NORTE; a purchase names no vehicle.
    const byA = await allPages(app, firm, `placa=${a.plate}`);
    const centres = new Set(byA.rows.map((r) => r.veiculo?.centroDeCusto?.codigo));
    expect([...centres].sort()).toEqual(['OP-NORTE', 'OP-SUL', undefined].sort());
    expect(byA.rows.every((r) => r.veiculo?.placa === a.plate)).toBe(true);
    const all = await allPages(app, firm, 'periodo=tudo');
    expect(all.rows.filter((r) => r.veiculo === null).length).toBeGreaterThanOrEqual(30);
    // The driver's trucks: A's and B's together, deeper than OFFSET reads.
    expect((await allPages(app, firm, `motorista=${driverId}`)).totalPages).toBeGreaterThan(20);
    await expectLedgerInvariant(db);
  });

  it('the counters per vehicle and per centre are what the entries add up to', async () => {
    const { db, firm } = await carrier();
    const entries = await db.kysely
      .selectFrom('ledger_entries as e')
      .innerJoin('accounts as a', 'a.id', 'e.account_id')
      .select(['e.created_at', 'e.amount_cents', 'a.kind', 'e.vehicle_id', 'e.cost_centre_id'])
      .where('e.driver_id', '=', firm.id)
      .execute();
    const want = new Map<string, [number, number]>();
    for (const e of entries) {
      for (const [scope, id] of [
        ['vehicle', e.vehicle_id],
        ['centre', e.cost_centre_id],
      ] as const) {
        if (id === null) continue;
        for (const [unit, bucket] of Object.entries(bucketsOf(toIso(e.created_at)))) {
          const key = `${scope} ${id} ${unit} ${bucket} ${e.kind}`;
          const [n, cents] = want.get(key) ?? [0, 0];
          want.set(key, [n + 1, cents + Number(e.amount_cents)]);
        }
      }
    }
    const stored = await db.kysely.selectFrom('ledger_scope_counts').selectAll().where('driver_id', '=', firm.id).execute();
    const got = new Map<string, [number, number]>();
    for (const s of stored) {
      for (const kind of ['own', 'third', 'vpo'] as const) {
        const cents = Number(s[`${kind}_cents`]);
        const key = `${s.scope} ${s.scope_id} ${s.unit} ${toIso(s.bucket)} ${kind}`;
        if (cents !== 0 || want.has(key)) got.set(key, [want.get(key)?.[0] ?? 0, cents]);
      }
    }
    const entriesOf = (m: Map<string, [number, number]>) => [...m].map(([k, [, cents]]) => [k, cents]).sort();
    expect(entriesOf(got)).toEqual(entriesOf(want));
    const counted = stored.reduce((sum, s) => sum + (s.scope === 'vehicle' && s.unit === 'month' ? Number(s.entries) : 0), 0);
    expect(counted).toBe(entries.filter((e) => e.vehicle_id !== null).length);
  });

  it('lists every plate of the account for the filter, to the roles that read the statement', async () => {
    const { app, firm, a, b, c } = await carrier();
    const res = await app.inject({ method: 'GET', url: '/api/extrato/veiculos', headers: bearer(firm.token) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ Veiculos: { placa: string; removido: boolean }[] }>().Veiculos).toEqual(
      [a.plate, b.plate, c.plate].sort().map((placa) => ({ placa, removido: false })),
    );
    const { person: moto } = await joinCompany(app, firm, 'Mário Motorista', 'motorista');
    expect((await onCompany(app, firm, moto, 'GET', '/api/extrato/veiculos')).statusCode).toBe(403);
    const { person: fin } = await joinCompany(app, firm, 'Fábia Financeira', 'financeiro');
    expect((await onCompany(app, firm, fin, 'GET', '/api/extrato/veiculos')).statusCode).toBe(200);
  });

  it('the CSV and the PDF keep the filter: only its rows, each with its plate and centre; the PDF names it', async () => {
    const { app, db, firm, south, a } = await carrier();
    const want = await expected(db, firm.id, 'cost_centre_id', [south]);
    const csv = await app.inject({ method: 'GET', url: `/api/extrato/exportar?formato=csv&centro=${south}`, headers: bearer(firm.token) });
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.rawPayload.subarray(3).toString('utf8').trim().split('\r\n');
    const rows = lines.slice(1).filter((l) => !l.includes('Total do período'));
    expect(rows).toHaveLength(want.ids.length);
    expect(rows.every((l) => l.endsWith(';OP-SUL · Operação Sul'))).toBe(true);
    const pdf = await app.inject({
      method: 'GET',
      url: `/api/extrato/exportar?formato=pdf&periodo=intervalo&de=2026-03-01&ate=2026-03-31&centro=${south}`,
      headers: bearer(firm.token),
    });
    expect(pdf.statusCode, pdf.body).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).pages.join(' ');
    expect(text).toContain('Filtro');
    expect(text).toContain('Centro de custo OP-SUL · Operação Sul');
    // Each row says its plate first, where a long place name's cut never reaches it.
    expect(text).toContain(`${a.plate} · Passagem por:`);
  });

  it('a CSV of many chunks names every row’s plate and centre as the ledger does, in the later chunks as in the first, each read once', async () => {
    const { app, db, firm, south, a, b } = await carrier();
    const random = seeded(80);
    // A and B again after the first chunk's rows: their names were read once, in the first chunk.
    // A back in OP-SUL, then OP-SUL removed: its entries, over several chunks, name no centre.
    await move(app, firm, a.vehicleId, south);
    await recordMovements(db, firm, history(EXPORT_CHUNK_ROWS + 300, a.vehicleId, Date.parse('2026-06-01T10:00:00.000Z'), random), 'a3');
    await recordMovements(db, firm, history(120, b.vehicleId, Date.parse('2026-06-02T10:00:00.000Z'), random), 'b2');
    const removed = await onCompany(app, firm, firm, 'DELETE', `/api/empresa/centros-de-custo/${south}`);
    expect(removed.statusCode, removed.body).toBe(200);
    const want = await db.kysely
      .selectFrom('ledger_entries as e')
      .leftJoin('vehicles as v', 'v.id', 'e.vehicle_id')
      .leftJoin('cost_centres as c', 'c.id', 'e.cost_centre_id')
      .select(['v.license_plate', 'c.code', 'c.name'])
      .where('e.driver_id', '=', firm.id)
      .orderBy('e.created_at', 'asc')
      .orderBy('e.id', 'asc')
      .execute();
    expect(want.length).toBeGreaterThan(EXPORT_CHUNK_ROWS * 2);
    const csv = await app.inject({ method: 'GET', url: '/api/extrato/exportar?formato=csv&periodo=tudo', headers: bearer(firm.token) });
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.rawPayload.subarray(3).toString('utf8').trim().split('\r\n');
    const named = lines
      .slice(1)
      .filter((l) => !l.includes('Total do período'))
      .map((l) => l.split(';').slice(-2).join(';'));
    expect(named).toEqual(want.map((w) => `${w.license_plate ?? ''};${w.code === null ? '' : `${w.code} · ${w.name}`}`));
    // The same export, its reads kept: a plate or a centre is asked for in one chunk only.
    const queries: CompiledQuery[] = [];
    const plan = await exportPlan(db.kysely, firm.id, { periodo: 'tudo' }, new Date());
    let chunks = 0;
    for await (const rows of exportRows(readsOn(capturingQueries(db, queries)), firm.id, plan)) chunks += rows.length > 0 ? 1 : 0;
    expect(chunks).toBeGreaterThan(2);
    // The removed centre among them: asked for once, not again in each chunk that names it.
    for (const table of ['vehicles', 'cost_centres']) {
      const asked = queries.filter((q) => new RegExp(`from "${table}"`).test(q.sql)).flatMap((q) => q.parameters);
      expect(asked.length, table).toBeGreaterThan(0);
      expect(asked, table).toEqual([...new Set(asked)]);
    }
  });

  it('refuses two filters at once, and a plate, centre or driver that is not the account’s, changing nothing', async () => {
    const { app, firm, south, a, driverId } = await carrier();
    const other = await registerDriver(app, { name: 'Outra Transportadora', cpfCnpj: cnpj.generate() });
    const refused = async (who: Registered, query: string, field: string, message: string) => {
      const res = await app.inject({ method: 'GET', url: `/api/extrato/listar?page=1&${query}`, headers: bearer(who.token) });
      expect(res.statusCode, `${query} ${res.body}`).toBe(422);
      expect(res.json<{ errors: Record<string, string[]> }>().errors[field], query).toEqual([message]);
    };
    await refused(firm, `placa=${a.plate}&centro=${south}`, 'centro', messages.statement.oneWhoseFilter);
    await refused(firm, `centro=${south}&motorista=${driverId}`, 'motorista', messages.statement.oneWhoseFilter);
    await refused(firm, 'placa=ZZZ9Z99', 'placa', messages.statement.plateNotFound);
    await refused(other, `placa=${a.plate}`, 'placa', messages.statement.plateNotFound);
    await refused(other, `centro=${south}`, 'centro', messages.statement.centreNotFound);
    await refused(other, `motorista=${driverId}`, 'motorista', messages.statement.memberNotFound);
    await refused(firm, 'centro=abc', 'centro', messages.input.idInvalid);
    const csv = await app.inject({ method: 'GET', url: `/api/extrato/exportar?formato=csv&centro=${south}`, headers: bearer(other.token) });
    expect(csv.statusCode).toBe(422);
  });
});
