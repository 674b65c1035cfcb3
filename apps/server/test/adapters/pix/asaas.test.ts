import { createServer } from 'node:net';
import { formatBrl, serverMessages } from '@portal/domain';
import { hasError, parsePix } from 'pix-utils';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AsaasPixProvider, saoPauloDate } from '../../../src/adapters/pix/asaas.js';
import { AsaasRequestError } from '../../../src/adapters/pix/asaas-client.js';
import { PayoutRejected, PixProviderUnavailable } from '../../../src/adapters/pix/port.js';
import type { PayoutRequest } from '../../../src/adapters/pix/port.js';
import { listWebhookEvents, reconcilePix } from '../../../src/cli/pix-ops.js';
import { createLogger } from '../../../src/logger.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { FakeAsaas } from '../../helpers/fake-asaas.js';
import { acceptTerms, createCharge, entriesOf, expectLedgerInvariant, ownBalance, sendWebhook } from '../../helpers/pix.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const fake = new FakeAsaas('chave-de-teste');
await fake.start();
afterAll(() => fake.stop());

const payout = (over: Partial<PayoutRequest> = {}): PayoutRequest => ({
  withdrawalId: 'wd_0123',
  amountCents: 4_000,
  key: '52998224725',
  keyType: 'CPF',
  description: 'Saque',
  ...over,
});

