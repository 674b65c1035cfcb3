import { randomUUID } from 'node:crypto';
import type { StatementTransaction, VpoDetails } from '@portal/contract';
import { STATEMENT_KIND_ORIGINS } from '@portal/domain';
import { cnpj } from 'cpf-cnpj-validator';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db, Dialect } from '../../src/db/connection.js';
import { balances } from '../../src/modules/ledger/ledger.js';
import { PartnerService } from '../../src/modules/partners/service.js';
import { bearer, json, registerDriver, useTestApp } from './app.js';
import type { Registered } from './app.js';
import { expectLedgerInvariant } from './pix.js';
import { activeTag, SEMPARAR } from './tags.js';
import type { RegisteredTag } from './tags.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * An instant `ms` from `from` (now by default) as partners send it: São Paulo time with its offset, to the second.
 * Instants whose distance matters to the second are taken from one `from`, or a second boundary between two calls moves one.
 */
export function spAt(ms: number, from: number = Date.now()): string {
  const at = new Date(Math.floor((from + ms) / 1000) * 1000);
  return `${new Date(at.getTime() - 3 * HOUR).toISOString().slice(0, 19)}-03:00`;
}
export const minutes = (n: number): number => n * MINUTE;
export const hours = (n: number): number => n * HOUR;

/** A trip under way: begun two hours ago, ending in two days (passages of the last two hours fall in it). */
const TRIP = (): { inicioViagem: string; fimViagem: string } => ({ inicioViagem: spAt(-hours(2)), fimViagem: spAt(2 * DAY) });

export interface Shipper {
  id: number;
  key: string;
  name: string;
}

const VPO_ORIGINS: readonly string[] = STATEMENT_KIND_ORIGINS.vpo;

/** A driver with an active SemParar tag (Saldo R$ 84,10 after its first fee) and the calls the VPO tests make. */
export interface VpoDriver extends Registered {
  tag: RegisteredTag;
}

/**
 * One test app per file with what every VPO test needs: shippers and an operator key (SemParar),
 * the shipper's, operator's and driver's calls, and what the database holds.
 */
