import type { AttentionResponse, Contest, StatementTransaction } from '@portal/contract';
import { contestMessages, refundOutOfRange, STATEMENT_ORIGINS } from '@portal/domain';
import { expect, it } from 'vitest';
import { bearer, json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { DAY, expectVpoInvariants, minutes, spAt, useVpoApp } from '../../helpers/vpos.js';
import type { VpoDriver } from '../../helpers/vpos.js';
import { PartnerService } from '../../../src/modules/partners/service.js';
import { TAGGY } from '../../helpers/tags.js';
import { expectLedgerInvariant } from '../../helpers/pix.js';
import { Metrics } from '../../../src/metrics.js';
import { ContestService } from '../../../src/modules/contests/service.js';

/** Issue 24 / decision 56: a wrong toll comes back once, to the account that paid it. */
describeEachDatabase('Contestações de passagens', (dialect) => {
  const t = useVpoApp(dialect);
  const SALDO = 8_410;

  async function passageRow(d: VpoDriver, place: string): Promise<StatementTransaction> {
    const row = (await t.statement(d)).find((r) => r.placeName === place && r.value < 0);
    if (!row) throw new Error(`sem a passagem ${place}`);
    return row;
  }
  const open = (d: VpoDriver, body: Record<string, unknown>) =>
    t.app().inject({ method: 'POST', url: '/api/motorista/contestacoes', headers: bearer(d.token), payload: body });
  async function opened(d: VpoDriver, passagemId: number, motivo = 'CATEGORIA'): Promise<Contest> {
    const res = await open(d, { passagemId, motivo });
    expect(res.statusCode, res.body).toBe(201);
    return json<{ Contestacao: Contest }>(res).Contestacao;
  }
  async function answer(id: number, body: Record<string, unknown>, key?: string) {
    const operatorKey = key ?? (await t.operator()).key;
    return t
      .app()
      .inject({ method: 'POST', url: `/api/parceiro/contestacoes/${id}/resposta`, headers: { 'x-api-key': operatorKey }, payload: body });
  }
  async function operatorList(query = '', key?: string): Promise<Contest[]> {
    const operatorKey = key ?? (await t.operator()).key;
    const res = await t.app().inject({ method: 'GET', url: `/api/parceiro/contestacoes${query}`, headers: { 'x-api-key': operatorKey } });
    expect(res.statusCode, res.body).toBe(200);
    return json<{ Contestacoes: Contest[] }>(res).Contestacoes;
  }
  async function expectBooksBalance(): Promise<void> {
    await expectLedgerInvariant(t.db());
    await expectVpoInvariants(t.db());
    const payments = await t.db().kysely.selectFrom('passage_payments').select(['paid_cents', 'refunded_cents']).execute();
    for (const p of payments) expect(Number(p.refunded_cents)).toBeLessThanOrEqual(Number(p.paid_cents));
  }

  it('a passage paid from Saldo: contested from its row, listed to the operator, accepted in part: the part comes back to Saldo once', async () => {
    const d = await t.driver();
    await t.passed(d.tag, 23.5, spAt(-minutes(20)), { placeName: 'Praça Campo Limpo (SP-330)' });
    const row = await passageRow(d, 'Praça Campo Limpo (SP-330)');
    expect(row.passagem).toMatchObject({ possivelDuplicada: false, contestavel: true, contestacao: null });

    const contest = await opened(d, row.passagem?.id ?? 0);
    expect(contest).toMatchObject({
      estado: 'ABERTA',
      atrasada: false,
      motivo: 'CATEGORIA',
      passagem: { praca: 'Praça Campo Limpo (SP-330)', valor: 23.5 },
    });
    expect(new Date(contest.prazoResposta).getTime() - new Date(contest.abertaEm).getTime()).toBe(7 * DAY);
    expect((await passageRow(d, 'Praça Campo Limpo (SP-330)')).passagem).toMatchObject({
      contestavel: false,
      contestacao: { id: contest.id, estado: 'ABERTA' },
    });

    const listed = await operatorList('?estado=ABERTA');
    expect(listed.map((c) => c.id)).toContain(contest.id);

    const accepted = await answer(contest.id, { decisao: 'ACEITA', valor: 9.6, motivo: 'Categoria corrigida para 2 eixos' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(json<{ Contestacao: Contest }>(accepted).Contestacao).toMatchObject({
      estado: 'ACEITA',
      valorDevolvido: 9.6,
      resposta: 'Categoria corrigida para 2 eixos',
    });
    expect(await t.accounts(d)).toEqual({ own: SALDO - 2_350 + 960, third: 0, vpo: 0 });

    // The same answer again is a retry: the same contest, nothing moves. Another answer is a 409.
    const again = await answer(contest.id, { decisao: 'ACEITA', valor: 9.6, motivo: 'Categoria corrigida para 2 eixos' });
    expect(again.statusCode, again.body).toBe(200);
    const other = await answer(contest.id, { decisao: 'RECUSADA', motivo: 'Mudamos de ideia' });
    expect(other.statusCode, other.body).toBe(409);
    expect(await t.accounts(d)).toEqual({ own: SALDO - 2_350 + 960, third: 0, vpo: 0 });

    const refund = (await t.statement(d)).find((r) => r.origin === STATEMENT_ORIGINS.passageRefund);
    expect(refund).toMatchObject({ value: 9.6, kind: 'passagens', passagem: { contestacao: { id: contest.id, estado: 'ACEITA' } } });
    // What is left (13,90) may still be contested; more than that may not be given back.
    const badReason = await open(d, { passagemId: row.passagem?.id, motivo: 'SEI_LA' });
    expect(badReason.statusCode).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(badReason).errors.motivo).toEqual([contestMessages.reasonInvalid]);
    const reopened = await opened(d, row.passagem?.id ?? 0, 'NAO_PASSOU');
    const tooMuch = await answer(reopened.id, { decisao: 'ACEITA', valor: 14, motivo: 'Tudo' });
    expect(tooMuch.statusCode, tooMuch.body).toBe(422);
    expect(json<{ Mensagem: string }>(tooMuch).Mensagem).toBe(refundOutOfRange(1_390));
    expect((await t.db().kysely.selectFrom('contests').select('state').where('id', '=', reopened.id).executeTakeFirstOrThrow()).state).toBe(
      'ABERTA',
    );
    await expectBooksBalance();
  });

  it('a refused contest moves nothing, and the driver reads the reason; the PDF record is a PDF', async () => {
    const d = await t.driver();
    await t.passed(d.tag, 12, spAt(-minutes(5)), { placeName: 'Praça Refusa' });
    const row = await passageRow(d, 'Praça Refusa');
    const contest = await opened(d, row.passagem?.id ?? 0, 'NAO_PASSOU');
    const refused = await answer(contest.id, { decisao: 'RECUSADA', motivo: 'A câmera registrou a placa do veículo às 10h02' });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(await t.accounts(d)).toEqual({ own: SALDO - 1_200, third: 0, vpo: 0 });
    const list = json<{ Contestacoes: Contest[] }>(await t.get(d, '/api/motorista/contestacoes')).Contestacoes;
    expect(list[0]).toMatchObject({
      id: contest.id,
      estado: 'RECUSADA',
      resposta: 'A câmera registrou a placa do veículo às 10h02',
      valorDevolvido: null,
    });
    const pdf = await t.get(d, `/api/motorista/contestacoes/${contest.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Another driver's contest is the same 404 as none.
    const other = await t.driver();
    expect((await t.get(other, `/api/motorista/contestacoes/${contest.id}/pdf`)).statusCode).toBe(404);
  });

  it('one open contest per passage; "Outro" needs a text; a passage past 90 days or another driver\'s cannot be contested', async () => {
    const d = await t.driver();
    await t.passed(d.tag, 7, spAt(-minutes(3)), { placeName: 'Praça Única' });
    const id = (await passageRow(d, 'Praça Única')).passagem?.id ?? 0;
    const noText = await open(d, { passagemId: id, motivo: 'OUTRO' });
    expect(noText.statusCode).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(noText).errors.descricao).toEqual([contestMessages.textRequired]);
    await opened(d, id, 'DUPLICADA');
    const twice = await open(d, { passagemId: id, motivo: 'DUPLICADA' });
    expect(twice.statusCode).toBe(409);
    expect(json<{ Mensagem: string }>(twice).Mensagem).toBe(contestMessages.alreadyOpen);
    const stranger = await t.driver();
    expect((await open(stranger, { passagemId: id, motivo: 'DUPLICADA' })).statusCode).toBe(404);

    await t.passed(d.tag, 7, spAt(-minutes(2)), { placeName: 'Praça Antiga' });
    const oldId = (await passageRow(d, 'Praça Antiga')).passagem?.id ?? 0;
    await t
      .db()
      .kysely.updateTable('passages')
      .set({ occurred_at: new Date(Date.now() - 91 * DAY).toISOString() })
      .where('id', '=', oldId)
      .execute();
    const late = await open(d, { passagemId: oldId, motivo: 'CATEGORIA' });
    expect(late.statusCode).toBe(422);
    expect(json<{ Mensagem: string }>(late).Mensagem).toBe(contestMessages.windowClosed);
    expect(await t.db().kysely.selectFrom('contests').select('id').where('passage_id', '=', oldId).execute()).toEqual([]);
  });

  it('a passage the VPO paid: accepted while the VPO is open, the value goes back to the VPO; after it closed, on to the shipper', async () => {
    const d = await t.driver();
    const s = await t.shipper('Cargas Contestadas');
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 50 });
    await t.passed(d.tag, 20, spAt(-minutes(30)), { placeName: 'Praça VPO Aberto' });
    await t.passed(d.tag, 10, spAt(-minutes(20)), { placeName: 'Praça VPO Fechado' });
    const first = await opened(d, (await passageRow(d, 'Praça VPO Aberto')).passagem?.id ?? 0, 'CATEGORIA');
    const second = await opened(d, (await passageRow(d, 'Praça VPO Fechado')).passagem?.id ?? 0, 'VPO_E_SALDO');

    expect((await answer(first.id, { decisao: 'ACEITA', valor: 20, motivo: 'Cobrança indevida' })).statusCode).toBe(200);
    expect(await t.vpoRow(vpo.id)).toMatchObject({ used: 1_000, left: 4_000, refunded: 0 });
    expect(await t.accounts(d)).toEqual({ own: SALDO, third: 0, vpo: 4_000 });

    expect((await t.close(s, vpo.externalId)).statusCode).toBe(200);
    expect(await t.vpoRow(vpo.id)).toMatchObject({ used: 1_000, left: 0, refunded: 4_000 });
    expect((await answer(second.id, { decisao: 'ACEITA', valor: 10, motivo: 'Cobrança indevida' })).statusCode).toBe(200);
    expect(await t.vpoRow(vpo.id)).toMatchObject({ used: 0, left: 0, refunded: 5_000 });
    expect(await t.accounts(d)).toEqual({ own: SALDO, third: 0, vpo: 0 });
    const shipperView = json<{ VPO: { Devolvido: number; Utilizado: number } }>(await t.partnerVpo(s, vpo.externalId)).VPO;
    expect(shipperView).toMatchObject({ Devolvido: 50, Utilizado: 0 });
    await expectBooksBalance();
  });

  it('a passage the VPO could not pay whole: the refund goes to Saldo first (the part a right charge would not have taken), then the VPO', async () => {
    const d = await t.driver();
    const s = await t.shipper('Cargas Curtas');
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 10 });
    await t.passed(d.tag, 25, spAt(-minutes(10)), { placeName: 'Praça Dividida' });
    expect(await t.accounts(d)).toEqual({ own: SALDO - 1_500, third: 0, vpo: 0 });
    expect(await t.vpoRow(vpo.id)).toMatchObject({ used: 1_000, short: 1_500 });
    const contest = await opened(d, (await passageRow(d, 'Praça Dividida')).passagem?.id ?? 0, 'CATEGORIA');
    expect((await answer(contest.id, { decisao: 'ACEITA', valor: 20, motivo: 'Era categoria 2' })).statusCode).toBe(200);
    expect(await t.accounts(d)).toEqual({ own: SALDO, third: 0, vpo: 500 });
    // What Saldo paid in the VPO's place stays on record (PagoPeloSaldo): the refund is its own movement.
    expect(await t.vpoRow(vpo.id)).toMatchObject({ used: 500, left: 500, short: 1_500 });
    await expectBooksBalance();
  });

  it('another operator sees none of these contests and cannot answer them (the same 404 as an unknown one)', async () => {
    const d = await t.driver();
    await t.passed(d.tag, 8, spAt(-minutes(4)), { placeName: 'Praça Privada' });
    const contest = await opened(d, (await passageRow(d, 'Praça Privada')).passagem?.id ?? 0);
    const taggy = await new PartnerService(t.db()).create('operator', 'Taggy Contestações', TAGGY);
    expect((await operatorList('', taggy.key)).map((c) => c.id)).not.toContain(contest.id);
    const foreign = await answer(contest.id, { decisao: 'ACEITA', valor: 8, motivo: 'x' }, taggy.key);
    const unknown = await answer(999_999, { decisao: 'ACEITA', valor: 8, motivo: 'x' }, taggy.key);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
    expect(await t.accounts(d)).toEqual({ own: SALDO - 800, third: 0, vpo: 0 });
  });

  it("two answers at once, and an answer racing the VPO's close: the refund lands once", async () => {
    const d = await t.driver();
    await t.passed(d.tag, 30, spAt(-minutes(6)), { placeName: 'Praça Corrida' });
    const contest = await opened(d, (await passageRow(d, 'Praça Corrida')).passagem?.id ?? 0);
    const body = { decisao: 'ACEITA', valor: 30, motivo: 'Devolvido' };
    const answers = await Promise.all([answer(contest.id, body), answer(contest.id, body), answer(contest.id, { ...body, valor: 15 })]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200).length).toBeGreaterThanOrEqual(1);
    const refunds = await t
      .db()
      .kysely.selectFrom('ledger_entries')
      .select('amount_cents')
      .where('reference', '=', `contest:${contest.id}`)
      .execute();
    expect(refunds.length).toBe(1);
    const state = await t.db().kysely.selectFrom('contests').select('refund_cents').where('id', '=', contest.id).executeTakeFirstOrThrow();
    expect(Number(refunds[0]?.amount_cents)).toBe(Number(state.refund_cents));

    const s = await t.shipper('Cargas Corrida');
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 40 });
    await t.passed(d.tag, 40, spAt(-minutes(1)), { placeName: 'Praça Fecha Junto' });
    const racing = await opened(d, (await passageRow(d, 'Praça Fecha Junto')).passagem?.id ?? 0);
    await t.patch(s, vpo.externalId, 'EM_VIAGEM');
    const [answered, closed] = await Promise.all([
      answer(racing.id, { decisao: 'ACEITA', valor: 40, motivo: 'Devolvido' }),
      t.patch(s, vpo.externalId, 'ENCERRADO'),
    ]);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(closed.statusCode, closed.body).toBe(200);
    // Whichever ran first, the 40,00 went back once and ended with the shipper.
    expect(await t.vpoRow(vpo.id)).toMatchObject({ used: 0, left: 0, refunded: 4_000 });
    await expectBooksBalance();
  });

  it('a double charge is caught on arrival: within 10 minutes at the same plaza (the boundary included), not at 11 or at another plaza', async () => {
    const d = await t.driver();
    const base = -minutes(60);
    const now = Date.now();
    await t.passed(d.tag, 5, spAt(base, now), { placeName: 'Praça Dupla' });
    await t.passed(d.tag, 5, spAt(base + minutes(10), now), { placeName: 'Praça Dupla' });
    await t.passed(d.tag, 5, spAt(base + minutes(21), now), { placeName: 'Praça Dupla' });
    await t.passed(d.tag, 5, spAt(base + minutes(1), now), { placeName: 'Praça Outra' });
    const flags = await t
      .db()
      .kysely.selectFrom('passages')
      .select(['place_name', 'duplicate_of'])
      .where('driver_id', '=', d.id)
      .orderBy('id')
      .execute();
    expect(flags.map((f) => [f.place_name, f.duplicate_of !== null])).toEqual([
      ['Praça Dupla', false],
      ['Praça Dupla', true],
      ['Praça Dupla', false],
      ['Praça Outra', false],
    ]);
    const notices = json<AttentionResponse>(await t.get(d, '/api/motorista/avisos')).Avisos.filter((n) => n.tipo === 'cobranca-duplicada');
    expect(notices).toHaveLength(1);
    const notice = notices[0];
    if (notice?.tipo !== 'cobranca-duplicada') throw new Error('sem aviso');
    expect(notice.Mensagem).toMatch(/^Possível cobrança duplicada: Praça Dupla, R\$\s5,00 em /);
    const rows = (await t.statement(d)).filter((r) => r.placeName === 'Praça Dupla');
    expect(rows.filter((r) => r.passagem?.possivelDuplicada)).toHaveLength(1);
    // Contested in one tap, the notice is gone.
    await opened(d, notice.passagemId, 'DUPLICADA');
    const after = json<AttentionResponse>(await t.get(d, '/api/motorista/avisos')).Avisos.filter((n) => n.tipo === 'cobranca-duplicada');
    expect(after).toEqual([]);
  });

  it('a contest past its due date is overdue for the driver and the operator, and counted in the metrics', async () => {
    const d = await t.driver();
    await t.passed(d.tag, 6, spAt(-minutes(7)), { placeName: 'Praça Atrasada' });
    const contest = await opened(d, (await passageRow(d, 'Praça Atrasada')).passagem?.id ?? 0);
    await t
      .db()
      .kysely.updateTable('contests')
      .set({ due_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', contest.id)
      .execute();
    const mine = json<{ Contestacoes: Contest[] }>(await t.get(d, '/api/motorista/contestacoes?estado=ABERTA')).Contestacoes;
    expect(mine.find((c) => c.id === contest.id)).toMatchObject({ atrasada: true });
    expect((await operatorList('?estado=ABERTA')).find((c) => c.id === contest.id)).toMatchObject({ atrasada: true });
    const metrics = new Metrics();
    metrics.countOverdueContestsWith(() => new ContestService(t.db()).countOverdue());
    const overdue = Number(/^contests_overdue (\d+)$/m.exec((await metrics.exposition()).body)?.[1]);
    const stored = await t
      .db()
      .kysely.selectFrom('contests')
      .select('id')
      .where('state', '=', 'ABERTA')
      .where('due_at', '<', new Date().toISOString())
      .execute();
    expect(overdue).toBe(stored.length);
    expect(overdue).toBeGreaterThanOrEqual(1);
  });
});