describe('adaptador Asaas contra um Asaas falso', () => {
  const provider = new AsaasPixProvider({ apiUrl: fake.url, apiKey: 'chave-de-teste', timeoutMs: 300 });
  beforeEach(() => {
    fake.calls.length = 0;
    fake.transfer = { status: 'DONE' };
  });

  it('finds or creates the customer by cpfCnpj, creates the PIX payment and reads its QR code', async () => {
    const expiresAt = new Date('2026-03-01T02:30:00Z'); // still 28 Feb in São Paulo
    const charge = await provider.createCharge({
      chargeId: 'chg_abc',
      amountCents: 15_050,
      driver: { name: 'Maria Souza', cpfCnpj: '52998224725' },
      expiresAt,
    });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /v3/customers',
      'POST /v3/customers',
      'POST /v3/payments',
      `GET /v3/payments/${charge.providerChargeId}/pixQrCode`,
    ]);
    expect(fake.calls[0]?.query).toEqual({ cpfCnpj: '52998224725' });
    expect(fake.calls[1]?.body).toEqual({ name: 'Maria Souza', cpfCnpj: '52998224725' });
    expect(fake.calls[2]?.body).toEqual({
      customer: fake.customers[0]?.id,
      billingType: 'PIX',
      value: 150.5,
      dueDate: '2026-02-28',
      externalReference: 'chg_abc',
      description: serverMessages.pix.chargeDescription,
    });
    expect(charge.providerChargeId).toMatch(/^pay_/);
    // A real BR Code (EMV fields and CRC16), with the amount.
    const brCode = parsePix(charge.payload);
    expect(hasError(brCode)).toBe(false);
    expect(brCode).toMatchObject({ transactionAmount: 150.5 });
    expect(charge.encodedImage).toBe(Buffer.from(`png-${charge.providerChargeId}`).toString('base64'));
    expect(charge.expiresAt).toEqual(expiresAt);

    fake.calls.length = 0;
    await provider.createCharge({
      chargeId: 'chg_def',
      amountCents: 10_000,
      driver: { name: 'Maria Souza', cpfCnpj: '52998224725' },
      expiresAt,
    });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`).slice(0, 2)).toEqual(['GET /v3/customers', 'POST /v3/payments']);
    expect(fake.customers).toHaveLength(1);
  });

  it('a corrected name goes to the customer of that CPF/CNPJ (PUT), at once and again before the next charge; none, no customer made', async () => {
    const cpfCnpj = '11144477735';
    await provider.updateCustomerName({ name: 'Ninguém Ainda', cpfCnpj });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v3/customers']);
    expect(fake.customers.some((c) => c.cpfCnpj === cpfCnpj)).toBe(false);
    const expiresAt = new Date('2026-03-01T02:30:00Z');
    await provider.createCharge({ chargeId: 'chg_nome1', amountCents: 1_000, driver: { name: 'José Lima', cpfCnpj }, expiresAt });
    const customer = fake.customers.find((c) => c.cpfCnpj === cpfCnpj);
    fake.calls.length = 0;
    await provider.updateCustomerName({ name: 'José da Silva Lima', cpfCnpj });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v3/customers', `PUT /v3/customers/${customer?.id}`]);
    expect(fake.calls[1]?.body).toEqual({ name: 'José da Silva Lima' });
    expect(customer?.name).toBe('José da Silva Lima');
    // The same name again: nothing to send.
    fake.calls.length = 0;
    await provider.updateCustomerName({ name: 'José da Silva Lima', cpfCnpj });
    expect(fake.calls.map((c) => c.method)).toEqual(['GET']);
    // A correction the provider missed (it was out of reach) is given before the next charge.
    fake.calls.length = 0;
    await provider.createCharge({ chargeId: 'chg_nome2', amountCents: 1_000, driver: { name: 'José S. Lima', cpfCnpj }, expiresAt });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`).slice(0, 3)).toEqual([
      'GET /v3/customers',
      `PUT /v3/customers/${customer?.id}`,
      'POST /v3/payments',
    ]);
    expect(customer?.name).toBe('José S. Lima');
  });

  it('sends transfers with pixAddressKey / pixAddressKeyType for the five key types', async () => {
    for (const [keyType, key] of [
      ['CPF', '52998224725'],
      ['CNPJ', '11222333000181'],
      ['PHONE', '11987654321'],
      ['EMAIL', 'a@b.com'],
      ['EVP', '123e4567-e89b-12d3'],
    ] as const) {
      const result = await provider.sendPayout(payout({ keyType, key }));
      expect(result).toMatchObject({ status: 'DONE' });
      expect(result.providerTransferId).toMatch(UUID);
      expect(fake.calls.at(-1)).toMatchObject({
        method: 'POST',
        path: '/v3/transfers',
        body: {
          value: 40,
          operationType: 'PIX',
          pixAddressKey: key,
          pixAddressKeyType: keyType,
          description: 'Saque',
          externalReference: 'wd_0123',
        },
      });
    }
    fake.transfer = { status: 'PENDING' };
    expect((await provider.sendPayout(payout())).status).toBe('PENDING');
    fake.transfer = { status: 'BANK_PROCESSING' };
    expect((await provider.sendPayout(payout())).status).toBe('PENDING');
  });

  it('maps errors: 4xx and FAILED -> PayoutRejected with Asaas text; 5xx, timeout, refused -> unavailable', async () => {
    fake.transfer = {
      httpStatus: 400,
      errors: [
        { code: 'invalid_action', description: 'Chave Pix não encontrada.' },
        { code: 'x', description: 'Tente outra chave.' },
      ],
    };
    await expect(provider.sendPayout(payout())).rejects.toEqual(new PayoutRejected('Chave Pix não encontrada.; Tente outra chave.'));
    fake.transfer = { status: 'FAILED', failReason: 'Conta de destino encerrada' };
    // The transfer Asaas created and failed at once: its id comes along, so its later events name this withdrawal.
    const failed = await provider.sendPayout(payout()).catch((e: unknown) => e);
    expect(failed).toMatchObject({ reason: 'Conta de destino encerrada', providerTransferId: expect.stringMatching(UUID) });
    // 5xx and timeouts may have been carried out; a refused connection surely was not.
    fake.transfer = { httpStatus: 500 };
    await expect(provider.sendPayout(payout())).rejects.toMatchObject({ mayHaveArrived: true });
    await expect(provider.sendPayout(payout())).rejects.toBeInstanceOf(PixProviderUnavailable);
    fake.transfer = { delayMs: 1_000 };
    await expect(provider.sendPayout(payout())).rejects.toMatchObject({ mayHaveArrived: true });
    const nowhere = new AsaasPixProvider({ apiUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: 'k', timeoutMs: 300 });
    await expect(nowhere.sendPayout(payout())).rejects.toBeInstanceOf(PixProviderUnavailable);
    await expect(nowhere.sendPayout(payout())).rejects.toMatchObject({ mayHaveArrived: false });
    const wrongKey = new AsaasPixProvider({ apiUrl: fake.url, apiKey: 'errada', timeoutMs: 300 });
    await expect(
      wrongKey.createCharge({ chargeId: 'c', amountCents: 1, driver: { name: 'x', cpfCnpj: '1' }, expiresAt: new Date() }),
    ).rejects.toBeInstanceOf(AsaasRequestError);
    await expect(wrongKey.sendPayout(payout())).rejects.toMatchObject({ reason: 'A chave de API fornecida é inválida' });
  });

  it('reads payments and transfers back, and cancels a charge Asaas has not received', async () => {
    const driver = { name: 'Maria Souza', cpfCnpj: '52998224725' };
    const a = await provider.createCharge({ chargeId: 'chg_r1', amountCents: 15_000, driver, expiresAt: new Date() });
    expect(await provider.getPayment(a.providerChargeId)).toEqual({
      status: 'PENDING',
      amountCents: 15_000,
      refundedCents: 0,
      deleted: false,
      externalReference: 'chg_r1',
      // Decision 58: a purchase's Pix is neither a Pix Automático first payment nor a cycle.
      pixQrCodeId: null,
      automaticAuthorizationId: null,
    });
    fake.pay(a.providerChargeId);
    fake.refund(a.providerChargeId, 49.9);
    expect(await provider.getPayment(a.providerChargeId)).toMatchObject({ status: 'RECEIVED', refundedCents: 4_990 });
    fake.refund(a.providerChargeId);
    expect(await provider.getPayment(a.providerChargeId)).toMatchObject({ status: 'REFUNDED', refundedCents: 15_000 });
    // Received: Asaas refuses to remove it.
    expect(await provider.cancelCharge(a.providerChargeId)).toBe(false);
    const b = await provider.createCharge({ chargeId: 'chg_r2', amountCents: 1_000, driver, expiresAt: new Date() });
    expect(await provider.cancelCharge(b.providerChargeId)).toBe(true);
    expect(fake.calls.at(-1)).toMatchObject({ method: 'DELETE', path: `/v3/payments/${b.providerChargeId}` });
    expect(await provider.getPayment(b.providerChargeId)).toMatchObject({ deleted: true });
    expect(await provider.getPayment('pay_inexistente')).toBe('missing');

    fake.transfer = { status: 'PENDING' };
    const sent = await provider.sendPayout(payout());
    // The holder of the key's account, as Asaas reports it (bankAccount): kept for the receipt.
    expect(sent.receiver).toEqual({ name: 'Maria das Graças Souza', document: '529.982.247-25' });
    expect(await provider.getTransfer(sent.providerTransferId)).toEqual({
      status: 'PENDING',
      failReason: null,
      externalReference: 'wd_0123',
      amountCents: 4_000,
      pixKey: '52998224725',
      operationType: 'PIX',
      receiver: { name: 'Maria das Graças Souza', document: '529.982.247-25' },
    });
    fake.settleTransfer(sent.providerTransferId, 'FAILED', 'Chave Pix inexistente');
    expect(await provider.getTransfer(sent.providerTransferId)).toMatchObject({ status: 'FAILED', failReason: 'Chave Pix inexistente' });
    expect(await provider.getTransfer('00000000-0000-4000-8000-000000000000')).toBe('missing');
    fake.down = true;
    try {
      await expect(provider.getPayment(a.providerChargeId)).rejects.toBeInstanceOf(PixProviderUnavailable);
      await expect(provider.cancelCharge(b.providerChargeId)).rejects.toBeInstanceOf(PixProviderUnavailable);
    } finally {
      fake.down = false;
    }
  });

  it("lists the transfers since a São Paulo day page by page, to find a withdrawal's by externalReference (decision 60)", async () => {
    const ours = await provider.sendPayout(payout({ withdrawalId: 'wd_procurado' }));
    for (let i = 0; i < 120; i++) await provider.sendPayout(payout({ withdrawalId: `wd_outro_${i}` }));
    fake.transfer = { status: 'FAILED', failReason: 'Chave inexistente' };
    const failed = await provider.sendPayout(payout({ withdrawalId: 'wd_procurado' })).catch((e: PayoutRejected) => e.providerTransferId);
    fake.calls.length = 0;
    const listed = await provider.transfersSince(new Date('2026-01-01T02:00:00Z'));
    expect(listed.length).toBe(fake.transfers.size);
    expect(listed.filter((t) => t.externalReference === 'wd_procurado').map((t) => [t.id, t.status, t.amountCents, t.pixKey])).toEqual([
      [ours.providerTransferId, 'DONE', 4_000, '52998224725'],
      [failed, 'FAILED', 4_000, '52998224725'],
    ]);
    // Asaas filters by date, not by reference: every page since the São Paulo day, 100 at a time.
    expect(fake.calls.length).toBe(Math.ceil(fake.transfers.size / 100));
    expect(fake.calls[0]).toMatchObject({
      method: 'GET',
      path: '/v3/transfers',
      query: { 'dateCreated[ge]': '2025-12-31', offset: '0', limit: '100' },
    });
    expect(fake.calls[1]?.query).toMatchObject({ offset: '100' });
  });

  it('dueDate is the São Paulo calendar day', () => {
    expect(saoPauloDate(new Date('2026-01-01T02:59:00Z'))).toBe('2025-12-31');
    expect(saoPauloDate(new Date('2026-01-01T03:00:00Z'))).toBe('2026-01-01');
  });
});