export function useVpoApp(dialect: Dialect) {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  const db = (): Db => ctx().db;
  let seq = 0;
  let operatorKey: { id: number; key: string } | null = null;

  async function shipper(name = `Embarcador ${(seq += 1)} Ltda`): Promise<Shipper> {
    const created = await new PartnerService(db()).create('shipper', name);
    return { ...created, name };
  }
  async function operator(): Promise<{ id: number; key: string }> {
    operatorKey ??= await new PartnerService(db()).create('operator', 'SemParar VPO', SEMPARAR);
    return operatorKey;
  }
  async function driver(overrides: Record<string, unknown> = {}): Promise<VpoDriver> {
    const d = await registerDriver(app());
    const tag = await activeTag(app(), d, { Operadora: SEMPARAR, ...overrides });
    return { ...d, tag };
  }
  const vpoBody = (t: RegisteredTag, overrides: Record<string, unknown> = {}) => ({
    externalId: `vpo-${randomUUID()}`,
    serialNumber: t.serial,
    PlacaVeiculo: t.plate,
    CpfCnpjEmbarcador: cnpj.generate(),
    ValorTotalVP: 100,
    origem: 'Campinas (SP)',
    destino: 'Santos (SP)',
    ...overrides,
  });
  const issue = (s: Shipper, body: Record<string, unknown>) =>
    app().inject({ method: 'POST', url: '/api/parceiro/vpos', headers: { 'x-api-key': s.key }, payload: body });
  /** Issues a VPO for the tag (the trip under way by default) and answers its id and externalId. */
  async function issued(
    s: Shipper,
    t: RegisteredTag,
    overrides: Record<string, unknown> = {},
  ): Promise<{ id: number; externalId: string }> {
    const body = vpoBody(t, { ...TRIP(), ...overrides });
    const res = await issue(s, body);
    expect(res.statusCode, res.body).toBe(201);
    return { id: Number(json<{ id: string }>(res).id), externalId: body.externalId };
  }
  const patch = (s: Shipper, externalId: string, Status: string) =>
    app().inject({ method: 'PATCH', url: `/api/parceiro/vpos/${externalId}`, headers: { 'x-api-key': s.key }, payload: { Status } });
  /** ENCERRADO goes through EM_VIAGEM, as the state machine wants. */
  async function close(s: Shipper, externalId: string): Promise<LightMyRequestResponse> {
    const onTrip = await patch(s, externalId, 'EM_VIAGEM');
    expect(onTrip.statusCode, onTrip.body).toBe(200);
    return patch(s, externalId, 'ENCERRADO');
  }
  const passageBody = (t: RegisteredTag, value: number, at: string, overrides: Record<string, unknown> = {}) => ({
    externalId: `pas-${randomUUID()}`,
    serialNumber: t.serial,
    placeName: 'Praça Jundiaí (SP-348)',
    value,
    occurredAt: at,
    is_third: false,
    ...overrides,
  });
  async function passageWith(body: Record<string, unknown>): Promise<LightMyRequestResponse> {
    const { key } = await operator();
    return app().inject({ method: 'POST', url: '/api/parceiro/passagens', headers: { 'x-api-key': key }, payload: body });
  }
  /** A passage the operator reports; by default a minute ago (inside TRIP()). */
  const passage = (t: RegisteredTag, value: number, at: string = spAt(-minutes(1)), overrides: Record<string, unknown> = {}) =>
    passageWith(passageBody(t, value, at, overrides));
  async function passed(t: RegisteredTag, value: number, at?: string, overrides: Record<string, unknown> = {}): Promise<void> {
    const res = await passage(t, value, at, overrides);
    expect(res.statusCode, res.body).toBe(200);
  }

  const get = (d: Registered, url: string) => app().inject({ method: 'GET', url, headers: bearer(d.token) });
  const saldo = async (d: Registered) => {
    const res = await get(d, '/api/motorista/saldo');
    expect(res.statusCode, res.body).toBe(200);
    return json<{ Saldo: number; SaldoTerceiro: number }>(res);
  };
  /** Every row of the driver's statement, newest first (all pages). */
  async function statement(d: Registered, query = ''): Promise<StatementTransaction[]> {
    const rows: StatementTransaction[] = [];
    for (let page = 1; ; page += 1) {
      const res = await get(d, `/api/extrato/listar?page=${page}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = json<{ Transacoes: StatementTransaction[]; Paginacao: { TotalPaginas: number } }>(res);
      rows.push(...body.Transacoes);
      if (page >= body.Paginacao.TotalPaginas) return rows;
    }
  }
  const accounts = (d: Registered) => balances(db().kysely, d.id);
  const vpoRow = (id: number) =>
    db()
      .kysely.selectFrom('vpos')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
      .then((r) => ({
        ...r,
        held: Number(r.held_cents),
        used: Number(r.used_cents),
        left: Number(r.left_cents),
        refunded: Number(r.refunded_cents),
        short: Number(r.short_cents),
      }));
  const driverVpo = async (d: Registered, id: number) => {
    const res = await get(d, `/api/pedagio/motoristaVpos/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return json<{ VPO: VpoDetails }>(res).VPO;
  };
  const partnerVpo = (s: Pick<Shipper, 'key'> | null, externalId: string) =>
    app().inject({
      method: 'GET',
      url: `/api/parceiro/vpos/${encodeURIComponent(externalId)}`,
      headers: s === null ? {} : { 'x-api-key': s.key },
    });

  return {
    ctx,
    app,
    db,
    shipper,
    operator,
    driver,
    vpoBody,
    issue,
    issued,
    patch,
    close,
    passageBody,
    passageWith,
    passage,
    passed,
    get,
    saldo,
    statement,
    accounts,
    vpoRow,
    driverVpo,
    partnerVpo,
  };
}

/** Saldo's rows of a statement: neither SaldoTerceiro's nor the VPO account's (decision 52). */
export function ownRows(rows: readonly StatementTransaction[]): StatementTransaction[] {
  return rows.filter((r) => !r.is_third && !VPO_ORIGINS.includes(r.origin));
}

/** Sums reais exactly, in centavos. */
export const sumCents = (values: readonly number[]): number => values.reduce((sum, v) => sum + Math.round(v * 100), 0);

/**
 * What must hold of every VPO and account whatever ran (decision 52): balance = sum of entries for
 * every account; for every VPO held = used + left + refunded and nothing below zero; and a driver's
 * VPO account holds exactly what their VPOs have left.
 */
export async function expectVpoInvariants(db: Db): Promise<void> {
  await expectLedgerInvariant(db);
  const vpos = await db.kysely
    .selectFrom('vpos')
    .select(['id', 'driver_id', 'held_cents', 'used_cents', 'left_cents', 'refunded_cents', 'short_cents'])
    .execute();
  const leftByDriver = new Map<number, number>();
  for (const v of vpos) {
    const [held, used, left, refunded, short] = [v.held_cents, v.used_cents, v.left_cents, v.refunded_cents, v.short_cents].map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    expect(held, `VPO ${v.id}: held = used + left + refunded`).toBe(used + left + refunded);
    for (const cents of [used, left, refunded, short]) expect(cents, `VPO ${v.id}`).toBeGreaterThanOrEqual(0);
    leftByDriver.set(v.driver_id, (leftByDriver.get(v.driver_id) ?? 0) + left);
  }
  const accounts = await db.kysely.selectFrom('accounts').select(['driver_id', 'balance_cents']).where('kind', '=', 'vpo').execute();
  for (const a of accounts)
    expect(Number(a.balance_cents), `conta VPO do motorista ${a.driver_id}`).toBe(leftByDriver.get(a.driver_id) ?? 0);
  // Each VPO's own entries: what it received, paid and gave back.
  const moved = await db.kysely
    .selectFrom('ledger_entries')
    .select(['vpo_id', 'origin', sql<string>`sum(amount_cents)`.as('total')])
    .where('vpo_id', 'is not', null)
    .groupBy(['vpo_id', 'origin'])
    .execute();
  const byVpo = new Map<number, Record<string, number>>();
  for (const m of moved) {
    const entry = byVpo.get(m.vpo_id ?? 0) ?? {};
    entry[m.origin] = Number(m.total);
    byVpo.set(m.vpo_id ?? 0, entry);
  }
  for (const v of vpos) {
    const e = byVpo.get(v.id) ?? {};
    const held = Number(v.held_cents);
    expect(e['vpo-recebido'] ?? 0, `VPO ${v.id}: recebido`).toBe(held);
    // A passage given back by an accepted contest (decision 56) is no longer used.
    // So is a free-flow toll it paid (decision 76) once given back.
    const used = ['passagem-vpo', 'estorno-passagem-vpo', 'pedagio-sem-cancela-vpo', 'estorno-pedagio-sem-cancela-vpo'];
    expect(0 - used.reduce((sum, origin) => sum + (e[origin] ?? 0), 0), `VPO ${v.id}: utilizado`).toBe(Number(v.used_cents));
    expect(0 - (e['devolucao-vpo'] ?? 0), `VPO ${v.id}: devolvido`).toBe(Number(v.refunded_cents));
    expect(0 - (e.passagem ?? 0), `VPO ${v.id}: pago do saldo`).toBe(Number(v.short_cents));
  }
}
