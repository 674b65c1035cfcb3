import type { AttentionResponse, StatementTransaction } from '@portal/contract';
import { messages, serverMessages, STATEMENT_ORIGINS } from '@portal/domain';
import { expect, it } from 'vitest';
import { bearer, json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { DAY, expectVpoInvariants, hours, minutes, ownRows, spAt, sumCents, useVpoApp } from '../../helpers/vpos.js';
import type { VpoDriver } from '../../helpers/vpos.js';

/** Issue 23 / decision 52: a VPO's money is the shipper's for the trip, held apart from Saldo, and pays the trip's passages first. */
describeEachDatabase('VPO: o dinheiro da viagem', (dialect) => {
  const t = useVpoApp(dialect);
  const SALDO_AFTER_ACTIVATION = 8_410;

  /** Saldo, as the driver reads it, is the sum of Saldo's own rows of the statement. */
  async function expectSaldoIsItsRows(d: VpoDriver): Promise<void> {
    const rows = await t.statement(d);
    expect(sumCents(ownRows(rows).map((r) => r.value))).toBe(Math.round((await t.saldo(d)).Saldo * 100));
  }
  const entriesOf = (vpoId: number) =>
    t
      .db()
      .kysely.selectFrom('ledger_entries')
      .select(['origin', 'amount_cents'])
      .where('vpo_id', '=', vpoId)
      .orderBy('id')
      .execute()
      .then((rows) => rows.map((r) => [r.origin, Number(r.amount_cents)]));
  const notices = async (d: VpoDriver) => json<AttentionResponse>(await t.get(d, '/api/motorista/avisos')).Avisos;

  it('issuing R$ 123,45 puts it in the VPO account, never in Saldo: the balance is unchanged and a withdrawal cannot take it', async () => {
    const d = await t.driver();
    const s = await t.shipper('Cargas Serra Azul Ltda');
    const before = await t.saldo(d);
    expect(before).toMatchObject({ Saldo: 84.1, SaldoTerceiro: 0 });
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 123.45 });

    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION, third: 0, vpo: 12_345 });
    expect(await t.saldo(d)).toMatchObject({ Saldo: 84.1, SaldoTerceiro: 0 });
    expect(await t.vpoRow(vpo.id)).toMatchObject({ held: 12_345, left: 12_345, used: 0, refunded: 0, short: 0 });
    const row = (await t.statement(d)).find((r) => r.origin === STATEMENT_ORIGINS.vpoIssued);
    expect(row).toMatchObject({
      origin: STATEMENT_ORIGINS.vpoIssued,
      value: 123.45,
      kind: 'vpo',
      is_third: false,
      user_transaction: false,
      vpo: { IdTransacao: String(vpo.id), Embarcador: 'Cargas Serra Azul Ltda', pagoPor: 'VPO' },
    });
    await expectSaldoIsItsRows(d);

    // Saldo is all a withdrawal sees: one centavo more is refused, all of it passes, the VPO's money stays.
    const withdraw = (amount: number) =>
      t.app().inject({
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: bearer(d.token),
        payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount, pix: { type: 'CPF', key: d.cpfCnpj } },
      });
    const tooMuch = await withdraw(84.11);
    expect(tooMuch.statusCode, tooMuch.body).toBe(422);
    expect(json(tooMuch)).toMatchObject({ errors: { amount: [messages.withdrawal.amountAboveBalance] } });
    const all = await withdraw(84.1);
    expect(all.statusCode, all.body).toBe(200);
    expect(await t.accounts(d)).toEqual({ own: 0, third: 0, vpo: 12_345 });
    expect(await t.saldo(d)).toMatchObject({ Saldo: 0 });
    await expectVpoInvariants(t.db());
  });

  it('a passage inside the trip is paid by the VPO: Saldo untouched, the row says pagoPor VPO, Saldo is still the sum of its rows', async () => {
    const d = await t.driver();
    const s = await t.shipper('Transportes Rio Claro');
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 123.45 });
    await t.passed(d.tag, 12.3, spAt(-minutes(30)), { placeName: 'Praça Itupeva (SP-348)' });

    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION, third: 0, vpo: 12_345 - 1_230 });
    expect(await t.saldo(d)).toMatchObject({ Saldo: 84.1 });
    expect(await t.vpoRow(vpo.id)).toMatchObject({ held: 12_345, used: 1_230, left: 11_115, short: 0 });
    // In the statement's date order (newest first): the passage, 30 minutes ago, after the VPO's money,
    // dated at its trip's start two hours ago (decision 52): no passage is dated before what paid it.
    const rows = await t.statement(d);
    const place = (origin: string) => rows.findIndex((r) => r.origin === origin);
    expect(place(STATEMENT_ORIGINS.vpoPassage)).toBeLessThan(place(STATEMENT_ORIGINS.vpoIssued));
    expect(rows.find((r) => r.origin === STATEMENT_ORIGINS.vpoPassage)).toMatchObject({
      placeName: 'Praça Itupeva (SP-348)',
      origin: STATEMENT_ORIGINS.vpoPassage,
      value: -12.3,
      kind: 'vpo',
      vpo: { IdTransacao: String(vpo.id), Embarcador: 'Transportes Rio Claro', pagoPor: 'VPO' },
    });
    await expectSaldoIsItsRows(d);
    const details = await t.driverVpo(d, vpo.id);
    expect(details).toMatchObject({ Utilizado: 12.3, Restante: 111.15, Devolvido: 0, PagoPeloSaldo: 0 });
    expect(details.Passagens).toEqual([
      {
        placeName: 'Praça Itupeva (SP-348)',
        occurredAt: expect.any(String),
        value: 12.3,
        pagoPor: 'VPO',
        // Decision 56: the driver may contest it from here.
        passagem: { id: expect.any(Number), possivelDuplicada: false, contestavel: true, contestacao: null },
      },
    ]);
    await expectVpoInvariants(t.db());
  });

  it('two open VPOs: the oldest pays first, the next one only what the oldest could not', async () => {
    const d = await t.driver();
    const s = await t.shipper();
    const oldest = await t.issued(s, d.tag, { ValorTotalVP: 10 });
    const newer = await t.issued(s, d.tag, { ValorTotalVP: 20 });
    await t.passed(d.tag, 15);
    expect(await t.vpoRow(oldest.id)).toMatchObject({ used: 1_000, left: 0, short: 0 });
    expect(await t.vpoRow(newer.id)).toMatchObject({ used: 500, left: 1_500, short: 0 });
    await t.passed(d.tag, 4);
    expect(await t.vpoRow(oldest.id)).toMatchObject({ used: 1_000, left: 0 });
    expect(await t.vpoRow(newer.id)).toMatchObject({ used: 900, left: 1_100 });
    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION, third: 0, vpo: 1_100 });
    const paid = (await t.statement(d)).filter((r) => r.origin === STATEMENT_ORIGINS.vpoPassage);
    expect(paid.map((r) => [r.value, r.vpo?.IdTransacao])).toEqual([
      [-4, String(newer.id)],
      [-5, String(newer.id)],
      [-10, String(oldest.id)],
    ]);
    await expectVpoInvariants(t.db());
  });

  it('a passage larger than what is left: the VPO goes to zero, the rest from Saldo marked SALDO, and the dashboard says so', async () => {
    const d = await t.driver();
    const s = await t.shipper('Transportadora Boa Viagem');
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 10 });
    await t.passed(d.tag, 16.55, spAt(-minutes(10)), { placeName: 'Praça Campo Limpo' });

    expect(await t.vpoRow(vpo.id)).toMatchObject({ held: 1_000, used: 1_000, left: 0, short: 655 });
    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION - 655, third: 0, vpo: 0 });
    const rows = await t.statement(d);
    const fromVpo = rows.find((r) => r.origin === STATEMENT_ORIGINS.vpoPassage);
    const fromSaldo = rows.find((r) => r.origin === STATEMENT_ORIGINS.passage);
    expect(fromVpo).toMatchObject({
      origin: STATEMENT_ORIGINS.vpoPassage,
      value: -10,
      vpo: { pagoPor: 'VPO', IdTransacao: String(vpo.id) },
    });
    expect(fromSaldo).toMatchObject({
      origin: STATEMENT_ORIGINS.passage,
      value: -6.55,
      kind: 'passagens',
      vpo: { IdTransacao: String(vpo.id), Embarcador: 'Transportadora Boa Viagem', pagoPor: 'SALDO' },
    });
    await expectSaldoIsItsRows(d);
    const notice = {
      tipo: 'vpo-insuficiente',
      Mensagem: 'VPO de Transportadora Boa Viagem insuficiente: R$\u00a06,55 pagos do seu saldo',
      vpoId: String(vpo.id),
      embarcador: 'Transportadora Boa Viagem',
      pagoPeloSaldo: 6.55,
    };
    expect(await notices(d)).toContainEqual(notice);

    // Once empty, the VPO still covers the trip: the next passage is all Saldo's, counted as its shortfall.
    await t.passed(d.tag, 3);
    expect(await t.vpoRow(vpo.id)).toMatchObject({ used: 1_000, left: 0, short: 955 });
    expect(await notices(d)).toContainEqual({
      ...notice,
      Mensagem: serverMessages.attention.shortVpo('Transportadora Boa Viagem', 'R$\u00a09,55'),
      pagoPeloSaldo: 9.55,
    });
    expect((await t.driverVpo(d, vpo.id)).Passagens.map((p) => [p.value, p.pagoPor])).toEqual([
      [10, 'VPO'],
      [6.55, 'SALDO'],
      [3, 'SALDO'],
    ]);
    await expectVpoInvariants(t.db());
  });

  it('Saldo pays a passage outside the window, after the VPO is closed or cancelled, and every third-party passage', async () => {
    const d = await t.driver();
    const s = await t.shipper();
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 100, inicioViagem: spAt(-hours(2)), fimViagem: spAt(minutes(30)) });
    const vpoMoved = async () => (await t.vpoRow(vpo.id)).used;

    await t.passed(d.tag, 1, spAt(-hours(3)), { placeName: 'Antes da viagem' });
    await t.passed(d.tag, 2, spAt(hours(1)), { placeName: 'Depois da viagem' });
    await t.passed(d.tag, 4, spAt(-minutes(5)), { placeName: 'Terceiro', is_third: true });
    expect(await vpoMoved()).toBe(0);
    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION - 300, third: -400, vpo: 10_000 });
    const rows = await t.statement(d);
    const byPlace = (place: string) => rows.find((r) => r.placeName === place) as StatementTransaction;
    for (const place of ['Antes da viagem', 'Depois da viagem']) {
      expect(byPlace(place)).toMatchObject({ origin: STATEMENT_ORIGINS.passage, kind: 'passagens', vpo: null });
    }
    expect(byPlace('Terceiro')).toMatchObject({ origin: STATEMENT_ORIGINS.passage, is_third: true, kind: 'terceiros', vpo: null });

    // Closed: its window no longer counts, and so is a cancelled one.
    expect((await t.close(s, vpo.externalId)).statusCode).toBe(200);
    const cancelled = await t.issued(s, d.tag, { ValorTotalVP: 30 });
    expect((await t.patch(s, cancelled.externalId, 'CANCELADO')).statusCode).toBe(200);
    await t.passed(d.tag, 5, spAt(-minutes(1)), { placeName: 'Depois do fim' });
    expect(await vpoMoved()).toBe(0);
    expect((await t.vpoRow(cancelled.id)).used).toBe(0);
    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION - 800, third: -400, vpo: 0 });
    expect((await t.statement(d)).find((r) => r.placeName === 'Depois do fim')).toMatchObject({
      origin: STATEMENT_ORIGINS.passage,
      vpo: null,
    });
    await expectSaldoIsItsRows(d);
    await expectVpoInvariants(t.db());
  });

  it('closing (ENCERRADO) and cancelling (CANCELADO) give back what is left, once; the same status again moves nothing', async () => {
    const d = await t.driver();
    const s = await t.shipper('Embarcadora Devolução');
    const closed = await t.issued(s, d.tag, { ValorTotalVP: 50 });
    const cancelled = await t.issued(s, d.tag, { ValorTotalVP: 40 });
    await t.passed(d.tag, 20);

    const res = await t.close(s, closed.externalId);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ duplicate: false, Mensagem: serverMessages.partner.vpoUpdated });
    expect(await t.vpoRow(closed.id)).toMatchObject({ status: 'ENCERRADO', held: 5_000, used: 2_000, left: 0, refunded: 3_000 });
    expect((await t.vpoRow(closed.id)).closed_at).not.toBeNull();
    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION, third: 0, vpo: 4_000 });
    expect(await entriesOf(closed.id)).toEqual([
      [STATEMENT_ORIGINS.vpoIssued, 5_000],
      [STATEMENT_ORIGINS.vpoPassage, -2_000],
      [STATEMENT_ORIGINS.vpoRefund, -3_000],
    ]);
    const [refundRow] = await t.statement(d);
    expect(refundRow).toMatchObject({
      origin: STATEMENT_ORIGINS.vpoRefund,
      value: -30,
      kind: 'vpo',
      vpo: { IdTransacao: String(closed.id), Embarcador: 'Embarcadora Devolução', pagoPor: 'VPO' },
    });

    expect((await t.patch(s, cancelled.externalId, 'CANCELADO')).statusCode).toBe(200);
    expect(await t.vpoRow(cancelled.id)).toMatchObject({ status: 'CANCELADO', held: 4_000, used: 0, left: 0, refunded: 4_000 });
    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION, third: 0, vpo: 0 });

    const entries = await t.db().kysely.selectFrom('ledger_entries').select('id').where('driver_id', '=', d.id).execute();
    for (const [externalId, Status] of [
      [closed.externalId, 'ENCERRADO'],
      [cancelled.externalId, 'CANCELADO'],
    ] as const) {
      const again = await t.patch(s, externalId, Status);
      expect(again.statusCode, again.body).toBe(200);
      expect(json(again)).toMatchObject({ duplicate: true, Mensagem: serverMessages.partner.vpoStatusUnchanged });
    }
    expect(await t.db().kysely.selectFrom('ledger_entries').select('id').where('driver_id', '=', d.id).execute()).toEqual(entries);
    expect(await t.vpoRow(closed.id)).toMatchObject({ refunded: 3_000, left: 0 });
    expect(await t.vpoRow(cancelled.id)).toMatchObject({ refunded: 4_000, left: 0 });
    await expectSaldoIsItsRows(d);
    await expectVpoInvariants(t.db());
  });

  it('10 passages at once never take a VPO below zero: every centavo is paid once, by the VPO or by Saldo', async () => {
    const d = await t.driver();
    const s = await t.shipper();
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 50 });
    const bodies = Array.from({ length: 10 }, (_, i) => t.passageBody(d.tag, 7, spAt(-minutes(20 - i))));
    const answers = await Promise.all(bodies.map((b) => t.passageWith(b)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);

    expect(await t.vpoRow(vpo.id)).toMatchObject({ held: 5_000, used: 5_000, left: 0, short: 2_000 });
    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION - 2_000, third: 0, vpo: 0 });
    // Each passage is 7,00 in all, whoever paid which part.
    const { id: operatorId } = await t.operator();
    for (const b of bodies) {
      const parts = await t
        .db()
        .kysely.selectFrom('ledger_entries')
        .select('amount_cents')
        .where('idempotency_key', 'like', `partner:${operatorId}:passage:${b.externalId}%`)
        .execute();
      expect(sumCents(parts.map((p) => Number(p.amount_cents) / 100)), b.externalId).toBe(-700);
    }
    await expectSaldoIsItsRows(d);
    await expectVpoInvariants(t.db());
  });

  it('a close racing passages: used + left + refunded = held, and nothing is counted twice', async () => {
    const d = await t.driver();
    const s = await t.shipper();
    for (let round = 0; round < 3; round += 1) {
      const vpo = await t.issued(s, d.tag, { ValorTotalVP: 50 });
      expect((await t.patch(s, vpo.externalId, 'EM_VIAGEM')).statusCode).toBe(200);
      const before = await t.accounts(d);
      const passages = Array.from({ length: 6 }, (_, i) => t.passage(d.tag, 5, spAt(-minutes(10 + i))));
      const [closed, ...paid] = await Promise.all([t.patch(s, vpo.externalId, 'ENCERRADO'), ...passages]);
      expect(closed.statusCode, closed.body).toBe(200);
      for (const p of paid) expect(p.statusCode, p.body).toBe(200);

      const row = await t.vpoRow(vpo.id);
      expect(row.status).toBe('ENCERRADO');
      expect(row.used + row.left + row.refunded).toBe(5_000);
      expect(row.left).toBe(0);
      expect(row.short).toBe(0);
      // What the VPO did not pay of the 30,00, Saldo did; what it did not pay went back to the shipper.
      expect(await t.accounts(d)).toEqual({ own: before.own - (3_000 - row.used), third: 0, vpo: 0 });
      expect(await entriesOf(vpo.id)).toEqual(
        expect.arrayContaining([
          [STATEMENT_ORIGINS.vpoIssued, 5_000],
          [STATEMENT_ORIGINS.vpoRefund, -row.refunded],
        ]),
      );
    }
    await expectSaldoIsItsRows(d);
    await expectVpoInvariants(t.db());
  });

  it('idempotent: the same passage externalId twice moves money once; the same VPO externalId twice credits once', async () => {
    const d = await t.driver();
    const s = await t.shipper();
    const body = t.vpoBody(d.tag, { ValorTotalVP: 60, inicioViagem: spAt(-hours(1)), fimViagem: spAt(DAY) });
    const first = await t.issue(s, body);
    expect(first.statusCode, first.body).toBe(201);
    const again = await t.issue(s, body);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const twins = await Promise.all([1, 2, 3].map(() => t.issue(s, body)));
    for (const twin of twins) expect(twin.body).toBe(first.body);
    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION, third: 0, vpo: 6_000 });

    const passage = t.passageBody(d.tag, 8, spAt(-minutes(3)));
    const paid = await t.passageWith(passage);
    expect(paid.statusCode, paid.body).toBe(200);
    const replays = await Promise.all([1, 2, 3].map(() => t.passageWith(passage)));
    for (const r of [...replays, await t.passageWith(passage)]) expect(r.body).toBe(paid.body);
    const concurrent = t.passageBody(d.tag, 70, spAt(-minutes(2)));
    const all = await Promise.all([1, 2, 3, 4].map(() => t.passageWith(concurrent)));
    expect(new Set(all.map((r) => r.body)).size).toBe(1);

    const vpoId = Number(json<{ id: string }>(first).id);
    expect(await t.vpoRow(vpoId)).toMatchObject({ used: 6_000, left: 0, short: 1_800 });
    expect(await t.accounts(d)).toEqual({ own: SALDO_AFTER_ACTIVATION - 1_800, third: 0, vpo: 0 });
    expect(await entriesOf(vpoId)).toEqual([
      [STATEMENT_ORIGINS.vpoIssued, 6_000],
      [STATEMENT_ORIGINS.vpoPassage, -800],
      [STATEMENT_ORIGINS.vpoPassage, -5_200],
      [STATEMENT_ORIGINS.passage, -1_800],
    ]);
    await expectVpoInvariants(t.db());
  });

  it("the CSV export keeps each account's balance after its rows: the VPO's rows the VPO account's, Saldo's rows Saldo's", async () => {
    const d = await t.driver();
    const s = await t.shipper('Embarcador Exportação');
    await t.issued(s, d.tag, { ValorTotalVP: 50 });
    // Reported as they happen on the road, after the issue.
    await t.passed(d.tag, 12, spAt(minutes(1)), { placeName: 'Praça Um' });
    await t.passed(d.tag, 45, spAt(minutes(2)), { placeName: 'Praça Dois' });
    const res = await t.get(d, '/api/extrato/exportar?formato=csv&periodo=tudo');
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.rawPayload.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
    const rows = lines.slice(1).map((line) => line.split(';'));
    // The VPO's money is dated at its trip's start (two hours ago, decision 52): before the fee paid just now.
    // Issue 33: each row names its account; then one total line per account, never one sum.
    const vpo = 'VPO de Embarcador Exportação: Campinas (SP) – Santos (SP)';
    expect(rows.map((r) => r.slice(1, 6))).toEqual([
      ['VPO recebido: Embarcador Exportação', 'VPO', vpo, '50,00', '50,00'],
      ['Compra de saldo via Pix', 'Compras de saldo', 'Saldo', '100,00', '100,00'],
      [expect.stringContaining('Mensalidade da tag'), 'Mensalidades', 'Saldo', '-15,90', '84,10'],
      ['Passagem por: Praça Um (paga pelo VPO)', 'VPO', vpo, '-12,00', '38,00'],
      ['Passagem por: Praça Dois (paga pelo VPO)', 'VPO', vpo, '-38,00', '0,00'],
      ['Passagem por: Praça Dois', 'Passagens', 'Saldo', '-7,00', '77,10'],
      ['Total do período', '', 'Saldo', '77,10', ''],
      ['Total do período', '', vpo, '0,00', ''],
    ]);
    // Decision 79: the truck's rows name its plate (the VPO's money is its trip's); a purchase none.
    const plate = d.tag.plate;
    expect(rows.map((r) => r[6])).toEqual([plate, '', plate, plate, plate, plate, '', '']);
    const vpoOnly = await t.get(d, '/api/extrato/exportar?formato=csv&periodo=tudo&tipo=vpo');
    expect(vpoOnly.statusCode).toBe(200);
    expect(vpoOnly.rawPayload.toString('utf8').split('\r\n').filter(Boolean)).toHaveLength(1 + 3 + 1);
  });
});