describeEachDatabase('PIX_PROVIDER=asaas de ponta a ponta', (dialect) => {
  const ctx = useTestApp(dialect, {
    PIX_PROVIDER: 'asaas',
    ASAAS_API_URL: fake.url,
    ASAAS_API_KEY: 'chave-de-teste',
    ASAAS_TIMEOUT_MS: '2000',
  });

  /** A driver who accepted the terms and bought `reais` through Asaas (paid there, its webhook applied). */
  async function fundedDriver(reais: number): Promise<Registered> {
    const { app, db } = ctx();
    const d = await registerDriver(app);
    await acceptTerms(app, d);
    const c = await createCharge(app, d, reais);
    const { provider_charge_id: payId } = await db.kysely
      .selectFrom('pix_charges')
      .select('provider_charge_id')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    fake.pay(payId);
    expect((await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', payId))).statusCode).toBe(200);
    return d;
  }

  it('charge from Asaas, settled by its webhook by payment.id; withdrawal as an Asaas transfer', async () => {
    fake.transfer = { status: 'PENDING' };
    const app = ctx().app;
    const d = await registerDriver(app);
    await acceptTerms(app, d);
    const c = await createCharge(app, d, 150);
    const row = await ctx().db.kysely.selectFrom('pix_charges').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ provider: 'asaas', payload: c.payload });
    expect(row.provider_charge_id).toMatch(/^pay_/);
    expect(row.encoded_image).not.toBeNull();
    expect(fake.payments.get(row.provider_charge_id)?.externalReference).toBe(c.id);
    fake.pay(row.provider_charge_id);
    const paid = await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', row.provider_charge_id));
    expect(paid.statusCode).toBe(200);
    expect(await ownBalance(app, d)).toBe(150);

    const res = await app.inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: {
        description: 'Meu saque',
        receiver_document: d.cpfCnpj,
        amount: 40,
        pix: { type: 'PHONE', key: '(11) 98765-4321' },
        senha: d.password,
      },
    });
    expect(json(res)).toMatchObject({ Sucesso: true, status: 'PROCESSING', Mensagem: serverMessages.withdrawal.processing });
    const transferCall = fake.calls.filter((x) => x.path === '/v3/transfers').at(-1);
    expect(transferCall?.body).toMatchObject({
      value: 40,
      pixAddressKey: '11987654321',
      pixAddressKeyType: 'PHONE',
      description: 'Meu saque',
      operationType: 'PIX',
    });
    const w = await ctx().db.kysely.selectFrom('withdrawals').selectAll().where('driver_id', '=', d.id).executeTakeFirstOrThrow();
    expect(w.provider_transfer_id).toMatch(UUID);
    fake.settleTransfer(w.provider_transfer_id!, 'FAILED', 'Chave inexistente');
    const failed = await sendWebhook(app, fake.transferWebhook('TRANSFER_FAILED', w.provider_transfer_id!));
    expect(failed.statusCode).toBe(200);
    expect(await ownBalance(app, d)).toBe(150);
    expect(
      (await ctx().db.kysely.selectFrom('withdrawals').select('failure_reason').where('id', '=', w.id).executeTakeFirstOrThrow())
        .failure_reason,
    ).toBe('Chave inexistente');
  });

  it('money moves only on what Asaas confirms: a forged or early event is recorded, the real one credits', async () => {
    const app = ctx().app;
    const d = await registerDriver(app);
    const c = await createCharge(app, d, 150);
    const { provider_charge_id: payId } = await ctx()
      .db.kysely.selectFrom('pix_charges')
      .select('provider_charge_id')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    // Asaas says PENDING: whatever the body claims, nothing is credited.
    const early = await sendWebhook(app, {
      ...fake.paymentWebhook('PAYMENT_RECEIVED', payId),
      payment: { id: payId, value: 150, status: 'RECEIVED' },
    });
    expect(json(early)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
    expect(await ownBalance(app, d)).toBe(0);
    expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', path: `/v3/payments/${payId}` });
    fake.pay(payId);
    expect(json(await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', payId)))).toEqual({
      Sucesso: true,
      Mensagem: serverMessages.pix.webhookProcessed,
    });
    expect(await ownBalance(app, d)).toBe(150);
    // A partial refund at Asaas: the refunded part leaves the balance, read from Asaas, once.
    fake.refund(payId, 40);
    for (let i = 0; i < 2; i++) await sendWebhook(app, fake.paymentWebhook('PAYMENT_PARTIALLY_REFUNDED', payId));
    expect(await ownBalance(app, d)).toBe(110);
    fake.refund(payId);
    await sendWebhook(app, fake.paymentWebhook('PAYMENT_REFUNDED', payId));
    expect(await ownBalance(app, d)).toBe(0);
    expect((await entriesOf(ctx().db, d.id)).map((e) => e.amount_cents)).toEqual([15_000, -4_000, -11_000]);
    await expectLedgerInvariant(ctx().db);
  });

  it('Asaas unreachable while confirming: 200, nothing moves, recorded; the transfer events carry no personal data', async () => {
    fake.transfer = { status: 'PENDING' };
    const app = ctx().app;
    const d = await registerDriver(app);
    await acceptTerms(app, d);
    const c = await createCharge(app, d, 200);
    const { provider_charge_id: payId } = await ctx()
      .db.kysely.selectFrom('pix_charges')
      .select('provider_charge_id')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    fake.pay(payId);
    const body = fake.paymentWebhook('PAYMENT_RECEIVED', payId);
    fake.down = true;
    try {
      const res = await sendWebhook(app, body);
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
    } finally {
      fake.down = false;
    }
    expect(await ownBalance(app, d)).toBe(0);
    const event = await ctx()
      .db.kysely.selectFrom('webhook_events')
      .selectAll()
      .where('provider_ref', '=', payId)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ reason_code: 'provider-unavailable', status: 'open', dedupe_key: body.id });

    await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', payId));
    const res = await app.inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount: 50, pix: { type: 'CPF', key: d.cpfCnpj } },
    });
    expect(json(res)).toMatchObject({ status: 'PROCESSING' });
    const w = await ctx().db.kysely.selectFrom('withdrawals').selectAll().where('driver_id', '=', d.id).executeTakeFirstOrThrow();
    // TRANSFER_DONE while Asaas still says PENDING: not applied. Then blocked.
    await sendWebhook(app, fake.transferWebhook('TRANSFER_DONE', w.provider_transfer_id!));
    fake.settleTransfer(w.provider_transfer_id!, 'BLOCKED');
    await sendWebhook(app, fake.transferWebhook('TRANSFER_BLOCKED', w.provider_transfer_id!));
    const rows = await ctx()
      .db.kysely.selectFrom('webhook_events')
      .select(['reason_code', 'excerpt'])
      .where('provider_ref', '=', w.provider_transfer_id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.reason_code)).toEqual(['not-confirmed', 'transfer-blocked']);
    for (const r of rows) {
      expect(r.excerpt).not.toContain('529.982.247-25');
      expect(r.excerpt).not.toContain('Maria');
      expect(r.excerpt).not.toContain('bankAccount');
    }
    expect((await ctx().db.kysely.selectFrom('withdrawals').select('status').where('id', '=', w.id).executeTakeFirstOrThrow()).status).toBe(
      'PROCESSING',
    );
  });

  it('an expired charge is cancelled at Asaas (DELETE), and its PAYMENT_DELETED changes nothing more', async () => {
    const app = ctx().app;
    const d = await registerDriver(app);
    const c = await createCharge(app, d, 120);
    const { provider_charge_id: payId } = await ctx()
      .db.kysely.selectFrom('pix_charges')
      .select('provider_charge_id')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    await ctx()
      .db.kysely.updateTable('pix_charges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', c.id)
      .execute();
    const res = await app.inject({ method: 'GET', url: `/api/transacoes/qrcode/${c.id}`, headers: bearer(d.token) });
    expect(json(res)).toMatchObject({ qrCode: { status: 'OVERDUE' } });
    expect(fake.calls.filter((x) => x.method === 'DELETE').map((x) => x.path)).toContain(`/v3/payments/${payId}`);
    expect(fake.payments.get(payId)?.deleted).toBe(true);
    const deleted = await sendWebhook(app, fake.paymentWebhook('PAYMENT_DELETED', payId));
    expect(json(deleted)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookProcessed });
    expect(await ctx().db.kysely.selectFrom('pix_charges').select(['status']).where('id', '=', c.id).executeTakeFirstOrThrow()).toEqual({
      status: 'OVERDUE',
    });
  });

  it('pix:reconcile asks Asaas about pending charges and processing withdrawals, applies what it learns, once', async () => {
    const { app, db, config } = ctx();
    const chargeOf = async (id: string) => db.kysely.selectFrom('pix_charges').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const funded = async (): Promise<Registered> => {
      const d = await registerDriver(app);
      await acceptTerms(app, d);
      const c = await createCharge(app, d, 300);
      fake.pay((await chargeOf(c.id)).provider_charge_id);
      await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', (await chargeOf(c.id)).provider_charge_id));
      return d;
    };
    const withdraw = (d: Registered) =>
      app.inject({
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: bearer(d.token),
        payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount: 100, pix: { type: 'CPF', key: d.cpfCnpj } },
      });
    const d = await registerDriver(app);
    // Paid at Asaas, its webhook never came (or could not be confirmed).
    const paid = await createCharge(app, d, 150);
    const paidId = (await chargeOf(paid.id)).provider_charge_id;
    fake.pay(paidId);
    fake.down = true;
    await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', paidId));
    fake.down = false;
    // Expired here, never paid.
    const stale = await createCharge(app, d, 120);
    await db.kysely
      .updateTable('pix_charges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', stale.id)
      .execute();
    // A transfer Asaas later failed, and a payout whose outcome nobody knows.
    const d1 = await funded();
    fake.transfer = { status: 'PENDING' };
    await withdraw(d1);
    const w1 = await db.kysely.selectFrom('withdrawals').selectAll().where('driver_id', '=', d1.id).executeTakeFirstOrThrow();
    fake.settleTransfer(w1.provider_transfer_id!, 'FAILED', 'Conta destino encerrada');
    const d2 = await funded();
    fake.transfer = { httpStatus: 500 };
    await withdraw(d2);
    const w2 = await db.kysely.selectFrom('withdrawals').selectAll().where('driver_id', '=', d2.id).executeTakeFirstOrThrow();
    expect(w2).toMatchObject({ status: 'PROCESSING', provider_transfer_id: null });

    const log = createLogger('silent');
    const first = await reconcilePix(config, db, log);
    expect(first).toContain(`Cobrança ${paid.id} (${formatBrl(15_000)}): paga; saldo creditado.`);
    expect(first).toContain(`Cobrança ${stale.id} (${formatBrl(12_000)}): vencida e cancelada no provedor.`);
    expect(first).toContain(`Saque ${w1.id} (${formatBrl(10_000)}): não concluído; valor devolvido ao motorista.`);
    expect(first).toContain(`Saque ${w2.id} (${formatBrl(10_000)}): resultado desconhecido`);
    expect(await ownBalance(app, d)).toBe(150);
    expect(await chargeOf(stale.id)).toMatchObject({ status: 'OVERDUE' });
    expect(fake.payments.get((await chargeOf(stale.id)).provider_charge_id)?.deleted).toBe(true);
    expect(await ownBalance(app, d1)).toBe(300);
    expect(await ownBalance(app, d2)).toBe(200);
    const event = await db.kysely.selectFrom('webhook_events').selectAll().where('provider_ref', '=', paidId).executeTakeFirstOrThrow();
    expect(event).toMatchObject({ status: 'resolved', note: 'resolvido por pix:reconcile' });

    const before = await db.kysely.selectFrom('ledger_entries').select('id').execute();
    const second = await reconcilePix(config, db, log);
    expect(second).toContain(': 0 atualização(ões),');
    expect(second).toContain(`Saque ${w2.id}`);
    expect(await db.kysely.selectFrom('ledger_entries').select('id').execute()).toHaveLength(before.length);
    await expectLedgerInvariant(db);
  });

  // Issue 21, point 1, as it was seen: R$ 200,00; W1 fails at Asaas at once (tra_3), W2 waits on tra_4.
  it('a crossed TRANSFER_FAILED (the failed transfer of W1 with W2 as its reference) moves nothing; the real TRANSFER_DONE pays W2 once', async () => {
    const { app, db } = ctx();
    const d = await fundedDriver(200);
    const withdraw = (key: string) =>
      app.inject({
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: bearer(d.token),
        payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount: 100, pix: { type: 'EMAIL', key }, senha: d.password },
      });
    const rowOf = (id: string) => db.kysely.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    fake.transfer = { status: 'FAILED', failReason: 'Chave Pix inexistente' };
    expect((await withdraw('primeira.chave@example.com')).statusCode).toBe(502);
    const w1 = await db.kysely.selectFrom('withdrawals').selectAll().where('driver_id', '=', d.id).executeTakeFirstOrThrow();
    const tra3 = [...fake.transfers.values()].find((t) => t.externalReference === w1.id)?.id;
    expect(tra3).toMatch(UUID);
    expect(w1.status).toBe('FAILED');
    fake.transfer = { status: 'PENDING' };
    const w2 = json<{ withdrawalId: string }>(await withdraw('segunda.chave@example.com')).withdrawalId;
    const tra4 = (await rowOf(w2)).provider_transfer_id!;
    expect(tra4).toMatch(UUID);
    expect(await ownBalance(app, d)).toBe(100);

    const crossed = await sendWebhook(app, { event: 'TRANSFER_FAILED', transfer: { id: tra3!, externalReference: w2 } });
    expect(crossed.statusCode).toBe(200);
    expect(await ownBalance(app, d)).toBe(100);
    expect(await rowOf(w2)).toMatchObject({ status: 'PROCESSING', provider_transfer_id: tra4 });
    expect(json(crossed)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
    // The transfer that failed at once was kept: its later events name W1 and no other.
    expect(await rowOf(w1.id)).toMatchObject({ status: 'FAILED', provider_transfer_id: tra3 });
    expect(
      await db.kysely.selectFrom('webhook_events').select(['event', 'reason_code', 'status']).where('provider_ref', '=', tra3!).execute(),
    ).toEqual([{ event: 'TRANSFER_FAILED', reason_code: 'reference-mismatch', status: 'open' }]);
    expect(await listWebhookEvents(db)).toContain(`TRANSFER_FAILED  ${tra3}  ${serverMessages.pix.unapplied['reference-mismatch']}`);

    fake.settleTransfer(tra4, 'DONE');
    expect(json(await sendWebhook(app, fake.transferWebhook('TRANSFER_DONE', tra4)))).toEqual({
      Sucesso: true,
      Mensagem: serverMessages.pix.webhookProcessed,
    });
    expect(await rowOf(w2)).toMatchObject({ status: 'DONE' });
    // Asaas's own late TRANSFER_FAILED of tra_3 finds W1, already given back: nothing twice.
    await sendWebhook(app, fake.transferWebhook('TRANSFER_FAILED', tra3!));
    expect(await ownBalance(app, d)).toBe(100);
    expect((await entriesOf(db, d.id)).map((e) => e.amount_cents)).toEqual([20_000, -10_000, 10_000, -10_000]);
    await expectLedgerInvariant(db);
  });

  it('a crossed PAYMENT_RECEIVED (one payment id with another charge as its reference) credits nothing; the real event credits its own charge', async () => {
    const { app, db } = ctx();
    const d = await registerDriver(app);
    const a = await createCharge(app, d, 150);
    const b = await createCharge(app, d, 150);
    const chargeOf = (id: string) => db.kysely.selectFrom('pix_charges').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const payB = (await chargeOf(b.id)).provider_charge_id;
    fake.pay(payB);
    const crossed = await sendWebhook(app, {
      id: 'evt_cruzado_pagamento',
      event: 'PAYMENT_RECEIVED',
      payment: { id: payB, value: 150, externalReference: a.id },
    });
    expect(json(crossed)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
    expect(await ownBalance(app, d)).toBe(0);
    expect((await chargeOf(a.id)).status).toBe('PENDING');
    expect((await chargeOf(b.id)).status).toBe('PENDING');
    expect(
      await db.kysely
        .selectFrom('webhook_events')
        .select(['provider_ref', 'reason_code'])
        .where('dedupe_key', '=', 'evt_cruzado_pagamento')
        .execute(),
    ).toEqual([{ provider_ref: payB, reason_code: 'reference-mismatch' }]);
    expect(json(await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', payB)))).toEqual({
      Sucesso: true,
      Mensagem: serverMessages.pix.webhookProcessed,
    });
    expect(await ownBalance(app, d)).toBe(150);
    expect((await chargeOf(a.id)).status).toBe('PENDING');
    expect((await chargeOf(b.id)).status).toBe('RECEIVED');
    await expectLedgerInvariant(db);
  });

  it("the real TRANSFER_DONE before the payout answer (no transfer id stored yet): Asaas confirms it is this withdrawal's, the id is kept", async () => {
    const { app, db } = ctx();
    const d = await fundedDriver(200);
    fake.transfer = { delayMs: 500 };
    const answer = app.inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount: 50, pix: { type: 'CPF', key: d.cpfCnpj }, senha: d.password },
    });
    let transferId: string | undefined;
    let withdrawalId = '';
    for (let i = 0; i < 200 && !transferId; i++) {
      await new Promise((r) => setTimeout(r, 5));
      withdrawalId = (await db.kysely.selectFrom('withdrawals').select('id').where('driver_id', '=', d.id).executeTakeFirst())?.id ?? '';
      transferId = [...fake.transfers.values()].find((t) => withdrawalId && t.externalReference === withdrawalId)?.id;
    }
    expect(transferId).toMatch(UUID);
    const rowOf = () => db.kysely.selectFrom('withdrawals').selectAll().where('id', '=', withdrawalId).executeTakeFirstOrThrow();
    expect(await rowOf()).toMatchObject({ status: 'PROCESSING', provider_transfer_id: null });
    fake.settleTransfer(transferId!, 'DONE');
    expect(json(await sendWebhook(app, fake.transferWebhook('TRANSFER_DONE', transferId!)))).toEqual({
      Sucesso: true,
      Mensagem: serverMessages.pix.webhookProcessed,
    });
    expect(await rowOf()).toMatchObject({
      status: 'DONE',
      provider_transfer_id: transferId,
      receiver_name: 'Maria das Graças Souza',
      receiver_document: '***.982.247-**',
    });
    expect((await answer).statusCode).toBe(200);
    expect(await rowOf()).toMatchObject({ status: 'DONE', provider_transfer_id: transferId });
    expect(await ownBalance(app, d)).toBe(150);
    expect(await db.kysely.selectFrom('webhook_events').select('id').where('provider_ref', '=', transferId!).execute()).toEqual([]);
    await expectLedgerInvariant(db);
  });

  it('pix:reconcile applies nothing when Asaas ties the stored payment or transfer to another reference', async () => {
    const { app, db, config } = ctx();
    const d = await fundedDriver(200);
    fake.transfer = { status: 'PENDING' };
    await app.inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount: 60, pix: { type: 'CPF', key: d.cpfCnpj }, senha: d.password },
    });
    const w = await db.kysely.selectFrom('withdrawals').selectAll().where('driver_id', '=', d.id).executeTakeFirstOrThrow();
    const c = await createCharge(app, d, 120);
    const payId = (await db.kysely.selectFrom('pix_charges').select('provider_charge_id').where('id', '=', c.id).executeTakeFirstOrThrow())
      .provider_charge_id;
    // At Asaas both objects now name something else (failed and paid there: reconcile would act on them).
    fake.transfers.get(w.provider_transfer_id!)!.externalReference = 'wd_de_outro';
    fake.settleTransfer(w.provider_transfer_id!, 'FAILED', 'x');
    fake.payments.get(payId)!.externalReference = 'chg_de_outro';
    fake.pay(payId);
    const report = await reconcilePix(config, db, createLogger('silent'));
    expect(report).toContain(`Saque ${w.id} (${formatBrl(6_000)}): o provedor vincula a transferência registrada a outra referência`);
    expect(report).toContain(`Cobrança ${c.id} (${formatBrl(12_000)}): o provedor vincula o pagamento ${payId} a outra referência`);
    expect(await ownBalance(app, d)).toBe(140);
    expect((await db.kysely.selectFrom('withdrawals').select('status').where('id', '=', w.id).executeTakeFirstOrThrow()).status).toBe(
      'PROCESSING',
    );
    expect((await db.kysely.selectFrom('pix_charges').select('status').where('id', '=', c.id).executeTakeFirstOrThrow()).status).toBe(
      'PENDING',
    );
  });

  it('Asaas out of reach: 502 and nothing stored', async () => {
    const app = ctx().app;
    const d = await registerDriver(app);
    const before = fake.customers.length;
    await fake.stop();
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/transacoes/gerar-qrcode',
        headers: bearer(d.token),
        payload: { valor: 150, cpfCnpj: d.cpfCnpj, project: 'VPO' },
      });
      expect(res.statusCode).toBe(502);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.pix.providerUnavailable });
    } finally {
      await fake.start();
    }
    expect(fake.customers.length).toBe(before);
    expect(await ctx().db.kysely.selectFrom('pix_charges').select('id').where('driver_id', '=', d.id).execute()).toEqual([]);
  });
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('sem porta');
  return address.port;
}
