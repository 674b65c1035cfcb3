import { describeStatementEntry, formatBrl, serverMessages, STATEMENT_PLACE_NAMES } from '@portal/domain';
import type { StatementResponse } from '@portal/contract';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { AsaasPixProvider } from '../../../src/adapters/pix/asaas.js';
import { applyContradiction, listWebhookEvents, reconcilePix } from '../../../src/cli/pix-ops.js';
import { resolveWithdrawal } from '../../../src/cli/withdrawal.js';
import { createLogger } from '../../../src/logger.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { FakeAsaas } from '../../helpers/fake-asaas.js';
import { acceptTerms, createCharge, entriesOf, expectLedgerInvariant, ownBalance, sendWebhook } from '../../helpers/pix.js';

const fake = new FakeAsaas('chave-de-teste');
await fake.start();
afterAll(() => fake.stop());

// The payout's answer times out (700 ms) while Asaas answers after 1.5 s: the transfer exists there.
const asaasEnv = { PIX_PROVIDER: 'asaas', ASAAS_API_URL: fake.url, ASAAS_API_KEY: 'chave-de-teste', ASAAS_TIMEOUT_MS: '700' };
const LATE = { delayMs: 1_500 };
const log = createLogger('silent');

describeEachDatabase('Asaas contradicting a settled withdrawal or charge (decision 60)', (dialect) => {
  const ctx = useTestApp(dialect, asaasEnv);
  const provider = new AsaasPixProvider({ apiUrl: fake.url, apiKey: 'chave-de-teste', timeoutMs: 2_000 });
  beforeEach(() => {
    fake.transfer = { status: 'DONE' };
  });

  async function fundedDriver(reais: number): Promise<Registered> {
    const { app } = ctx();
    const d = await registerDriver(app);
    await acceptTerms(app, d);
    const c = await createCharge(app, d, reais);
    const payId = await paymentIdOf(c.id);
    fake.pay(payId);
    expect((await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', payId))).statusCode).toBe(200);
    return d;
  }

  async function paymentIdOf(chargeId: string): Promise<string> {
    const row = await ctx()
      .db.kysely.selectFrom('pix_charges')
      .select('provider_charge_id')
      .where('id', '=', chargeId)
      .executeTakeFirstOrThrow();
    return row.provider_charge_id;
  }

  async function withdraw(d: Registered, amount: number) {
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount, pix: { type: 'CPF', key: d.cpfCnpj } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = json<{ withdrawalId: string }>(res).withdrawalId;
    return ctx().db.kysely.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  const withdrawal = (id: string) => ctx().db.kysely.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const transferOf = (withdrawalId: string) => [...fake.transfers.values()].find((t) => t.externalReference === withdrawalId);
  const eventsOf = (ref: string) => ctx().db.kysely.selectFrom('webhook_events').selectAll().where('provider_ref', '=', ref).execute();
  const metric = async (line: string) => {
    const text = (await ctx().app.metrics.exposition()).body;
    return Number(
      text
        .split('\n')
        .find((l) => l.startsWith(line))
        ?.slice(line.length)
        .trim() ?? 0,
    );
  };

  async function statementRows(d: Registered) {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/extrato/listar?page=1', headers: bearer(d.token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<StatementResponse>().Transacoes.map((t) => ({
      text: describeStatementEntry(t.origin, t.placeName, t.is_third).text,
      value: t.value,
      kind: t.kind,
      receipt: t.receipt,
    }));
  }

  it('withdrawal:resolve failed asks Asaas first: refused while it holds the transfer PENDING or DONE, allowed when failed or not there', async () => {
    const d = await fundedDriver(300);
    fake.transfer = LATE;
    const w = await withdraw(d, 70);
    expect(w).toMatchObject({ status: 'PROCESSING', provider_transfer_id: null });
    const t = transferOf(w.id);
    expect(t?.status).toBe('PENDING');

    await expect(resolveWithdrawal(ctx().db, log, [w.id, 'failed'], provider)).rejects.toThrow(
      `Saque ${w.id} não marcado como falho: o provedor ainda processa a transferência ${t!.id} (PENDING)`,
    );
    // The lookup is by externalReference: Asaas lists transfers by date, the portal keeps its own.
    expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', path: '/v3/transfers', query: { offset: '0', limit: '100' } });
    fake.settleTransfer(t!.id, 'DONE');
    await expect(resolveWithdrawal(ctx().db, log, [w.id, 'failed'], provider)).rejects.toThrow(
      `o provedor concluiu a transferência ${t!.id} (DONE); use withdrawal:resolve ${w.id} done`,
    );
    expect(await withdrawal(w.id)).toMatchObject({ status: 'PROCESSING' });
    expect(await ownBalance(ctx().app, d)).toBe(230);

    // Failed at Asaas: the money comes back.
    fake.settleTransfer(t!.id, 'FAILED', 'Chave inexistente');
    expect(await resolveWithdrawal(ctx().db, log, [w.id, 'failed'], provider)).toBe(
      `Saque ${w.id} (${formatBrl(7_000)}) marcado como FAILED.`,
    );
    expect(await ownBalance(ctx().app, d)).toBe(300);

    // Never reached Asaas (a 500 before anything was created): nothing there, allowed.
    fake.transfer = { httpStatus: 500 };
    const lost = await withdraw(d, 40);
    expect(lost).toMatchObject({ status: 'PROCESSING', provider_transfer_id: null });
    expect(transferOf(lost.id)).toBeUndefined();
    expect(await resolveWithdrawal(ctx().db, log, [lost.id, 'failed'], provider)).toContain('marcado como FAILED');
    expect(await ownBalance(ctx().app, d)).toBe(300);

    // Asaas out of reach: refused, nothing moves.
    fake.transfer = LATE;
    const unknown = await withdraw(d, 10);
    fake.down = true;
    try {
      await expect(resolveWithdrawal(ctx().db, log, [unknown.id, 'failed'], provider)).rejects.toThrow(
        'não foi possível consultar o provedor',
      );
    } finally {
      fake.down = false;
    }
    expect(await withdrawal(unknown.id)).toMatchObject({ status: 'PROCESSING' });
    await expectLedgerInvariant(ctx().db);
  });

  // Issue 33, point 1, as it was seen: R$ 70,00 given back, then paid by Asaas.
  it('a genuine TRANSFER_DONE after the withdrawal was given back is recorded as a contradiction, listed, and applied once as a debit', async () => {
    const { app, db, config, logs } = ctx();
    const d = await fundedDriver(100);
    fake.transfer = LATE;
    const w = await withdraw(d, 70);
    const t = transferOf(w.id)!;
    // Asaas does not show it yet (not listed): the operator is allowed to give the money back.
    fake.transfers.delete(t.id);
    expect(await resolveWithdrawal(db, log, [w.id, 'failed'], provider)).toContain('marcado como FAILED');
    expect(await ownBalance(app, d)).toBe(100);
    // Then Asaas completes the transfer and sends the genuine event.
    fake.transfers.set(t.id, t);
    fake.settleTransfer(t.id, 'DONE');
    const before = await metric('pix_provider_contradictions_total{kind="withdrawal"}');
    const res = await sendWebhook(app, fake.transferWebhook('TRANSFER_DONE', t.id));
    expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
    expect(await withdrawal(w.id)).toMatchObject({ status: 'FAILED', provider_transfer_id: t.id });
    expect(await ownBalance(app, d)).toBe(100);

    const detail = serverMessages.pix.contradiction.withdrawal(w.id, 'FAILED', 'DONE');
    expect(await eventsOf(t.id)).toEqual([
      expect.objectContaining({
        event: 'TRANSFER_DONE',
        reason_code: 'contradiction',
        reason: `${serverMessages.pix.unapplied.contradiction} (${detail})`,
        status: 'open',
      }),
    ]);
    expect(await metric('pix_provider_contradictions_total{kind="withdrawal"}')).toBe(before + 1);
    expect(await metric('pix_provider_contradictions_open')).toBeGreaterThanOrEqual(1);
    const warned = logs.filter((l) => l.includes('o Asaas contradiz um saque já encerrado') && l.includes(w.id));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('"level":40');
    expect(warned[0]).toContain(t.id);
    expect(logs.filter((l) => l.includes(d.cpfCnpj))).toEqual([]);
    expect(await listWebhookEvents(db)).toContain(`TRANSFER_DONE  ${t.id}  ${serverMessages.pix.unapplied.contradiction} (${detail})`);
    const reconciled = await reconcilePix(config, db, log);
    expect(reconciled).toContain(
      `Saque ${w.id} (${formatBrl(7_000)}): FAILED no portal, DONE no provedor: CONTRADIÇÃO; nada aplicado, aplique com pix:contradiction:apply ${w.id}.`,
    );
    expect(reconciled).toMatch(/[1-9]\d* contradição\(ões\) com o provedor\.$/);

    // Meanwhile the driver withdrew what the balance showed; the operator applies Asaas's word: one debit, below zero.
    fake.transfer = { status: 'DONE' };
    expect((await withdraw(d, 100)).status).toBe('DONE');
    expect(await applyContradiction(config, db, log, [w.id], provider)).toBe(
      `Saque ${w.id} (${formatBrl(7_000)}) agora DONE, como no provedor: ${formatBrl(7_000)} debitado(s) do saldo.`,
    );
    expect(await ownBalance(app, d)).toBe(-70);
    expect(await withdrawal(w.id)).toMatchObject({ status: 'DONE', failure_reason: null });
    expect((await statementRows(d))[0]).toEqual({
      text: 'Saque via Pix concluído pelo banco após a devolução',
      value: -70,
      kind: 'saques',
      receipt: { tipo: 'saque', id: w.id },
    });
    expect(await eventsOf(t.id)).toEqual([expect.objectContaining({ status: 'resolved' })]);

    // Never twice.
    const entries = (await entriesOf(db, d.id)).length;
    expect(await applyContradiction(config, db, log, [w.id], provider)).toBe(
      `Saque ${w.id} (${formatBrl(7_000)}) já está DONE como no provedor; nada mudou.`,
    );
    expect(await entriesOf(db, d.id)).toHaveLength(entries);
    expect(await reconcilePix(config, db, log)).not.toContain(`Saque ${w.id}`);
    expect(await ownBalance(app, d)).toBe(-70);
    await expectLedgerInvariant(db);
  });

  it('with no event at all, pix:reconcile finds the transfer Asaas paid by its externalReference and lists the contradiction', async () => {
    const { app, db, config } = ctx();
    const d = await fundedDriver(100);
    fake.transfer = LATE;
    const w = await withdraw(d, 70);
    const t = transferOf(w.id)!;
    fake.transfers.delete(t.id);
    await resolveWithdrawal(db, log, [w.id, 'failed'], provider);
    fake.transfers.set(t.id, t);
    fake.settleTransfer(t.id, 'DONE');
    // The transfer id never reached the portal: only the list by date, read once, names it.
    fake.calls.length = 0;
    const report = await reconcilePix(config, db, log);
    expect(report).toContain(`Saque ${w.id} (${formatBrl(7_000)}): FAILED no portal, DONE no provedor: CONTRADIÇÃO`);
    expect(fake.calls.filter((c) => c.path === '/v3/transfers')).toHaveLength(Math.ceil(fake.transfers.size / 100));
    expect(await eventsOf(t.id)).toEqual([
      expect.objectContaining({ event: 'pix:reconcile', reason_code: 'contradiction', status: 'open' }),
    ]);
    await reconcilePix(config, db, log);
    expect(await eventsOf(t.id)).toHaveLength(1);
    expect(await applyContradiction(config, db, log, [w.id], provider)).toContain(`${formatBrl(7_000)} debitado(s) do saldo.`);
    expect(await withdrawal(w.id)).toMatchObject({ status: 'DONE', provider_transfer_id: t.id });
    expect(await ownBalance(app, d)).toBe(30);
    await expectLedgerInvariant(db);
  });

  it('a genuine TRANSFER_FAILED on a withdrawal already DONE is recorded; applied, the money comes back once', async () => {
    const { app, db, config } = ctx();
    const d = await fundedDriver(100);
    const w = await withdraw(d, 70);
    expect(w.status).toBe('DONE');
    fake.settleTransfer(w.provider_transfer_id!, 'FAILED', 'Devolvido pelo banco de destino');
    const res = await sendWebhook(app, fake.transferWebhook('TRANSFER_FAILED', w.provider_transfer_id!));
    expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
    expect(await ownBalance(app, d)).toBe(30);
    expect(await eventsOf(w.provider_transfer_id!)).toEqual([
      expect.objectContaining({ event: 'TRANSFER_FAILED', reason_code: 'contradiction', status: 'open' }),
    ]);
    expect(await reconcilePix(config, db, log)).toContain(
      `Saque ${w.id} (${formatBrl(7_000)}): DONE no portal, FAILED no provedor: CONTRADIÇÃO`,
    );

    expect(await applyContradiction(config, db, log, [w.id], provider)).toContain(
      `agora FAILED, como no provedor: ${formatBrl(7_000)} devolvido(s) ao saldo.`,
    );
    expect(await applyContradiction(config, db, log, [w.id], provider)).toContain('já está FAILED como no provedor; nada mudou.');
    expect(await ownBalance(app, d)).toBe(100);
    expect(await withdrawal(w.id)).toMatchObject({ status: 'FAILED', failure_reason: 'Devolvido pelo banco de destino' });
    expect((await statementRows(d))[0]).toEqual({
      text: STATEMENT_PLACE_NAMES.pixWithdrawalReversal,
      value: 70,
      kind: 'saques',
      receipt: { tipo: 'saque', id: w.id },
    });
    await expectLedgerInvariant(db);
  });

  it('the same rule for a payment: paid at Asaas after it was taken back here, or taken back at Asaas with no event', async () => {
    const { app, db, config } = ctx();
    const d = await registerDriver(app);
    const c = await createCharge(app, d, 150);
    const payId = await paymentIdOf(c.id);
    fake.pay(payId);
    await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', payId));
    fake.refund(payId);
    await sendWebhook(app, fake.paymentWebhook('PAYMENT_REFUNDED', payId));
    expect(await ownBalance(app, d)).toBe(0);
    // Asaas reverses the refund: the payment is RECEIVED again, with its genuine event.
    const p = fake.payments.get(payId)!;
    p.status = 'RECEIVED';
    p.refunds = [];
    const res = await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', payId));
    expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
    expect(await ownBalance(app, d)).toBe(0);
    expect(await eventsOf(payId)).toEqual([expect.objectContaining({ reason_code: 'contradiction', status: 'open' })]);
    expect(await metric('pix_provider_contradictions_total{kind="payment"}')).toBeGreaterThanOrEqual(1);
    expect(await listWebhookEvents(db)).toContain(serverMessages.pix.contradiction.charge(c.id, 'REFUNDED', 'RECEIVED'));
    expect(await reconcilePix(config, db, log)).toContain(
      `Cobrança ${c.id} (${formatBrl(15_000)}): REFUNDED no portal, RECEIVED no provedor (${formatBrl(0)} creditado(s) no portal, ${formatBrl(15_000)} pelo provedor): CONTRADIÇÃO`,
    );
    expect(await applyContradiction(config, db, log, [c.id], provider)).toContain(`${formatBrl(15_000)} creditado(s) no saldo.`);
    expect(await applyContradiction(config, db, log, [c.id], provider)).toContain('nada mudou');
    expect(await ownBalance(app, d)).toBe(150);
    expect((await statementRows(d))[0]).toEqual({
      text: 'Compra via Pix confirmada pelo banco após o estorno',
      value: 150,
      kind: 'compras',
      receipt: { tipo: 'compra', id: c.id },
    });

    // A refund at Asaas whose event never came: only pix:reconcile's comparison sees it.
    fake.refund(payId);
    const report = await reconcilePix(config, db, log);
    expect(report).toContain(`Cobrança ${c.id} (${formatBrl(15_000)}): RECEIVED no portal, REFUNDED no provedor`);
    expect(await applyContradiction(config, db, log, [c.id], provider)).toContain(`${formatBrl(15_000)} debitado(s) do saldo.`);
    expect(await ownBalance(app, d)).toBe(0);
    expect(await reconcilePix(config, db, log)).not.toContain(`Cobrança ${c.id}`);
    await expectLedgerInvariant(db);
  });

  it('the command refuses what it cannot apply: unknown id, a withdrawal still processing, a transfer Asaas still moves', async () => {
    const { db, config } = ctx();
    await expect(applyContradiction(config, db, log, [], provider)).rejects.toThrow('Uso: pix:contradiction:apply');
    await expect(applyContradiction(config, db, log, ['nao-existe'], provider)).rejects.toThrow(
      'Saque ou cobrança não encontrado: nao-existe',
    );
    const d = await fundedDriver(100);
    fake.transfer = { status: 'PENDING' };
    const w = await withdraw(d, 20);
    await expect(applyContradiction(config, db, log, [w.id], provider)).rejects.toThrow('ainda está em processamento');
    // Settled here, blocked at Asaas: its end is not known yet, nothing is applied.
    await sendWebhook(ctx().app, fake.transferWebhook('TRANSFER_DONE', fake.settleTransfer(w.provider_transfer_id!, 'DONE').id));
    fake.settleTransfer(w.provider_transfer_id!, 'BLOCKED');
    await expect(applyContradiction(config, db, log, [w.id], provider)).rejects.toThrow(
      `o provedor ainda processa a transferência ${w.provider_transfer_id} (BLOCKED); nada aplicado.`,
    );
    expect(await ownBalance(ctx().app, d)).toBe(80);
    await expectLedgerInvariant(db);
  });
});
