import type { StatementAccountTotal } from '@portal/contract';
import { otherVposTotalLabel, STATEMENT_LISTED_VPO_TOTALS, STATEMENT_ORIGINS } from '@portal/domain';
import { beforeAll, expect, it } from 'vitest';
import { toIso } from '../../../src/db/connection.js';
import { accountId, post } from '../../../src/modules/ledger/ledger.js';
import { bearer, json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { DAY, minutes, spAt, useVpoApp } from '../../helpers/vpos.js';
import type { Shipper, VpoDriver } from '../../helpers/vpos.js';

/** The VPO account's entries of the driver, oldest first: the naive oracle. */
interface VpoEntry {
  vpoId: number;
  at: string;
  id: number;
  cents: number;
}

/**
 * Decision 83: the statement screen names the VPOs that moved last, at most
 * STATEMENT_LISTED_VPO_TOTALS, and the others' net in one line; the exports name every VPO.
 */
describeEachDatabase('extrato: os totais dos VPOs que se movimentaram por último, e os outros numa linha', (dialect) => {
  const t = useVpoApp(dialect);
  const VPOS = STATEMENT_LISTED_VPO_TOTALS + 3;
  let d: VpoDriver;
  let shipper: Shipper;

  async function vpoEntries(driverId: number): Promise<VpoEntry[]> {
    const rows = await t
      .db()
      .kysely.selectFrom('ledger_entries as e')
      .innerJoin('accounts as a', 'a.id', 'e.account_id')
      .select(['e.id', 'e.created_at', 'e.amount_cents', 'e.vpo_id'])
      .where('e.driver_id', '=', driverId)
      .where('a.kind', '=', 'vpo')
      .orderBy('e.created_at')
      .orderBy('e.id')
      .execute();
    return rows.map((r) => ({ vpoId: Number(r.vpo_id), at: toIso(r.created_at), id: r.id, cents: Number(r.amount_cents) }));
  }

  /** Each VPO's net, and the VPOs by their last entry, newest first. */
  function oracle(entries: VpoEntry[]) {
    const net = new Map<number, number>();
    const last = new Map<number, VpoEntry>();
    for (const e of entries) {
      net.set(e.vpoId, (net.get(e.vpoId) ?? 0) + e.cents);
      last.set(e.vpoId, e);
    }
    const byLast = [...last.values()].sort((a, b) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1)).map((e) => e.vpoId);
    return { net, byLast };
  }

  async function totalsOf(driver: VpoDriver, query = ''): Promise<StatementAccountTotal[]> {
    const res = await t.app().inject({ method: 'GET', url: `/api/extrato/listar?page=1${query}`, headers: bearer(driver.token) });
    expect(res.statusCode, res.body).toBe(200);
    return json<{ Totais: StatementAccountTotal[] }>(res).Totais;
  }

  /** The screen's VPO lines against the oracle: the last-moved named with their nets, the rest in one line. */
  function expectLatest(totals: StatementAccountTotal[], entries: VpoEntry[]) {
    const { net, byLast } = oracle(entries);
    const vpoLines = totals.filter((x) => x.conta.tipo === 'VPO');
    const named = vpoLines.filter((x) => !x.outrosVpos);
    const others = vpoLines.filter((x) => x.outrosVpos);
    const expectedNamed = byLast.slice(0, STATEMENT_LISTED_VPO_TOTALS);
    expect(new Set(named.map((x) => Number(x.conta.vpoId)))).toEqual(new Set(expectedNamed));
    for (const line of named) expect(Math.round(line.total * 100)).toBe(net.get(Number(line.conta.vpoId)));
    // Named in the statement's order of accounts (by VPO id), the others' line last.
    expect(named.map((x) => Number(x.conta.vpoId))).toEqual([...expectedNamed].sort((a, b) => a - b));
    expect(vpoLines.at(-1)).toBe(others[0]);
    expect(others).toHaveLength(1);
    expect(others[0]?.conta).toEqual({ tipo: 'VPO', vpoId: null, embarcador: null, rota: null });
    const rest = byLast.slice(STATEMENT_LISTED_VPO_TOTALS).reduce((sum, id) => sum + (net.get(id) ?? 0), 0);
    expect(Math.round((others[0]?.total ?? NaN) * 100)).toBe(rest);
    // Nothing counted twice nor left out: the lines add up to the VPO account's movement.
    const all = entries.reduce((sum, e) => sum + e.cents, 0);
    expect(vpoLines.reduce((sum, x) => sum + Math.round(x.total * 100), 0)).toBe(all);
  }

  beforeAll(async () => {
    d = await t.driver();
    shipper = await t.shipper('Transportes Longa Estrada');
    // Each VPO pays a passage of its own trip; every third one closes, its rest going back to the shipper.
    for (let i = 0; i < VPOS; i += 1) {
      const vpo = await t.issued(shipper, d.tag, { ValorTotalVP: 50 + i, origem: `Cidade ${i} (SP)`, destino: 'Santos (SP)' });
      await t.passed(d.tag, 10 + i, spAt(-minutes(50 - i)), { placeName: `Praça ${i}` });
      if (i % 3 === 0) expect((await t.close(shipper, vpo.externalId)).statusCode).toBe(200);
    }
  });

  it('the screen names the VPOs that moved last and sums the others in one line, on every page and with the VPO kind', async () => {
    const entries = await vpoEntries(d.id);
    expect(new Set(entries.map((e) => e.vpoId)).size).toBe(VPOS);
    const totals = await totalsOf(d);
    expect(totals[0]?.conta.tipo).toBe('SALDO');
    expectLatest(totals, entries);
    expectLatest(await totalsOf(d, '&tipo=vpo'), entries);
    // The totals are the period's, the same on a later page.
    const res = await t.app().inject({ method: 'GET', url: '/api/extrato/listar?page=2', headers: bearer(d.token) });
    expect(json<{ Totais: StatementAccountTotal[] }>(res).Totais).toEqual(totals);
  });

  it('the exports name every VPO, and their totals add up to the screen\u2019s', async () => {
    const csv = await t.app().inject({ method: 'GET', url: '/api/extrato/exportar?formato=csv', headers: bearer(d.token) });
    expect(csv.statusCode, csv.body).toBe(200);
    const text = csv.rawPayload.subarray(3).toString('utf8');
    const totalLines = text.split('\r\n').filter((line) => line.startsWith(';"Total do período"') || line.startsWith(';Total do período'));
    const vpoLines = totalLines.filter((line) => line.includes('VPO de Transportes Longa Estrada'));
    expect(vpoLines).toHaveLength(VPOS);
    const cents = (line: string) =>
      Math.round(Number((line.split(';')[4] ?? '').replace(/"/g, '').replace(/\./g, '').replace(',', '.')) * 100);
    const screen = (await totalsOf(d)).filter((x) => x.conta.tipo === 'VPO');
    expect(vpoLines.reduce((sum, line) => sum + cents(line), 0)).toBe(screen.reduce((sum, x) => sum + Math.round(x.total * 100), 0));
    expect(text).not.toContain(otherVposTotalLabel);
  });

  it('a driver with as many VPOs as the screen names has no others\u2019 line', async () => {
    const few = await t.driver();
    for (let i = 0; i < STATEMENT_LISTED_VPO_TOTALS; i += 1) await t.issued(shipper, few.tag, { ValorTotalVP: 20 });
    const totals = await totalsOf(few);
    expect(totals.filter((x) => x.conta.tipo === 'VPO')).toHaveLength(STATEMENT_LISTED_VPO_TOTALS);
    expect(totals.some((x) => x.outrosVpos)).toBe(false);
  });

  it('a VPO with hundreds of entries in the period still leaves the last-moved named and the others summed', async () => {
    const busy = await t.driver();
    const ids: number[] = [];
    for (let i = 0; i < VPOS; i += 1) ids.push((await t.issued(shipper, busy.tag, { ValorTotalVP: 30 })).id);
    // The newest entries, hundreds of one VPO's: more than the search reads of its origin.
    await t
      .db()
      .kysely.transaction()
      .execute(async (trx) => {
        const vpoAccount = await accountId(trx, busy.id, 'vpo');
        for (let i = 0; i < 250; i += 1) {
          await post(trx, {
            accountId: vpoAccount,
            amountCents: -1,
            origin: STATEMENT_ORIGINS.vpoPassage,
            placeName: `Praça ${i}`,
            idempotencyKey: `busy-${busy.id}-${i}`,
            vpoId: ids[0]!,
          });
        }
      });
    expectLatest(await totalsOf(busy), await vpoEntries(busy.id));
  });

  it('the export opens a VPO that started before the period with what it held then', async () => {
    const trip = await t.driver();
    const now = Date.now();
    await t.issued(shipper, trip.tag, { ValorTotalVP: 80, inicioViagem: spAt(-3 * DAY, now), fimViagem: spAt(2 * DAY, now) });
    const passedAt = spAt(-minutes(1), now);
    await t.passed(trip.tag, 12.5, passedAt, { placeName: 'Praça Hoje' });
    const day = passedAt.slice(0, 10);
    const query = `&periodo=intervalo&de=${day}&ate=${day}`;
    const csv = await t.app().inject({ method: 'GET', url: `/api/extrato/exportar?formato=csv${query}`, headers: bearer(trip.token) });
    expect(csv.statusCode, csv.body).toBe(200);
    const line = csv.rawPayload
      .subarray(3)
      .toString('utf8')
      .split('\r\n')
      .find((l) => l.includes('Praça Hoje'));
    // 80,00 held before the period, 12,50 paid in it.
    expect(line?.split(';')[5]).toBe('67,50');
    const res = await t.app().inject({ method: 'GET', url: `/api/extrato/listar?page=1${query}`, headers: bearer(trip.token) });
    const rows = json<{ Transacoes: { placeName: string; saldoApos: number }[] }>(res).Transacoes;
    expect(rows.find((r) => r.placeName === 'Praça Hoje')?.saldoApos).toBe(67.5);
  });
});
