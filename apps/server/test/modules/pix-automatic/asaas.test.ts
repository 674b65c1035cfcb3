import type { AttentionResponse } from '@portal/contract';
import { addCalendarDays, pixAutomaticMessages, saoPauloDay, serverMessages } from '@portal/domain';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AsaasPixProvider } from '../../../src/adapters/pix/asaas.js';
import { AsaasRequestError } from '../../../src/adapters/pix/asaas-client.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { CycleScheduler } from '../../../src/modules/pix-automatic/cycles.js';
import { bearer, json, registerDriver, TEST_ENV, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { FakeAsaas } from '../../helpers/fake-asaas.js';
import { expectLedgerInvariant, ownBalance, sendWebhook } from '../../helpers/pix.js';
import { authorizationOf, authorizationRow, automaticCalls, createdAutomatic, cyclesOf } from '../../helpers/pix-automatic.js';

const fake = new FakeAsaas('chave-de-teste');
await fake.start();
afterAll(() => fake.stop());

const config = { apiUrl: fake.url, apiKey: 'chave-de-teste', timeoutMs: 2000 };
const driver = { name: 'Maria Souza', cpfCnpj: '52998224725' };

/** Decision 58: the adapter's requests in the shapes of Asaas's OpenAPI (the fake validates them as its reference says). */
describe('adaptador Asaas: Pix Automático (Jornada 3)', () => {
  const provider = new AsaasPixProvider(config);
  beforeEach(() => {
    fake.calls.length = 0;
    fake.automaticEnabled = true;
  });

  it('creates the authorization with an immediate QR Code, reads it, and cancels it once', async () => {
    const qrExpiresAt = new Date(Date.now() + 3_600_000);
    const created = await provider.createAutomaticAuthorization({
      authorizationId: 'pxa_0123456789abcdef0123',
      amountCents: 15_050,
      frequency: 'MENSAL',
      startDate: '2026-11-27',
      driver,
      qrExpiresAt,
    });
    const call = fake.calls.find((c) => c.path === '/v3/pix/automatic/authorizations');
    expect(call?.method).toBe('POST');
    expect(call?.body).toEqual({
      frequency: 'MONTHLY',
      contractId: 'pxa_0123456789abcdef0123',
      startDate: '2026-11-27',
      value: 150.5,
      description: pixAutomaticMessages.providerDescription,
      customerId: fake.customers.find((c) => c.cpfCnpj === driver.cpfCnpj)?.id,
      immediateQrCode: {
        expirationSeconds: expect.any(Number) as number,
        originalValue: 150.5,
        description: pixAutomaticMessages.providerDescription,
      },
      paymentCreationMode: 'MANUAL',
    });
    expect((call?.body?.immediateQrCode as { expirationSeconds: number }).expirationSeconds).toBeGreaterThan(3_500);
    const stored = fake.authorizations.get(created.providerAuthorizationId);
    expect(created).toEqual({
      providerAuthorizationId: stored?.id,
      payload: stored?.payload,
      conciliationId: stored?.conciliationIdentifier,
      qrExpiresAt,
    });
    expect(created.payload).toMatch(/^000201/);

    expect(await provider.getAutomaticAuthorization(created.providerAuthorizationId)).toEqual({
      status: 'CREATED',
      contractId: 'pxa_0123456789abcdef0123',
      amountCents: 15_050,
    });
    expect(await provider.getAutomaticAuthorization('00000000-0000-0000-0000-000000000000')).toBe('missing');
    expect(await provider.cancelAutomaticAuthorization(created.providerAuthorizationId)).toBe(true);
    expect(fake.calls.at(-1)).toMatchObject({
      method: 'DELETE',
      path: `/v3/pix/automatic/authorizations/${created.providerAuthorizationId}`,
    });
    // Already cancelled there: Asaas refuses (400), which says so.
    expect(await provider.cancelAutomaticAuthorization(created.providerAuthorizationId)).toBe(false);
  });

  it("creates a cycle's payment linked to the active authorization and reads its instruction", async () => {
    const created = await provider.createAutomaticAuthorization({
      authorizationId: 'pxa_cycle',
      amountCents: 20_000,
      frequency: 'SEMANAL',
      startDate: saoPauloDay(new Date()),
      driver,
      qrExpiresAt: new Date(Date.now() + 3_600_000),
    });
    const dueDate = addCalendarDays(saoPauloDay(new Date()), 5);
    const request = {
      chargeId: 'chg_cycle',
      providerAuthorizationId: created.providerAuthorizationId,
      amountCents: 20_000,
      dueDate,
      driver,
    };
    // Not authorized yet: Asaas refuses the cycle.
    await expect(provider.createAutomaticCycle(request)).rejects.toBeInstanceOf(AsaasRequestError);
    fake.payAuthorizationQr(created.providerAuthorizationId);
    const cycle = await provider.createAutomaticCycle(request);
    expect(fake.calls.filter((c) => c.path === '/v3/payments').at(-1)?.body).toEqual({
      customer: fake.customers.find((c) => c.cpfCnpj === driver.cpfCnpj)?.id,
      billingType: 'PIX',
      value: 200,
      dueDate,
      description: pixAutomaticMessages.providerDescription,
      externalReference: 'chg_cycle',
      pixAutomaticAuthorizationId: created.providerAuthorizationId,
    });
    expect(cycle).toEqual({ providerChargeId: expect.stringMatching(/^pay_/) as string, instructionId: null });
    const instruction = fake.instructionOf(cycle.providerChargeId);
    fake.refuseInstruction(cycle.providerChargeId, 'MAXIMUM_AMOUNT_EXCEEDED');
    expect(await provider.getAutomaticInstruction(instruction.id)).toEqual({
      status: 'REFUSED',
      paymentId: cycle.providerChargeId,
      authorizationId: created.providerAuthorizationId,
      refusalReason: 'MAXIMUM_AMOUNT_EXCEEDED',
    });
    expect(await provider.getAutomaticInstruction('nao-existe')).toBe('missing');
    // The payment reports the authorization and the first Pix its QR Code.
    expect(await provider.getPayment(cycle.providerChargeId)).toMatchObject({ automaticAuthorizationId: created.providerAuthorizationId });
  });

  it('until Asaas enables Pix Automático on the account, its calls are refused (403)', async () => {
    fake.automaticEnabled = false;
    await expect(
      provider.createAutomaticAuthorization({
        authorizationId: 'pxa_off',
        amountCents: 10_000,
        frequency: 'MENSAL',
        startDate: '2026-11-27',
        driver,
        qrExpiresAt: new Date(Date.now() + 3_600_000),
      }),
    ).rejects.toMatchObject({ status: 403, descriptions: ['Você não possui permissão para utilizar este recurso'] });
  });

  it('is off with PIX_PROVIDER=asaas until the operator says Asaas enabled it', () => {
    const asaas = { ...TEST_ENV, PIX_PROVIDER: 'asaas', ASAAS_API_URL: fake.url, ASAAS_API_KEY: 'k' };
    expect(loadConfig(asaas).pix.automatic.enabled).toBe(false);
    expect(loadConfig({ ...asaas, PIX_AUTOMATIC_ENABLED: 'true' }).pix.automatic.enabled).toBe(true);
    expect(loadConfig(TEST_ENV).pix.automatic.enabled).toBe(true);
  });
});

describeEachDatabase('Pix Automático com PIX_PROVIDER=asaas, de ponta a ponta', (dialect) => {
  const ctx = useTestApp(dialect, {
    PIX_PROVIDER: 'asaas',
    ASAAS_API_URL: fake.url,
    ASAAS_API_KEY: 'chave-de-teste',
    ASAAS_TIMEOUT_MS: '2000',
    PIX_AUTOMATIC_ENABLED: 'true',
  });
  const app = () => ctx().app;
  const scheduler = () => new CycleScheduler(ctx().db, new AsaasPixProvider(config), createLogger('silent'));

  async function delivered(body: unknown, message: string = serverMessages.pix.webhookProcessed) {
    const res = await sendWebhook(app(), body);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).Mensagem, res.body).toBe(message);
  }

  /** A driver whose weekly authorization was authorized at the bank: its QR Code paid, both events delivered. */
  async function authorized(valor = 150): Promise<{ d: Registered; id: string; providerId: string }> {
    const d = await registerDriver(app());
    fake.automaticEnabled = true;
    const created = await createdAutomatic(app(), d, valor, 'SEMANAL');
    const row = await authorizationRow(ctx().db, created.id);
    const payment = fake.payAuthorizationQr(row.provider_authorization_id);
    await delivered(fake.paymentWebhook('PAYMENT_RECEIVED', payment.id));
    await delivered(fake.authorizationWebhook('PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED', row.provider_authorization_id));
    return { d, id: created.id, providerId: row.provider_authorization_id };
  }

  it("the first Pix names the QR Code: bound and credited once; each cycle's payment is sent, scheduled, debited and credited once", async () => {
    const { d, id, providerId } = await authorized(150);
    expect(await ownBalance(app(), d)).toBe(150);
    expect(authorizationOf(await automaticCalls.current(app(), d))).toMatchObject({
      estado: 'ATIVA',
      ciclos: [{ numero: 1, estado: 'PAGA' }],
    });
    // The same first payment delivered again, as CONFIRMED too: nothing more.
    const [first] = await cyclesOf(ctx().db, id);
    await delivered(fake.paymentWebhook('PAYMENT_CONFIRMED', first?.charge.provider_charge_id ?? ''));
    expect(await ownBalance(app(), d)).toBe(150);

    expect(await scheduler().run()).toMatchObject({ sent: 1, failed: 0 });
    const [, cycle] = await cyclesOf(ctx().db, id);
    if (!cycle) throw new Error('sem o ciclo');
    const payment = fake.payments.get(cycle.charge.provider_charge_id);
    expect(payment).toMatchObject({ externalReference: cycle.charge_id, pixAutomaticAuthorizationId: providerId, value: 150 });
    const instruction = fake.instructionOf(cycle.charge.provider_charge_id);
    await delivered(fake.instructionWebhook('PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_CREATED', instruction.id));
    expect((await cyclesOf(ctx().db, id))[1]?.instruction_id).toBe(instruction.id);
    fake.scheduleInstruction(cycle.charge.provider_charge_id);
    await delivered(fake.instructionWebhook('PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_SCHEDULED', instruction.id));
    fake.debit(cycle.charge.provider_charge_id);
    const confirmed = fake.paymentWebhook('PAYMENT_CONFIRMED', cycle.charge.provider_charge_id);
    await Promise.all([delivered(confirmed), delivered({ ...confirmed, id: 'evt_outra_entrega' })]);
    expect(await ownBalance(app(), d)).toBe(300);
    expect((await cyclesOf(ctx().db, id)).map((c) => c.status)).toEqual(['PAID', 'PAID']);
    await expectLedgerInvariant(ctx().db);
  });

  it("a refused instruction, confirmed by Asaas, is a notice and moves no money; Asaas's code is told in words", async () => {
    const { d, id } = await authorized(120);
    await scheduler().run();
    const [, cycle] = await cyclesOf(ctx().db, id);
    if (!cycle) throw new Error('sem o ciclo');
    const instruction = fake.instructionOf(cycle.charge.provider_charge_id);
    // The event says refused while Asaas does not: not believed.
    const early = fake.instructionWebhook('PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_REFUSED', instruction.id);
    await delivered(early, serverMessages.pix.webhookRecorded);
    expect((await cyclesOf(ctx().db, id))[1]?.status).toBe('SCHEDULED');
    fake.refuseInstruction(cycle.charge.provider_charge_id, 'MAXIMUM_AMOUNT_EXCEEDED');
    await delivered(fake.instructionWebhook('PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_REFUSED', instruction.id));
    expect(await ownBalance(app(), d)).toBe(120);
    const avisos = json<AttentionResponse>(
      await app().inject({ method: 'GET', url: '/api/motorista/avisos', headers: bearer(d.token) }),
    ).Avisos;
    const notice = avisos.find((n) => n.tipo === 'recarga-automatica-falhou');
    expect(notice?.Mensagem).toContain(`${pixAutomaticMessages.defaultRefusal} (MAXIMUM_AMOUNT_EXCEEDED)`);
  });

  it('cancelled in the bank app: believed only once Asaas says so', async () => {
    const { d, providerId } = await authorized();
    await delivered(
      fake.authorizationWebhook('PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED', providerId),
      serverMessages.pix.webhookRecorded,
    );
    expect(authorizationOf(await automaticCalls.current(app(), d)).estado).toBe('ATIVA');
    fake.cancelAtBank(providerId);
    await delivered(fake.authorizationWebhook('PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED', providerId));
    expect(authorizationOf(await automaticCalls.current(app(), d))).toMatchObject({
      estado: 'CANCELADA',
      motivoEncerramento: pixAutomaticMessages.endReasons.bank,
    });
  });

  it('a payment naming our QR Code with another value is not the first Pix: nothing credited', async () => {
    const d = await registerDriver(app());
    const created = await createdAutomatic(app(), d, 150, 'MENSAL');
    const row = await authorizationRow(ctx().db, created.id);
    const payment = fake.payAuthorizationQr(row.provider_authorization_id);
    payment.value = 1.5;
    await delivered(fake.paymentWebhook('PAYMENT_RECEIVED', payment.id), serverMessages.pix.webhookRecorded);
    expect(await ownBalance(app(), d)).toBe(0);
  });

  it('the portal cancels at Asaas: the authorization there is CANCELLED, and its own event changes nothing more', async () => {
    const { d, id, providerId } = await authorized();
    authorizationOf(await automaticCalls.cancel(app(), d, id));
    expect(fake.authorizations.get(providerId)?.status).toBe('CANCELLED');
    await delivered(fake.authorizationWebhook('PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED', providerId));
    expect(await authorizationRow(ctx().db, id)).toMatchObject({ status: 'CANCELLED', end_reason: 'driver' });
  });
});

describeEachDatabase('Pix Automático desligado (PIX_AUTOMATIC_ENABLED=false)', (dialect) => {
  const ctx = useTestApp(dialect, { PIX_AUTOMATIC_ENABLED: 'false' });
  it('says it is unavailable and refuses to create one, changing nothing', async () => {
    const d = await registerDriver(ctx().app);
    expect(json(await automaticCalls.current(ctx().app, d))).toMatchObject({ Disponivel: false, RecargaAutomatica: null });
    const res = await automaticCalls.create(ctx().app, d, { valor: 150, frequencia: 'MENSAL' });
    expect(res.statusCode).toBe(409);
    expect(json(res).Mensagem).toBe(pixAutomaticMessages.unavailable);
    expect(await ctx().db.kysely.selectFrom('pix_automatic_authorizations').select('id').execute()).toEqual([]);
  });
});
