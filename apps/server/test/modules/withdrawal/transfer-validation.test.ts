import type { ReceiptResponse } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { FakeAsaas } from '../../helpers/fake-asaas.js';
import { acceptTerms, createCharge, expectLedgerInvariant, ownBalance, sendWebhook, WEBHOOK_TOKEN } from '../../helpers/pix.js';

/**
 * Issue 21, point 3: Asaas's "Mecanismo para validação de saque via webhooks" against the fake
 * Asaas, which calls the running server back as Asaas does (about 5 s after a transfer is created:
 * at once here), honours APPROVED / REFUSED, cancels after three failed calls, and sends the
 * TRANSFER_* event that follows. A transfer made with the operator's API key outside the portal
 * (a leaked key) must never be approved.
 */
const API_KEY = 'chave-de-teste';
const VALIDATION_TOKEN = 'token-da-validacao-de-saque-do-teste-0123456789';
const METRICS_TOKEN = 'metricas-do-teste-0123456789';
const VALIDATION_PATH = '/api/webhooks/asaas/validacao-saque';
const HOLDER = { ownerName: 'Joana Pereira Lima', cpfCnpj: '111.444.777-35' };
const refused = serverMessages.transferValidation.refused;

const fake = new FakeAsaas(API_KEY);
await fake.start();
afterAll(() => fake.stop());

