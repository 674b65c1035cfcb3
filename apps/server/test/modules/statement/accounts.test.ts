import type { StatementAccountTotal, StatementTransaction } from '@portal/contract';
import { formatDateTime, STATEMENT_ORIGINS, statementAccountName, statementKindOf } from '@portal/domain';
import type { StatementKind } from '@portal/domain';
import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, expect, it } from 'vitest';
import type { CompiledQuery } from 'kysely';
import { toIso } from '../../../src/db/connection.js';
import { readsOn } from '../../../src/db/read-replica.js';
import { exportPlan, exportRows } from '../../../src/modules/statement/export-rows.js';
import { bearer, json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { recordMovements } from '../../helpers/movements.js';
import { capturingQueries } from '../../helpers/queries.js';
import { DAY, hours, minutes, spAt, useVpoApp } from '../../helpers/vpos.js';
import type { VpoDriver } from '../../helpers/vpos.js';

interface Entry {
  id: number;
  at: string;
  cents: number;
  origin: string;
  isThird: boolean;
  /** 'own', 'third' or 'vpo:<id>': the account whose balance the row's 'Saldo após' is. */
  key: string;
}

const money = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const keyOf = (conta: StatementTransaction['conta']) =>
  conta.tipo === 'SALDO' ? 'own' : conta.tipo === 'SALDO_TERCEIRO' ? 'third' : `vpo:${conta.vpoId}`;

/** Issue 33, point 5: each row names whose money it moved, its 'Saldo após' is that account's, and totals are per account. */
describeEachDatabase('extrato: a conta de cada linha, o saldo após e os totais por conta', (dialect) => {
  const t = useVpoApp(dialect);
  let d: VpoDriver;
  let alfa: number;
  let beta: number;

  /** Every entry of the driver, oldest first, with its account: the naive oracle. */
  async function entries(): Promise<Entry[]> {
    const rows = await t
      .db()
      .kysely.selectFrom('ledger_entries as e')
      .innerJoin('accounts as a', 'a.id', 'e.account_id')
      .select(['e.id', 'e.created_at', 'e.amount_cents', 'e.origin', 'e.is_third', 'e.vpo_id', 'a.kind'])
      .where('e.driver_id', '=', d.id)
      .orderBy('e.created_at')
      .orderBy('e.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      at: toIso(r.created_at),
      cents: Number(r.amount_cents),
      origin: r.origin,
      isThird: r.is_third === 1,
      key: r.kind === 'vpo' ? `vpo:${r.vpo_id}` : r.kind,
    }));
  }
  /** Balance of the row's account right after each entry. */
  function runningBalances(all: Entry[]): Map<number, number> {
    const running = new Map<string, number>();
    const after = new Map<number, number>();
    for (const e of all) {
      running.set(e.key, (running.get(e.key) ?? 0) + e.cents);
      after.set(e.id, running.get(e.key) ?? 0);
    }
    return after;
  }
  async function screen(query = ''): Promise<{ rows: StatementTransaction[]; totals: StatementAccountTotal[] }> {
    const rows: StatementTransaction[] = [];
    let totals: StatementAccountTotal[] = [];
    for (let page = 1; ; page += 1) {
      const res = await t.app().inject({ method: 'GET', url: `/api/extrato/listar?page=${page}${query}`, headers: bearer(d.token) });
      expect(res.statusCode, res.body).toBe(200);
      const body = json<{ Transacoes: StatementTransaction[]; Paginacao: { TotalPaginas: number }; Totais: StatementAccountTotal[] }>(res);
      rows.push(...body.Transacoes);
      if (page === 1) totals = body.Totais;
      else expect(body.Totais).toEqual(totals);
      if (page >= body.Paginacao.TotalPaginas) return { rows, totals };
    }
  }

  beforeAll(async () => {
    d = await t.driver();
    const a = await t.shipper('Transportes Alfa');
    const b = await t.shipper('Cargas Beta');
    alfa = (await t.issued(a, d.tag, { ValorTotalVP: 100, origem: 'Campinas (SP)', destino: 'Santos (SP)' })).id;
    // Passages: the first VPO pays, then the second, then Saldo for what they could not.
    await t.passed(d.tag, 30, spAt(-minutes(50)), { placeName: 'Praça Um' });
    beta = (await t.issued(b, d.tag, { ValorTotalVP: 50, origem: 'Curitiba (PR)', destino: 'Joinville (SC)' })).id;
    await t.passed(d.tag, 80, spAt(-minutes(40)), { placeName: 'Praça Dois' });
    await t.passed(d.tag, 45.1, spAt(-minutes(30)), { placeName: 'Praça Três' });
    // Saldo em outras plataformas, and Saldo movements spread over months, days and hours (the counters' buckets).
    await recordMovements(
      t.db(),
      d,
      [
        {
          at: '2026-03-02T08:00:00-03:00',
          cents: 12_000,
          origin: STATEMENT_ORIGINS.thirdPartyCredit,
          place: 'Crédito MoveMais',
          third: true,
        },
        {
          at: '2026-03-02T08:30:00-03:00',
          cents: -4_550,
          origin: STATEMENT_ORIGINS.thirdPartyDebit,
          place: 'Débito MoveMais',
          third: true,
        },
        { at: '2026-04-10T10:00:00-03:00', cents: 50_000, origin: STATEMENT_ORIGINS.pixPurchase, place: 'Compra de saldo via Pix' },
        { at: '2026-04-10T10:20:00-03:00', cents: -1_234, origin: STATEMENT_ORIGINS.passage, place: 'Praça Antiga' },
        { at: '2026-04-11T23:59:00-03:00', cents: -2_000, origin: STATEMENT_ORIGINS.passage, place: 'Praça Noturna' },
      ],
      'contas',
    );
    const { key } = await t.operator();
    expect(key).toBeTruthy();
  });

  it('every row names its account and its running balance is that account\u2019s, on every page, whatever the filter', async () => {
    const all = await entries();
    const after = runningBalances(all);
    const byId = new Map(all.map((e) => [e.id, e]));
    // The three accounts (and both VPOs) are all in the history.
    expect(new Set(all.map((e) => e.key))).toEqual(new Set(['own', 'third', `vpo:${alfa}`, `vpo:${beta}`]));
    for (const query of ['', '&tipo=passagens', '&tipo=vpo', '&tipo=terceiros', '&periodo=intervalo&de=2026-04-10&ate=2026-04-11']) {
      const { rows } = await screen(query);
      expect(rows.length, query).toBeGreaterThan(0);
      for (const row of rows) {
        const e = byId.get(row.transactionId);
        expect(keyOf(row.conta), `${query} ${row.placeName}`).toBe(e?.key);
        expect(row.saldoApos * 100, `${query} ${row.placeName}`).toBeCloseTo(after.get(row.transactionId) ?? NaN, 6);
      }
    }
    const { rows } = await screen();
    const names = new Set(rows.map((r) => statementAccountName(r.conta.tipo, r.conta.embarcador, r.conta.rota)));
    expect(names).toEqual(
      new Set([
        'Saldo',
        'Saldo em outras plataformas',
        'VPO de Transportes Alfa: Campinas (SP) – Santos (SP)',
        'VPO de Cargas Beta: Curitiba (PR) – Joinville (SC)',
      ]),
    );
    // Saldo's last balance is the balance the driver sees; each VPO's is what it has left.
    const saldo = await t.saldo(d);
    expect(rows.find((r) => r.conta.tipo === 'SALDO')?.saldoApos).toBe(saldo.Saldo);
    expect(rows.find((r) => r.conta.tipo === 'SALDO_TERCEIRO')?.saldoApos).toBe(saldo.SaldoTerceiro);
    expect(rows.find((r) => r.conta.vpoId === String(alfa))?.saldoApos).toBe((await t.vpoRow(alfa)).left / 100);
    expect(rows.find((r) => r.conta.vpoId === String(beta))?.saldoApos).toBe((await t.vpoRow(beta)).left / 100);
  });

  it('totals are per account, never summed across, for every filter', async () => {
    const all = await entries();
    const inApril = (e: Entry) => e.at >= '2026-04-10T03:00:00.000Z' && e.at < '2026-04-12T03:00:00.000Z';
    const cases: [string, (e: Entry) => boolean][] = [
      ['', () => true],
      ['&tipo=passagens', (e) => statementKindOf(e.origin, e.isThird) === ('passagens' satisfies StatementKind)],
      ['&tipo=vpo', (e) => statementKindOf(e.origin, e.isThird) === 'vpo'],
      ['&tipo=terceiros', (e) => statementKindOf(e.origin, e.isThird) === 'terceiros'],
      ['&periodo=intervalo&de=2026-04-10&ate=2026-04-11', inApril],
    ];
    for (const [query, keep] of cases) {
      const expected = new Map<string, number>();
      for (const e of all.filter(keep)) expected.set(e.key, (expected.get(e.key) ?? 0) + e.cents);
      const { totals } = await screen(query);
      expect(new Map(totals.map((x) => [keyOf(x.conta), Math.round(x.total * 100)])), query).toEqual(expected);
    }
    const { totals } = await screen();
    expect(totals.map((x) => statementAccountName(x.conta.tipo, x.conta.embarcador, x.conta.rota))).toEqual([
      'Saldo',
      'Saldo em outras plataformas',
      'VPO de Transportes Alfa: Campinas (SP) – Santos (SP)',
      'VPO de Cargas Beta: Curitiba (PR) – Joinville (SC)',
    ]);
  });

  /** The statement's CSV for the screen's filters, its fields by line (the BOM left out). */
  async function csvLines(query = ''): Promise<string[][]> {
    const csv = await t.app().inject({ method: 'GET', url: `/api/extrato/exportar?formato=csv${query}`, headers: bearer(d.token) });
    expect(csv.statusCode, csv.body).toBe(200);
    return csv.rawPayload
      .subarray(3)
      .toString('utf8')
      .split('\r\n')
      .filter((l) => l !== '')
      .map((l) => l.split(';'));
  }

  it('every filter\u2019s CSV gives each row the balance the screen gives it, each VPO\u2019s from before the period', async () => {
    for (const query of ['', '&tipo=passagens', '&tipo=vpo', '&periodo=intervalo&de=2026-03-02&ate=2026-04-11']) {
      const { rows } = await screen(query);
      const body = (await csvLines(query)).slice(1, 1 + rows.length);
      expect(
        body.map((line) => line[5]),
        query,
      ).toEqual([...rows].reverse().map((row) => money(Math.round(row.saldoApos * 100))));
    }
  });

  it('the CSV and the PDF say the same: each row\u2019s account and balance, one total per account', async () => {
    const { rows, totals } = await screen();
    const lines = await csvLines();
    expect(lines[0]).toEqual(['Data', 'Descrição', 'Tipo', 'Conta', 'Valor (R$)', 'Saldo após (R$)', 'Placa', 'Centro de custo']);
    const oldestFirst = [...rows].reverse();
    const body = lines.slice(1, 1 + rows.length);
    body.forEach((line, i) => {
      const row = oldestFirst[i];
      if (!row) throw new Error('linha a mais no CSV');
      expect(line[0]).toBe(formatDateTime(row.created_at));
      expect(line[3]).toBe(statementAccountName(row.conta.tipo, row.conta.embarcador, row.conta.rota));
      expect(line[4]).toBe(money(Math.round(row.value * 100)));
      expect(line[5]).toBe(money(Math.round(row.saldoApos * 100)));
    });
    expect(lines.slice(1 + rows.length)).toEqual(
      totals.map((x) => [
        '',
        'Total do período',
        '',
        statementAccountName(x.conta.tipo, x.conta.embarcador, x.conta.rota),
        money(Math.round(x.total * 100)),
        '',
        '',
        '',
      ]),
    );

    const pdf = await t.app().inject({ method: 'GET', url: '/api/extrato/exportar?formato=pdf', headers: bearer(d.token) });
    expect(pdf.statusCode).toBe(200);
    const doc = await getDocument({ data: new Uint8Array(pdf.rawPayload), verbosity: VerbosityLevel.ERRORS }).promise;
    const texts: string[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      texts.push((await (await doc.getPage(p)).getTextContent()).items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    await doc.destroy();
    const text = texts.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain('Conta Valor Saldo após');
    expect(text).toContain('Totais do período por conta');
    expect(text).not.toContain('Total do período:');
    for (const x of totals) {
      const cents = Math.round(x.total * 100);
      const brl = `${cents < 0 ? '-' : ''}R$ ${Math.floor(Math.abs(cents) / 100).toLocaleString('pt-BR')},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
      expect(text).toContain(`Total do período (${statementAccountName(x.conta.tipo, x.conta.embarcador, x.conta.rota)}): ${brl}`);
    }
    // Each VPO row's balance is its own VPO's, next to its name.
    const alfaRow = oldestFirst.find((r) => r.conta.vpoId === String(alfa));
    expect(text).toContain('VPO de Transportes Alfa: Campinas (SP) – Santos (SP)');
    expect(alfaRow).toBeDefined();
  });

  it('a period begun inside a trip: the VPO’s balance from what it held before, read from its issue on; a VPO issued in the period read for nothing', async () => {
    const e = await t.driver();
    const gama = await t.shipper('Rodovias Gama');
    const now = Date.now();
    const tripStart = spAt(-3 * DAY, now);
    const early = (await t.issued(gama, e.tag, { ValorTotalVP: 200, inicioViagem: tripStart, fimViagem: spAt(2 * DAY, now) })).id;
    await t.passed(e.tag, 20, spAt(-3 * DAY + hours(1), now), { placeName: 'Praça Antes' });
    await t.passed(e.tag, 35, spAt(-hours(1), now), { placeName: 'Praça Durante' });
    const late = (await t.issued(gama, e.tag, { ValorTotalVP: 50, inicioViagem: spAt(-minutes(30), now), fimViagem: spAt(DAY, now) })).id;
    const day = (ms: number) => spAt(ms, now).slice(0, 10);
    const filters = { periodo: 'intervalo', de: day(-DAY), ate: day(0) } as const;

    const csv = await t.app().inject({
      method: 'GET',
      url: `/api/extrato/exportar?formato=csv&periodo=intervalo&de=${filters.de}&ate=${filters.ate}`,
      headers: bearer(e.token),
    });
    expect(csv.statusCode, csv.body).toBe(200);
    const vpoRows = csv.rawPayload
      .subarray(3)
      .toString('utf8')
      .split('\r\n')
      .map((l) => l.split(';'))
      .filter((l) => l[3]?.startsWith('VPO de Rodovias Gama') && l[1] !== 'Total do período')
      .map((l) => [l[4], l[5]]);
    // 200,00 held, 20,00 paid before the period: 180,00 when it opens.
    expect(vpoRows).toEqual([
      ['-35,00', '145,00'],
      ['50,00', '50,00'],
    ]);

    const queries: CompiledQuery[] = [];
    const db = t.db();
    const plan = await exportPlan(db.kysely, e.id, filters, new Date());
    for await (const rows of exportRows(readsOn(capturingQueries(db, queries)), e.id, plan)) expect(rows.length).toBeGreaterThan(0);
    const sums = queries.filter((q) => /from "ledger_entries"/.test(q.sql) && /"vpo_id" in/.test(q.sql));
    expect(sums).toHaveLength(1);
    const [sum] = sums;
    expect(sum?.sql).toMatch(/"created_at" >= (\$\d+|\?) and "created_at" < (\$\d+|\?)/);
    expect(sum?.parameters).toContain(new Date(tripStart).toISOString());
    expect(sum?.parameters).toContain(early);
    expect(sum?.parameters).not.toContain(late);
  });
});
