import type { Contest, DriverContest, StatementTransaction } from '@portal/contract';
import { notificationMessage } from '@portal/domain';
import type { DriverNotification } from '@portal/domain';
import { expect, it } from 'vitest';
import { bearer, json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { expectVpoInvariants, minutes, spAt, useVpoApp } from '../../helpers/vpos.js';
import type { VpoDriver } from '../../helpers/vpos.js';
import { pdfText } from '../../helpers/files.js';

/** Issue 33, point 6: wherever an accepted contest's refund is shown, it says where the money went. */
describeEachDatabase('Contestação aceita: para onde foi o dinheiro', (dialect) => {
  const t = useVpoApp(dialect);

  async function passageId(d: VpoDriver, place: string): Promise<number> {
    const row = (await t.statement(d)).find((r: StatementTransaction) => r.placeName === place && r.value < 0);
    if (!row?.passagem) throw new Error(`sem a passagem ${place}`);
    return row.passagem.id;
  }
  async function contestOf(d: VpoDriver, place: string): Promise<number> {
    const res = await t.app().inject({
      method: 'POST',
      url: '/api/motorista/contestacoes',
      headers: bearer(d.token),
      payload: { passagemId: await passageId(d, place), motivo: 'CATEGORIA' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const opened = json<{ Contestacao: DriverContest }>(res).Contestacao;
    expect(opened.devolucoes).toEqual([]);
    return opened.id;
  }
  async function accept(id: number, valor: number): Promise<Contest> {
    const { key } = await t.operator();
    const res = await t.app().inject({
      method: 'POST',
      url: `/api/parceiro/contestacoes/${id}/resposta`,
      headers: { 'x-api-key': key },
      payload: { decisao: 'ACEITA', valor, motivo: 'Cobrança indevida' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return json<{ Contestacao: Contest }>(res).Contestacao;
  }
  async function driverContest(d: VpoDriver, id: number): Promise<DriverContest> {
    const res = await t.app().inject({ method: 'GET', url: '/api/motorista/contestacoes', headers: bearer(d.token) });
    expect(res.statusCode, res.body).toBe(200);
    const found = json<{ Contestacoes: DriverContest[] }>(res).Contestacoes.find((c) => c.id === id);
    if (!found) throw new Error(`sem a contestação ${id}`);
    return found;
  }
  async function recordText(d: VpoDriver, id: number): Promise<string> {
    const res = await t.app().inject({ method: 'GET', url: `/api/motorista/contestacoes/${id}/pdf`, headers: bearer(d.token) });
    expect(res.statusCode).toBe(200);
    return (await pdfText(res.rawPayload)).pages.join(' ');
  }
  /** The push (and in-app notice) the answer queued, as the driver reads it. */
  async function noticeBody(d: VpoDriver, id: number): Promise<string> {
    const row = await t
      .db()
      .kysely.selectFrom('notification_outbox')
      .select('payload')
      .where('driver_id', '=', d.id)
      .where('dedupe_key', '=', `contestAnswered:${id}`)
      .executeTakeFirstOrThrow();
    // formatBrl writes 'R$' and the value with a no-break space between them.
    return notificationMessage(JSON.parse(row.payload) as DriverNotification).corpo.replace(/\u00a0/g, ' ');
  }

  it('paid by an open VPO: "Devolvido ao VPO de <embarcador>" in the list, the PDF and the notice; Saldo untouched', async () => {
    const d = await t.driver();
    const s = await t.shipper('Transportes Destino');
    await t.issued(s, d.tag, { ValorTotalVP: 100 });
    await t.passed(d.tag, 22.4, spAt(-minutes(30)), { placeName: 'Praça do VPO' });
    const before = await t.accounts(d);
    const id = await contestOf(d, 'Praça do VPO');
    const operatorView = await accept(id, 22.4);
    // The operator is not told where the money went.
    expect(operatorView).not.toHaveProperty('devolucoes');
    expect((await driverContest(d, id)).devolucoes).toEqual([{ destino: 'VPO', embarcador: 'Transportes Destino', valor: 22.4 }]);
    expect(await t.accounts(d)).toEqual({ ...before, vpo: before.vpo + 2_240 });
    const line = 'Devolvido ao VPO de Transportes Destino: R$ 22,40';
    expect(await recordText(d, id)).toContain(line);
    expect(await noticeBody(d, id)).toBe(`Sua contestação foi aceita. ${line}.`);
    await expectVpoInvariants(t.db());
  });

  it('the VPO had closed: "Devolvido ao embarcador <nome>"', async () => {
    const d = await t.driver();
    const s = await t.shipper('Cargas Encerradas');
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 50 });
    await t.passed(d.tag, 10, spAt(-minutes(20)), { placeName: 'Praça Encerrada' });
    const id = await contestOf(d, 'Praça Encerrada');
    expect((await t.close(s, vpo.externalId)).statusCode).toBe(200);
    await accept(id, 10);
    expect((await driverContest(d, id)).devolucoes).toEqual([{ destino: 'EMBARCADOR', embarcador: 'Cargas Encerradas', valor: 10 }]);
    const line = 'Devolvido ao embarcador Cargas Encerradas: R$ 10,00';
    expect(await recordText(d, id)).toContain(line);
    expect(await noticeBody(d, id)).toBe(`Sua contestação foi aceita. ${line}.`);
  });

  it('split between Saldo and the VPO: each part with its value', async () => {
    const d = await t.driver();
    const s = await t.shipper('Transportes X');
    await t.issued(s, d.tag, { ValorTotalVP: 10 });
    await t.passed(d.tag, 22.4, spAt(-minutes(10)), { placeName: 'Praça Dividida' });
    const id = await contestOf(d, 'Praça Dividida');
    await accept(id, 22.4);
    expect((await driverContest(d, id)).devolucoes).toEqual([
      { destino: 'SALDO', embarcador: null, valor: 12.4 },
      { destino: 'VPO', embarcador: 'Transportes X', valor: 10 },
    ]);
    const text = 'Devolvido ao seu saldo: R$ 12,40 · Devolvido ao VPO de Transportes X: R$ 10,00';
    expect(await noticeBody(d, id)).toBe(`Sua contestação foi aceita. ${text}.`);
    const pdf = await recordText(d, id);
    expect(pdf).toContain('Devolvido ao seu saldo: R$ 12,40');
    expect(pdf).toContain('Devolvido ao VPO de Transportes X: R$ 10,00');
  });

  it('paid from Saldo: "Devolvido ao seu saldo"; a refused contest names no destination', async () => {
    const d = await t.driver();
    await t.passed(d.tag, 8, spAt(-minutes(5)), { placeName: 'Praça do Saldo' });
    await t.passed(d.tag, 9, spAt(-minutes(4)), { placeName: 'Praça Recusada' });
    const id = await contestOf(d, 'Praça do Saldo');
    await accept(id, 8);
    expect((await driverContest(d, id)).devolucoes).toEqual([{ destino: 'SALDO', embarcador: null, valor: 8 }]);
    expect(await noticeBody(d, id)).toBe('Sua contestação foi aceita. Devolvido ao seu saldo: R$ 8,00.');
    const refused = await contestOf(d, 'Praça Recusada');
    const { key } = await t.operator();
    const res = await t.app().inject({
      method: 'POST',
      url: `/api/parceiro/contestacoes/${refused}/resposta`,
      headers: { 'x-api-key': key },
      payload: { decisao: 'RECUSADA', motivo: 'Passagem confirmada' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await driverContest(d, refused)).devolucoes).toEqual([]);
    expect(await recordText(d, refused)).not.toContain('Devolvido');
  });
});
