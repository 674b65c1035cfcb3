import { createServer } from 'node:net';
import { messages } from '@portal/domain';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AsaasPixProvider, saoPauloDate } from '../src/adapters/pix/asaas.js';
import { AsaasRequestError } from '../src/adapters/pix/asaas-client.js';
import { PayoutRejected, PixProviderUnavailable } from '../src/adapters/pix/port.js';
import type { PayoutRequest } from '../src/adapters/pix/port.js';
import { bearer, json, registerDriver, useTestApp } from './helpers/app.js';
import { describeEachDatabase } from './helpers/databases.js';
import { FakeAsaas } from './helpers/fake-asaas.js';
import { acceptTerms, createCharge, ownBalance, sendWebhook } from './helpers/pix.js';

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
    const charge = await provider.createCharge({ chargeId: 'chg_abc', amountCents: 15_050, driver: { name: 'Maria Souza', cpfCnpj: '52998224725' }, expiresAt });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v3/customers', 'POST /v3/customers', 'POST /v3/payments', `GET /v3/payments/${charge.providerChargeId}/pixQrCode`]);
    expect(fake.calls[0]?.query).toEqual({ cpfCnpj: '52998224725' });
    expect(fake.calls[1]?.body).toEqual({ name: 'Maria Souza', cpfCnpj: '52998224725' });
    expect(fake.calls[2]?.body).toEqual({
      customer: fake.customers[0]?.id,
      billingType: 'PIX',
      value: 150.5,
      dueDate: '2026-02-28',
      externalReference: 'chg_abc',
      description: messages.pix.chargeDescription,
    });
    expect(charge.providerChargeId).toMatch(/^pay_/);
    expect(charge.payload).toContain(charge.providerChargeId);
    expect(charge.encodedImage).toBe(Buffer.from(`png-${charge.providerChargeId}`).toString('base64'));
    expect(charge.expiresAt).toEqual(expiresAt);

    fake.calls.length = 0;
    await provider.createCharge({ chargeId: 'chg_def', amountCents: 10_000, driver: { name: 'Maria Souza', cpfCnpj: '52998224725' }, expiresAt });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`).slice(0, 2)).toEqual(['GET /v3/customers', 'POST /v3/payments']);
    expect(fake.customers).toHaveLength(1);
  });

  it('sends transfers with pixAddressKey / pixAddressKeyType for the five key types', async () => {
    for (const [keyType, key] of [['CPF', '52998224725'], ['CNPJ', '11222333000181'], ['PHONE', '11987654321'], ['EMAIL', 'a@b.com'], ['EVP', '123e4567-e89b-12d3']] as const) {
      const result = await provider.sendPayout(payout({ keyType, key }));
      expect(result).toMatchObject({ status: 'DONE' });
      expect(result.providerTransferId).toMatch(/^tra_/);
      expect(fake.calls.at(-1)).toMatchObject({
        method: 'POST',
        path: '/v3/transfers',
        body: { value: 40, operationType: 'PIX', pixAddressKey: key, pixAddressKeyType: keyType, description: 'Saque', externalReference: 'wd_0123' },
      });
    }
    fake.transfer = { status: 'PENDING' };
    expect((await provider.sendPayout(payout())).status).toBe('PENDING');
    fake.transfer = { status: 'BANK_PROCESSING' };
    expect((await provider.sendPayout(payout())).status).toBe('PENDING');
  });

  it('maps errors: 4xx and FAILED -> PayoutRejected with Asaas text; 5xx, timeout, refused -> unavailable', async () => {
    fake.transfer = { httpStatus: 400, errors: [{ code: 'invalid_action', description: 'Chave Pix não encontrada.' }, { code: 'x', description: 'Tente outra chave.' }] };
    await expect(provider.sendPayout(payout())).rejects.toEqual(new PayoutRejected('Chave Pix não encontrada.; Tente outra chave.'));
    fake.transfer = { status: 'FAILED', failReason: 'Conta de destino encerrada' };
    await expect(provider.sendPayout(payout())).rejects.toMatchObject({ reason: 'Conta de destino encerrada' });
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
    await expect(wrongKey.createCharge({ chargeId: 'c', amountCents: 1, driver: { name: 'x', cpfCnpj: '1' }, expiresAt: new Date() })).rejects.toBeInstanceOf(AsaasRequestError);
    await expect(wrongKey.sendPayout(payout())).rejects.toMatchObject({ reason: 'A chave de API fornecida é inválida' });
  });

  it('dueDate is the São Paulo calendar day', () => {
    expect(saoPauloDate(new Date('2026-01-01T02:59:00Z'))).toBe('2025-12-31');
    expect(saoPauloDate(new Date('2026-01-01T03:00:00Z'))).toBe('2026-01-01');
  });
});

describeEachDatabase('PIX_PROVIDER=asaas de ponta a ponta', (dialect) => {
  const ctx = useTestApp(dialect, { PIX_PROVIDER: 'asaas', ASAAS_API_URL: fake.url, ASAAS_API_KEY: 'chave-de-teste', ASAAS_TIMEOUT_MS: '2000' });

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
    const paid = await sendWebhook(app, { id: 'evt_1', event: 'PAYMENT_RECEIVED', payment: { object: 'payment', id: row.provider_charge_id, value: 150, netValue: 149.01, billingType: 'PIX', status: 'RECEIVED' } });
    expect(paid.statusCode).toBe(200);
    expect(await ownBalance(app, d)).toBe(150);

    const res = await app.inject({ method: 'POST', url: '/api/motorista/sacar', headers: bearer(d.token), payload: { description: 'Meu saque', receiver_document: d.cpfCnpj, amount: 40, pix: { type: 'PHONE', key: '(11) 98765-4321' } } });
    expect(json(res)).toMatchObject({ Sucesso: true, status: 'PROCESSING', Mensagem: messages.withdrawal.processing });
    const transferCall = fake.calls.filter((x) => x.path === '/v3/transfers').at(-1);
    expect(transferCall?.body).toMatchObject({ value: 40, pixAddressKey: '11987654321', pixAddressKeyType: 'PHONE', description: 'Meu saque', operationType: 'PIX' });
    const w = await ctx().db.kysely.selectFrom('withdrawals').selectAll().where('driver_id', '=', d.id).executeTakeFirstOrThrow();
    const failed = await sendWebhook(app, { event: 'TRANSFER_FAILED', transfer: { object: 'transfer', id: w.provider_transfer_id, status: 'FAILED', failReason: 'Chave inexistente' } });
    expect(failed.statusCode).toBe(200);
    expect(await ownBalance(app, d)).toBe(150);
  });

  it('Asaas out of reach: 502 and nothing stored', async () => {
    const app = ctx().app;
    const d = await registerDriver(app);
    const before = fake.customers.length;
    await fake.stop();
    try {
      const res = await app.inject({ method: 'POST', url: '/api/transacoes/gerar-qrcode', headers: bearer(d.token), payload: { valor: 150, cpfCnpj: d.cpfCnpj, project: 'VPO' } });
      expect(res.statusCode).toBe(502);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: messages.pix.providerUnavailable });
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
