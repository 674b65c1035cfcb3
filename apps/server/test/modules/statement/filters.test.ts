import { messages, PAGE_SIZE, STATEMENT_KINDS, STATEMENT_ORIGINS, statementKindOf } from '@portal/domain';
import type { StatementKind } from '@portal/domain';
import type { StatementFilters, StatementTransaction } from '@portal/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { statementPage } from '../../../src/modules/statement/service.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { recordMovements, type Movement } from '../../helpers/movements.js';
import { FakePixProvider, fund } from '../../helpers/pix.js';

interface Page {
  Sucesso: boolean;
  Mensagem: string;
  Transacoes: StatementTransaction[];
  Paginacao: { TotalPaginas: number };
}

/** The last second of October and the first of November in São Paulo (UTC-3). */
const LAST_OCTOBER_SECOND = '2026-10-31T23:59:59-03:00';
const FIRST_NOVEMBER_SECOND = '2026-11-01T00:00:00-03:00';

/** A history over October and November 2026, of every kind, given out of date order. */
const MOVEMENTS: Movement[] = [
  { at: FIRST_NOVEMBER_SECOND, cents: -200, origin: STATEMENT_ORIGINS.passage, place: 'Praça Novembro' },
  { at: LAST_OCTOBER_SECOND, cents: -100, origin: STATEMENT_ORIGINS.passage, place: 'Praça Outubro' },
  { at: '2026-10-15T10:00:00-03:00', cents: 5000, origin: STATEMENT_ORIGINS.thirdPartyCredit, place: 'Crédito MoveMais', third: true },
  {
    at: '2026-10-02T08:00:00-03:00',
    cents: 20000,
    origin: STATEMENT_ORIGINS.pixPurchase,
    place: 'Compra de saldo via Pix',
    reference: 'chg-outubro',
  },
  { at: '2026-11-05T09:00:00-03:00', cents: -300, origin: STATEMENT_ORIGINS.passage, place: 'Praça Terceiro', third: true },
  { at: '2026-11-10T09:00:00-03:00', cents: -1590, origin: STATEMENT_ORIGINS.tagFee, place: 'Mensalidade da tag' },
  { at: '2026-11-12T09:00:00-03:00', cents: -1000, origin: STATEMENT_ORIGINS.pixWithdrawal, place: 'Saque via Pix', reference: 'wd-1' },
  {
    at: '2026-11-12T09:05:00-03:00',
    cents: 1000,
    origin: STATEMENT_ORIGINS.pixWithdrawalReversal,
    place: 'Devolução de saque via Pix',
    reference: 'wd-1',
  },
  {
    at: '2026-11-13T09:00:00-03:00',
    cents: -500,
    origin: STATEMENT_ORIGINS.pixRefund,
    place: 'Estorno de compra via Pix',
    reference: 'chg-outubro',
  },
  // 25 passages through November: kinds and periods span several pages.
  ...Array.from({ length: 25 }, (_, i) => ({
    at: `2026-11-${String(2 + i).padStart(2, '0')}T12:00:00-03:00`,
    cents: -(1000 + i),
    origin: STATEMENT_ORIGINS.passage,
    place: `Praça ${i + 1}`,
  })),
];