describeEachDatabase('validação de saque do Asaas contra o Asaas falso', (dialect) => {
  const ctx = useTestApp(dialect, {
    PIX_PROVIDER: 'asaas',
    ASAAS_API_URL: fake.url,
    ASAAS_API_KEY: API_KEY,
    ASAAS_TIMEOUT_MS: '2000',
    ASAAS_TRANSFER_VALIDATION_TOKEN: VALIDATION_TOKEN,
    METRICS_TOKEN,
  });
  let base = '';

  /** The app listening on a port (Asaas calls URLs), and the fake pointed at it. */
  async function server(): Promise<void> {
    if (!base) base = await ctx().app.listen({ host: '127.0.0.1', port: 0 });
    fake.validation = { url: `${base}${VALIDATION_PATH}`, token: VALIDATION_TOKEN };
    fake.webhook = { url: `${base}/api/webhooks/asaas`, token: WEBHOOK_TOKEN };
  }

  beforeEach(async () => {
    await server();
    fake.transfer = { status: 'DONE' };
    fake.keyHolder = { ...HOLDER };
  });
  afterAll(() => {
    fake.validation = null;
    fake.webhook = null;
  });

  async function fundedDriver(reais: number): Promise<Registered> {
    const { app, db } = ctx();
    const d = await registerDriver(app, { name: 'Carlos Motorista Ramos' });
    await acceptTerms(app, d);
    const c = await createCharge(app, d, reais);
    const { provider_charge_id: payId } = await db.kysely
      .selectFrom('pix_charges')
      .select('provider_charge_id')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    fake.pay(payId);
    await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', payId));
    return d;
  }

  const withdraw = (d: Registered, amount: number, pix: { type: string; key: string }) =>
    ctx().app.inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount, pix, senha: d.password },
    });
  const withdrawalOf = (d: Registered) =>
    ctx()
      .db.kysely.selectFrom('withdrawals')
      .selectAll()
      .where('driver_id', '=', d.id)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
  const validationOf = (transferId: string) => fake.validations.find((v) => v.transferId === transferId);

  /** A transfer created with the operator's API key, straight at Asaas: what a leaked key allows. */
  async function forge(body: Record<string, unknown>): Promise<{ id: string }> {
    const res = await fetch(`${fake.url}/v3/transfers`, {
      method: 'POST',
      headers: { access_token: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ operationType: 'PIX', ...body }),
    });
    expect(res.status).toBe(200);
    const created = (await res.json()) as { id: string };
    await fake.settled();
    return created;
  }

  it("approves the portal's own transfer: Asaas carries it out, its TRANSFER_DONE completes the withdrawal, and the receipt names the holder Asaas reported", async () => {
    const { app, db, logs } = ctx();
    const d = await fundedDriver(300);
    const res = await withdraw(d, 120, { type: 'CPF', key: HOLDER.cpfCnpj });
    // Created PENDING: Asaas waits for the validation before carrying it out.
    expect(json(res)).toMatchObject({ Sucesso: true, status: 'PROCESSING' });
    await fake.settled();
    const w = await withdrawalOf(d);
    const call = validationOf(w.provider_transfer_id ?? '');
    expect(call).toMatchObject({ outcome: 'APPROVED', attempts: [{ status: 200, body: { status: 'APPROVED' } }] });
    expect(fake.transfers.get(w.provider_transfer_id ?? '')?.status).toBe('DONE');
    expect(w).toMatchObject({ status: 'DONE', receiver_name: 'Joana Pereira Lima', receiver_document: '***.444.777-**' });
    expect(await ownBalance(app, d)).toBe(180);

    const receipt = await app.inject({ method: 'GET', url: `/api/comprovantes/saque/${w.id}`, headers: bearer(d.token) });
    expect(json<ReceiptResponse>(receipt).Comprovante.recebedor).toEqual({
      nome: 'Joana Pereira Lima',
      documento: '***.444.777-**',
      chavePix: '***.444.777-**',
      tipoChave: 'CPF',
    });
    expect(receipt.body).not.toContain('Carlos Motorista Ramos');
    // The holder's name and document never reach the log, nor the key whole.
    for (const secret of ['Joana Pereira', '111.444.777-35', '11144477735']) expect(logs.filter((l) => l.includes(secret))).toEqual([]);
    expect(await db.kysely.selectFrom('withdrawals').select('id').where('receiver_document', 'like', '%11144477735%').execute()).toEqual(
      [],
    );
    await expectLedgerInvariant(db);
  });

  it('refuses a transfer made outside the portal (a leaked API key): no reference, an unknown one, or a perfect copy of a real withdrawal; Asaas cancels them and nothing moves', async () => {
    const { app, db, logs } = ctx();
    const d = await fundedDriver(200);
    fake.transfer = { status: 'PENDING' };
    await withdraw(d, 100, { type: 'EMAIL', key: 'dono.da.chave@example.com' });
    await fake.settled();
    const w = await withdrawalOf(d);
    expect(validationOf(w.provider_transfer_id ?? '')?.outcome).toBe('APPROVED');

    const forged = [
      [{ value: 100, pixAddressKey: 'ladrao@example.com', pixAddressKeyType: 'EMAIL' }, 'unknown-withdrawal'],
      [
        { value: 100, pixAddressKey: 'ladrao@example.com', pixAddressKeyType: 'EMAIL', externalReference: 'wd_inventado' },
        'unknown-withdrawal',
      ],
      // Same value, same key, the real withdrawal's reference: a second transfer for it.
      [{ value: 100, pixAddressKey: 'dono.da.chave@example.com', pixAddressKeyType: 'EMAIL', externalReference: w.id }, 'other-transfer'],
    ] as const;
    for (const [body, reason] of forged) {
      const t = await forge(body);
      expect(validationOf(t.id), JSON.stringify(body)).toMatchObject({
        outcome: 'REFUSED',
        attempts: [{ status: 200, body: { status: 'REFUSED', refuseReason: refused[reason] } }],
      });
      expect(fake.transfers.get(t.id)).toMatchObject({ status: 'CANCELLED', failReason: refused[reason] });
    }
    // The copy's TRANSFER_CANCELLED names the real withdrawal: recorded, nothing given back.
    expect(await withdrawalOf(d)).toMatchObject({ id: w.id, status: 'PROCESSING', provider_transfer_id: w.provider_transfer_id });
    expect(await ownBalance(app, d)).toBe(100);
    const events = await db.kysely
      .selectFrom('webhook_events')
      .select(['event', 'reason_code'])
      .where('event', '=', 'TRANSFER_CANCELLED')
      .execute();
    expect(events.map((e) => e.reason_code).sort()).toEqual(['reference-mismatch', 'unknown-withdrawal', 'unknown-withdrawal']);
    // Refusals are logged with ids and the reason, never the key.
    expect(
      logs.filter((l) => l.includes('transferência recusada na validação de saque do Asaas') && l.includes('"reason":"other-transfer"')),
    ).toHaveLength(1);
    expect(logs.filter((l) => l.includes('ladrao@example.com') || l.includes('dono.da.chave'))).toEqual([]);
    await expectLedgerInvariant(db);
  });

  it('refuses a changed value and a changed key; approves the one that matches the withdrawal whose payout answer was lost, and keeps its id', async () => {
    const { app } = ctx();
    const d = await fundedDriver(200);
    // Asaas answered 500: the transfer may exist, the withdrawal waits without its id.
    fake.transfer = { httpStatus: 500 };
    expect(json(await withdraw(d, 80, { type: 'PHONE', key: '(11) 98765-4321' }))).toMatchObject({ status: 'PROCESSING' });
    const w = await withdrawalOf(d);
    expect(w.provider_transfer_id).toBeNull();
    fake.transfer = { status: 'DONE' };
    const cases = [
      [{ value: 800, pixAddressKey: '11987654321', pixAddressKeyType: 'PHONE' }, 'value-mismatch'],
      [{ value: 79.99, pixAddressKey: '11987654321', pixAddressKeyType: 'PHONE' }, 'value-mismatch'],
      [{ value: 80, pixAddressKey: '11912345678', pixAddressKeyType: 'PHONE' }, 'key-mismatch'],
      [{ value: 80, pixAddressKey: '11987654321', pixAddressKeyType: 'PHONE', operationType: 'TED' }, 'not-pix'],
    ] as const;
    for (const [body, reason] of cases) {
      const t = await forge({ ...body, externalReference: w.id });
      expect(validationOf(t.id), JSON.stringify(body)).toMatchObject({
        outcome: 'REFUSED',
        attempts: [{ body: { refuseReason: refused[reason] } }],
      });
    }
    expect(await withdrawalOf(d)).toMatchObject({ status: 'PROCESSING', provider_transfer_id: null });
    expect(await ownBalance(app, d)).toBe(120);

    // The transfer Asaas did make for it (Asaas may write the phone with +55).
    const real = await forge({ value: 80, pixAddressKey: '+5511987654321', pixAddressKeyType: 'PHONE', externalReference: w.id });
    expect(validationOf(real.id)?.outcome).toBe('APPROVED');
    expect(await withdrawalOf(d)).toMatchObject({ status: 'DONE', provider_transfer_id: real.id });
    const again = await forge({ value: 80, pixAddressKey: '11987654321', pixAddressKeyType: 'PHONE', externalReference: w.id });
    expect(validationOf(again.id)?.attempts[0]?.body).toEqual({ status: 'REFUSED', refuseReason: refused['other-transfer'] });
    expect(await ownBalance(app, d)).toBe(120);
  });

  it('refuses a transfer for a withdrawal already settled, and a repeated call for one already paid', async () => {
    const { app } = ctx();
    const d = await fundedDriver(200);
    fake.transfer = { httpStatus: 400, errors: [{ code: 'invalid_action', description: 'Chave Pix não encontrada.' }] };
    expect((await withdraw(d, 60, { type: 'EMAIL', key: 'sem.banco@example.com' })).statusCode).toBe(502);
    const failed = await withdrawalOf(d);
    expect(failed).toMatchObject({ status: 'FAILED', provider_transfer_id: null });
    fake.transfer = { status: 'DONE' };
    const late = await forge({
      value: 60,
      pixAddressKey: 'sem.banco@example.com',
      pixAddressKeyType: 'EMAIL',
      externalReference: failed.id,
    });
    expect(validationOf(late.id)?.attempts[0]?.body).toEqual({ status: 'REFUSED', refuseReason: refused['not-processing'] });
    expect(await ownBalance(app, d)).toBe(200);

    await withdraw(d, 50, { type: 'EMAIL', key: 'com.banco@example.com' });
    await fake.settled();
    const paid = await withdrawalOf(d);
    expect(paid.status).toBe('DONE');
    const transfer = (await (
      await fetch(`${fake.url}/v3/transfers/${paid.provider_transfer_id ?? ''}`, { headers: { access_token: API_KEY } })
    ).json()) as Record<string, unknown>;
    const replay = await app.inject({
      method: 'POST',
      url: VALIDATION_PATH,
      headers: { 'asaas-access-token': VALIDATION_TOKEN },
      payload: { type: 'TRANSFER', transfer },
    });
    expect(json(replay)).toEqual({ status: 'REFUSED', refuseReason: refused['not-processing'] });
    // Other cash-outs (a Pix QR Code paid, a bill) are never the portal's.
    const bill = await app.inject({
      method: 'POST',
      url: VALIDATION_PATH,
      headers: { 'asaas-access-token': VALIDATION_TOKEN },
      payload: { type: 'BILL', bill: { id: 'bill_1', value: 50 } },
    });
    expect(json(bill)).toEqual({ status: 'REFUSED', refuseReason: refused['not-a-transfer'] });
  });

  it('a bad token is 401 and writes nothing; with it Asaas fails three times, cancels the transfer, and its TRANSFER_CANCELLED gives the money back', async () => {
    const { app, db } = ctx();
    const body = {
      type: 'TRANSFER',
      transfer: { id: 'tr_x', value: 1, externalReference: 'wd_x', bankAccount: { pixAddressKey: 'a@b.com' } },
    };
    for (const headers of [{}, { 'asaas-access-token': WEBHOOK_TOKEN }, { 'asaas-access-token': `${VALIDATION_TOKEN}x` }]) {
      const res = await app.inject({ method: 'POST', url: VALIDATION_PATH, headers, payload: body });
      expect(res.statusCode).toBe(401);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.pix.webhookUnauthorized });
    }
    const d = await fundedDriver(200);
    fake.validation = { url: `${base}${VALIDATION_PATH}`, token: 'um-token-que-o-portal-nao-conhece-0123456789' };
    await withdraw(d, 50, { type: 'EVP', key: '123e4567-e89b-42d3-a456-426614174000' });
    await fake.settled();
    const w = await withdrawalOf(d);
    expect(validationOf(w.provider_transfer_id ?? '')).toMatchObject({
      outcome: 'FAILED',
      attempts: [{ status: 401 }, { status: 401 }, { status: 401 }],
    });
    expect(fake.transfers.get(w.provider_transfer_id ?? '')?.status).toBe('CANCELLED');
    expect(w).toMatchObject({ status: 'FAILED' });
    expect(await ownBalance(app, d)).toBe(200);
    await expectLedgerInvariant(db);
  });

  it('counts approvals and refusals, by reason, in the metrics', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const count = (labels: string) =>
      Number(new RegExp(`^asaas_transfer_validations_total\\{${labels}\\} (\\d+)$`, 'm').exec(res.body)?.[1] ?? 0);
    expect(count('result="approved",reason="none"')).toBeGreaterThanOrEqual(4);
    expect(count('result="refused",reason="unknown-withdrawal"')).toBeGreaterThanOrEqual(2);
    for (const reason of ['other-transfer', 'value-mismatch', 'key-mismatch', 'not-pix', 'not-processing', 'not-a-transfer']) {
      expect(count(`result="refused",reason="${reason}"`), reason).toBeGreaterThanOrEqual(1);
    }
  });
});