describeEachDatabase('extrato com filtros (issue 12)', (dialect) => {
  const ctx = useTestApp(dialect, {}, { pixProvider: new FakePixProvider() });
  const app = () => ctx().app;
  let driver: Registered;
  let other: Registered;

  const list = async (d: Registered, query: string) => {
    const res = await app().inject({ method: 'GET', url: `/api/extrato/listar?${query}`, headers: bearer(d.token) });
    expect(res.statusCode, res.body).toBe(200);
    return json<Page>(res);
  };
  const allPages = async (d: Registered, query: string) => {
    const first = await list(d, `page=1&${query}`);
    const rows = [...first.Transacoes];
    for (let p = 2; p <= first.Paginacao.TotalPaginas; p++) rows.push(...(await list(d, `page=${p}&${query}`)).Transacoes);
    return { totalPages: first.Paginacao.TotalPaginas, rows };
  };

  const record = (d: Registered, movements: Movement[], prefix: string) => recordMovements(ctx().db, d, movements, prefix);

  beforeAll(async () => {
    driver = await registerDriver(app());
    other = await registerDriver(app());
    await record(driver, MOVEMENTS, 'filtros');
    await record(other, MOVEMENTS.slice(0, 6), 'outro');
  });

  const expectedOrder = (kind?: StatementKind, from?: string, to?: string) =>
    [...MOVEMENTS]
      .filter((m) => kind === undefined || statementKindOf(m.origin, m.third ?? false) === kind)
      .filter(
        (m) => (from === undefined || Date.parse(m.at) >= Date.parse(from)) && (to === undefined || Date.parse(m.at) < Date.parse(to)),
      )
      .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
      .map((m) => m.place);

  it('sem filtros responde como antes: tudo, mais recentes primeiro, 10 por página, com tipo e comprovante', async () => {
    const { totalPages, rows } = await allPages(driver, '');
    expect(totalPages).toBe(Math.ceil(MOVEMENTS.length / PAGE_SIZE));
    expect(rows.map((r) => r.placeName)).toEqual(expectedOrder());
    const byPlace = new Map(rows.map((r) => [r.placeName, r]));
    expect(byPlace.get('Praça Outubro')).toMatchObject({ kind: 'passagens', receipt: null, is_third: false });
    expect(byPlace.get('Praça Terceiro')).toMatchObject({ kind: 'terceiros', receipt: null, is_third: true });
    expect(byPlace.get('Crédito MoveMais')).toMatchObject({ kind: 'terceiros', receipt: null });
    expect(byPlace.get('Mensalidade da tag')).toMatchObject({ kind: 'mensalidades', receipt: null });
    expect(byPlace.get('Compra de saldo via Pix')).toMatchObject({ kind: 'compras', receipt: { tipo: 'compra', id: 'chg-outubro' } });
    expect(byPlace.get('Estorno de compra via Pix')).toMatchObject({ kind: 'compras', receipt: { tipo: 'compra', id: 'chg-outubro' } });
    expect(byPlace.get('Saque via Pix')).toMatchObject({ kind: 'saques', receipt: { tipo: 'saque', id: 'wd-1' } });
    expect(byPlace.get('Devolução de saque via Pix')).toMatchObject({ kind: 'saques', receipt: { tipo: 'saque', id: 'wd-1' } });
    // The same answer as the unfiltered call without any filter parameter, and as periodo=tudo.
    expect((await list(driver, 'page=2')).Transacoes).toEqual((await list(driver, 'page=2&periodo=tudo&tipo=')).Transacoes);
  });

  it('uma compra paga por Pix abre o comprovante da cobrança', async () => {
    const buyer = await registerDriver(app());
    const chargeId = await fund(app(), buyer, 150);
    const page = await list(buyer, 'page=1&tipo=compras');
    expect(page.Transacoes).toHaveLength(1);
    expect(page.Transacoes[0]).toMatchObject({ kind: 'compras', receipt: { tipo: 'compra', id: chargeId }, value: 150 });
  });

  it.each(STATEMENT_KINDS)('tipo=%s: só as movimentações do tipo, na ordem das datas, em todas as páginas', async (kind) => {
    const { totalPages, rows } = await allPages(driver, `tipo=${kind}`);
    const expected = expectedOrder(kind);
    expect(rows.map((r) => r.placeName)).toEqual(expected);
    expect(totalPages).toBe(Math.ceil(expected.length / PAGE_SIZE));
    for (const r of rows) expect(r.kind).toBe(kind);
  });

  it('a meia-noite de São Paulo separa os meses: 23:59:59 de 31/10 em outubro, 00:00:00 de 01/11 em novembro', async () => {
    const october = await allPages(driver, 'periodo=intervalo&de=2026-10-31&ate=2026-10-31');
    expect(october.rows.map((r) => r.placeName)).toEqual(['Praça Outubro']);
    const november = await allPages(driver, 'periodo=intervalo&de=2026-11-01&ate=2026-11-01');
    expect(november.rows.map((r) => r.placeName)).toEqual(['Praça Novembro']);
    const both = await allPages(driver, 'periodo=intervalo&de=2026-10-31&ate=2026-11-01');
    expect(both.rows.map((r) => r.placeName)).toEqual(['Praça Novembro', 'Praça Outubro']);
  });

  it('um intervalo longo pagina o período inteiro; com tipo, só o tipo dentro do período', async () => {
    const nov = await allPages(driver, 'periodo=intervalo&de=2026-11-01&ate=2026-11-30');
    const expected = expectedOrder(undefined, FIRST_NOVEMBER_SECOND, '2026-12-01T00:00:00-03:00');
    expect(nov.rows.map((r) => r.placeName)).toEqual(expected);
    expect(nov.totalPages).toBe(Math.ceil(expected.length / PAGE_SIZE));
    const novPassages = await allPages(driver, 'periodo=intervalo&de=2026-11-01&ate=2026-11-30&tipo=passagens');
    expect(novPassages.rows.map((r) => r.placeName)).toEqual(
      expectedOrder('passagens', FIRST_NOVEMBER_SECOND, '2026-12-01T00:00:00-03:00'),
    );
    const empty = await list(driver, 'page=1&periodo=intervalo&de=2025-01-01&ate=2025-12-31');
    expect(empty).toMatchObject({ Sucesso: true, Transacoes: [], Paginacao: { TotalPaginas: 0 } });
    // A page past the end is empty, never an error.
    expect((await list(driver, 'page=9&periodo=intervalo&de=2026-11-01&ate=2026-11-30')).Transacoes).toEqual([]);
    expect((await list(driver, 'page=9&tipo=saques')).Transacoes).toEqual([]);
  });

  describe('este-mes e mes-passado com o relógio fixado', () => {
    const page = (filters: StatementFilters, now: string, p = 1) => statementPage(ctx().db.kysely, driver.id, p, filters, new Date(now));
    const all = async (filters: StatementFilters, now: string) => {
      const first = await page(filters, now);
      const rows = [...first.transactions];
      for (let p = 2; p <= first.totalPages; p++) rows.push(...(await page(filters, now, p)).transactions);
      return rows.map((r) => r.placeName);
    };

    it('em 15/11, este mês é novembro e o mês passado é outubro', async () => {
      const now = '2026-11-15T12:00:00-03:00';
      expect(await all({ periodo: 'este-mes' }, now)).toEqual(expectedOrder(undefined, FIRST_NOVEMBER_SECOND, '2026-12-01T00:00:00-03:00'));
      expect(await all({ periodo: 'mes-passado' }, now)).toEqual(['Praça Outubro', 'Crédito MoveMais', 'Compra de saldo via Pix']);
      expect(await all({ periodo: 'mes-passado', tipo: 'terceiros' }, now)).toEqual(['Crédito MoveMais']);
    });

    it('às 00:30 de 01/11 em São Paulo (03:30 UTC) já é novembro; às 23:30 de 31/10 (02:30 UTC de 01/11) ainda é outubro', async () => {
      expect(await all({ periodo: 'mes-passado' }, '2026-11-01T00:30:00-03:00')).toEqual([
        'Praça Outubro',
        'Crédito MoveMais',
        'Compra de saldo via Pix',
      ]);
      expect(await all({ periodo: 'este-mes' }, '2026-10-31T23:30:00-03:00')).toEqual([
        'Praça Outubro',
        'Crédito MoveMais',
        'Compra de saldo via Pix',
      ]);
      expect(await all({ periodo: 'mes-passado' }, '2026-12-20T12:00:00-03:00')).toEqual(
        expectedOrder(undefined, FIRST_NOVEMBER_SECOND, '2026-12-01T00:00:00-03:00'),
      );
    });
  });

  it('os filtros só veem as movimentações do próprio motorista', async () => {
    const mine = await allPages(other, 'periodo=intervalo&de=2026-10-01&ate=2026-11-30');
    expect(mine.rows).toHaveLength(6);
    const theirIds = new Set((await allPages(driver, '')).rows.map((r) => r.transactionId));
    for (const r of mine.rows) expect(theirIds.has(r.transactionId)).toBe(false);
  });

  it.each([
    ['periodo=ontem', 'periodo', messages.statement.periodInvalid],
    ['tipo=x', 'tipo', messages.statement.kindInvalid],
    ['periodo=intervalo', 'de', messages.statement.fromRequired],
    ['periodo=intervalo&de=2026-11-01', 'ate', messages.statement.toRequired],
    ['periodo=intervalo&de=2026-11-10&ate=2026-11-09', 'ate', messages.statement.toBeforeFrom],
    ['periodo=intervalo&de=2026-02-30&ate=2026-03-01', 'de', messages.statement.dayInvalid],
    ['periodo=intervalo&de=2025-01-01&ate=2026-01-02', 'ate', messages.statement.rangeTooLong],
  ])('%s -> 422 com a mensagem do campo', async (query, field, message) => {
    const res = await app().inject({ method: 'GET', url: `/api/extrato/listar?page=1&${query}`, headers: bearer(driver.token) });
    expect(res.statusCode, res.body).toBe(422);
    const body = json<{ Sucesso: boolean; errors: Record<string, string[]> }>(res);
    expect(body.Sucesso).toBe(false);
    expect(body.errors[field]).toContain(message);
  });

  it('366 dias é o máximo aceito', async () => {
    expect((await list(driver, 'page=1&periodo=intervalo&de=2026-01-01&ate=2027-01-01')).Sucesso).toBe(true);
  });

  it('sem token -> 401', async () => {
    const res = await app().inject({ method: 'GET', url: '/api/extrato/listar?page=1&tipo=passagens' });
    expect(res.statusCode).toBe(401);
  });
});
