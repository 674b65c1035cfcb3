import { randomUUID } from 'node:crypto';
import type { PushPayload } from '@portal/contract';
import {
  formatBrl,
  notificationTexts,
  pixKeyDisplay,
  previousBillingPeriod,
  billingPeriod,
  pushSubscriptionMessages,
} from '@portal/domain';
import { cnpj } from 'cpf-cnpj-validator';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { DEV_VAPID_SUBJECT } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import type { DrainReport } from '../../../src/modules/notifications/dispatcher.js';
import { RETRY_BASE_MS } from '../../../src/modules/notifications/dispatcher.js';
import { enqueueNotification, PASSAGE_GROUP_MS } from '../../../src/modules/notifications/outbox.js';
import { PartnerService } from '../../../src/modules/partners/service.js';
import { createServices } from '../../../src/services.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { createCharge, FakePixProvider, fund, paymentEvent, sendWebhook } from '../../helpers/pix.js';
import type { TestDevice } from '../../helpers/push-service.js';
import { TestPushService } from '../../helpers/push-service.js';
import { actions, activeTag, registerTag, SEMPARAR } from '../../helpers/tags.js';
import type { RegisteredTag } from '../../helpers/tags.js';
import { minutes, spAt } from '../../helpers/vpos.js';

const SUBSCRIPTION_URL = '/api/motorista/notificacoes/inscricao';
const MAX_ATTEMPTS = 3;

/**
 * Issue 25 / decision 57: what the driver's devices receive, read as a browser reads it: a push
 * service on 127.0.0.1 checks the VAPID token and decrypts each message with the device's own keys
 * (RFC 8291). Events go through the real calls; the outbox is drained as the server's loop does.
 */
describeEachDatabase('Notificações push', (dialect) => {
  const provider = new FakePixProvider();
  const t = useTestApp(dialect, { PUSH_MAX_ATTEMPTS: String(MAX_ATTEMPTS) }, { pixProvider: provider });
  const app = () => t().app;
  const db = () => t().db;
  const push = new TestPushService();
  let operatorKey: string | null = null;

  beforeAll(() => push.start());
  afterAll(() => push.stop());
  beforeEach(() => {
    provider.payout = 'DONE';
    push.delayMs = 0;
  });

  /** What runs in the server's loop, over the same database (another instance's services would be the same). */
  const services = (now?: () => Date) => createServices(t().config, db(), createLogger('silent'), now ? { now } : {});
  const drain = (at: Date = new Date()): Promise<DrainReport> => services().pushDispatcher.drain(at);
  const later = (ms: number) => new Date(Date.now() + ms);
  /** Everything waiting is sent (or dropped: no device yet), passages' minute included. */
  const settle = () => drain(later(PASSAGE_GROUP_MS + 5_000));

  const subscribe = (d: Registered, body: unknown) =>
    app().inject({ method: 'PUT', url: SUBSCRIPTION_URL, headers: bearer(d.token), payload: body as Record<string, unknown> });
  const unsubscribe = (d: Registered, endpoint: string) =>
    app().inject({ method: 'DELETE', url: SUBSCRIPTION_URL, headers: bearer(d.token), payload: { endpoint } });
  /** A driver's new device, subscribed through the API once whatever happened before was sent. */
  async function device(d: Registered): Promise<TestDevice> {
    await settle();
    const dev = push.device();
    const res = await subscribe(d, dev.subscription);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toEqual({ Sucesso: true, Mensagem: pushSubscriptionMessages.saved });
    return dev;
  }
  const payloads = (dev: TestDevice) => dev.received.filter((r) => r.status < 300).map((r) => r.payload as PushPayload);
  const subscriptions = () => db().kysely.selectFrom('push_subscriptions').select(['driver_id', 'endpoint', 'session_id']).execute();

  async function operator(): Promise<string> {
    operatorKey ??= (await new PartnerService(db()).create('operator', 'SemParar Push', SEMPARAR)).key;
    return operatorKey;
  }
  async function passed(tag: RegisteredTag, value: number, placeName: string, at = spAt(-minutes(1))): Promise<string> {
    const externalId = `pas-${randomUUID()}`;
    const res = await app().inject({
      method: 'POST',
      url: '/api/parceiro/passagens',
      headers: { 'x-api-key': await operator() },
      payload: { externalId, serialNumber: tag.serial, placeName, value, occurredAt: at, is_third: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    return externalId;
  }
  /** A driver with an active tag: Saldo R$ 84,10 (R$ 100,00 bought, the first month's fee paid). */
  async function driverWithTag(): Promise<Registered & { tag: RegisteredTag }> {
    const d = await registerDriver(app());
    return { ...d, tag: await activeTag(app(), d, { Operadora: SEMPARAR }) };
  }

  it('a monthly fee that takes Saldo below the alert level is told as a passage would', async () => {
    const d = await driverWithTag();
    // Saldo R$ 84,10 -> R$ 64,10 by a passage (above the R$ 50,00 alert), told and sent first.
    await passed(d.tag, 20, 'Praça Cajamar');
    const dev = await device(d);
    expect(payloads(dev)).toEqual([]);
    // The second tag's first month (R$ 15,90) leaves R$ 48,20: below the alert level, by a fee.
    const second = await registerTag(app(), d, { Operadora: SEMPARAR });
    const res = await actions.activate(app(), d, second.serial, second.plate);
    expect(res.statusCode, res.body).toBe(200);
    await settle();
    expect(payloads(dev)).toEqual([
      {
        titulo: notificationTexts.balanceBelowAlertTitle,
        corpo: notificationTexts.balanceBelowAlertBody(formatBrl(4_820), formatBrl(5_000)),
        url: '/saldo/comprar',
        tag: 'saldo',
        enviadaEm: expect.any(String),
        topicos: ['balance', 'notices'],
      },
    ]);
  });

  it('the public key, a device subscribed through the API, a Pix received: decrypted as the browser does, opening its receipt', async () => {
    const d = await registerDriver(app());
    const key = await app().inject({ method: 'GET', url: '/api/motorista/notificacoes/chave', headers: bearer(d.token) });
    expect(key.statusCode, key.body).toBe(200);
    const publicKey = json<{ ChavePublica: string }>(key).ChavePublica;
    const point = Buffer.from(publicKey, 'base64url');
    expect([point.length, point[0]]).toEqual([65, 4]);
    const dev = await device(d);

    const charge = await createCharge(app(), d, 150);
    const event = paymentEvent('PAYMENT_RECEIVED', charge);
    expect((await sendWebhook(app(), event)).statusCode).toBe(200);
    // The webhook's answer never waited for a push: nothing was sent yet.
    expect(dev.received).toEqual([]);

    expect(await drain()).toMatchObject({ notifications: 1, sent: 1, failed: 0, gone: 0 });
    expect(push.errors).toEqual([]);
    expect(dev.received).toHaveLength(1);
    const [got] = dev.received;
    expect(got?.payload).toEqual({
      titulo: 'Pix recebido',
      corpo: 'R$\u00a0150,00 entraram no seu saldo de pedágio.',
      url: `/comprovantes/compra/${charge.id}`,
      tag: `pix-${charge.id}`,
      enviadaEm: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      topicos: ['balance', 'statement', 'notices'],
    });
    // Signed with the key the device subscribed with, for the push service's origin (checked by the service).
    expect(got).toMatchObject({ vapidKey: publicKey, jwt: { sub: DEV_VAPID_SUBJECT }, ttl: '86400', urgency: 'normal' });

    // Asaas delivers the same event again: credited once, told once.
    expect((await sendWebhook(app(), event)).statusCode).toBe(200);
    expect(await drain()).toMatchObject({ notifications: 0 });
    const rows = await db().kysely.selectFrom('notification_outbox').select('dedupe_key').where('driver_id', '=', d.id).execute();
    expect(rows.filter((r) => r.dedupe_key === `pixReceived:${charge.id}`)).toHaveLength(1);
    expect(dev.received).toHaveLength(1);
  });

  it('a passage waits its minute; three within a minute are one notification with their places; the alert level is told once per crossing', async () => {
    const d = await driverWithTag();
    const dev = await device(d);

    await passed(d.tag, 7.4, 'Praça Louveira (SP-348)');
    expect(await drain()).toMatchObject({ notifications: 0 });
    await drain(later(PASSAGE_GROUP_MS + 1_000));
    expect(payloads(dev)).toEqual([
      {
        titulo: notificationTexts.passageTitle,
        corpo: 'Praça Louveira (SP-348): R$\u00a07,40 debitados do seu saldo de pedágio.',
        url: '/extrato/listar',
        tag: 'passagens',
        enviadaEm: expect.any(String),
        topicos: ['balance', 'statement', 'tags', 'vpos', 'notices'],
      },
    ]);

    await passed(d.tag, 5, 'Praça Itupeva', spAt(-minutes(3)));
    await passed(d.tag, 6.5, 'Praça Jundiaí', spAt(-minutes(2)));
    await passed(d.tag, 8, 'Praça Campo Limpo', spAt(-minutes(1)));
    await drain(later(PASSAGE_GROUP_MS + 1_000));
    expect(payloads(dev)).toHaveLength(2);
    expect(payloads(dev)[1]).toMatchObject({
      titulo: '3 passagens: R$\u00a019,50',
      corpo:
        'Praça Itupeva (R$\u00a05,00), Praça Jundiaí (R$\u00a06,50), Praça Campo Limpo (R$\u00a08,00). Debitadas do seu saldo de pedágio.',
      url: '/extrato/listar',
      tag: 'passagens',
    });

    // Saldo R$ 57,20: the next passage takes it below the default alert level (R$ 50,00), once.
    await passed(d.tag, 10, 'Praça Valinhos');
    await passed(d.tag, 2, 'Praça Vinhedo');
    await drain(later(PASSAGE_GROUP_MS + 1_000));
    const alerts = payloads(dev).filter((p) => p.tag === 'saldo');
    expect(alerts).toEqual([
      {
        titulo: notificationTexts.balanceBelowAlertTitle,
        corpo: notificationTexts.balanceBelowAlertBody(formatBrl(4_720), formatBrl(5_000)),
        url: '/saldo/comprar',
        tag: 'saldo',
        enviadaEm: expect.any(String),
        topicos: ['balance', 'notices'],
      },
    ]);
    // Below zero is another crossing, said as such.
    await passed(d.tag, 50, 'Praça Sumaré');
    await drain(later(PASSAGE_GROUP_MS + 1_000));
    const negative = payloads(dev).filter((p) => p.tag === 'saldo');
    expect(negative).toHaveLength(2);
    expect(negative[1]).toMatchObject({ titulo: 'Saldo negativo', corpo: notificationTexts.balanceNegativeBody(formatBrl(-480)) });
    expect(dev.received.find((r) => (r.payload as PushPayload).tag === 'saldo')?.urgency).toBe('high');
  });

  it('a Pix key saved, a withdrawal done and one returned: each opens its screen', async () => {
    const d = await registerDriver(app());
    await fund(app(), d, 200);
    const dev = await device(d);

    const saved = await app().inject({
      method: 'POST',
      url: '/api/motorista/chaves-pix',
      headers: bearer(d.token),
      payload: { tipo: 'EMAIL', chave: 'maria.souza@exemplo.com.br', senha: d.password },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const withdraw = () =>
      app().inject({
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: bearer(d.token),
        payload: {
          description: 'Saque',
          receiver_document: d.cpfCnpj,
          senha: d.password,
          amount: 30,
          pix: { type: 'CPF', key: d.cpfCnpj },
        },
      });
    const done = await withdraw();
    expect(done.statusCode, done.body).toBe(200);
    provider.payout = { reject: 'Chave Pix não encontrada.' };
    const returned = await withdraw();
    expect(returned.statusCode, returned.body).toBe(502);
    const ids = (
      await db().kysely.selectFrom('withdrawals').select(['id', 'status']).where('driver_id', '=', d.id).orderBy('created_at').execute()
    ).map((w) => w.id);

    await drain();
    expect(payloads(dev)).toEqual([
      {
        titulo: 'Nova chave Pix salva',
        corpo: notificationTexts.pixKeySavedBody(pixKeyDisplay('EMAIL', 'maria.souza@exemplo.com.br')),
        url: '/configuracoes',
        tag: expect.stringMatching(/^chave-pix-\d+$/),
        enviadaEm: expect.any(String),
        topicos: ['pixKeys', 'notices'],
      },
      {
        titulo: 'Saque concluído',
        corpo: 'Seu saque de R$\u00a030,00 foi enviado para a sua chave Pix.',
        url: `/comprovantes/saque/${ids[0]}`,
        tag: `saque-${ids[0]}`,
        enviadaEm: expect.any(String),
        topicos: ['statement', 'withdrawals', 'notices'],
      },
      {
        titulo: 'Saque devolvido',
        corpo: notificationTexts.withdrawalReturnedBody(formatBrl(3_000)),
        url: `/comprovantes/saque/${ids[1]}`,
        tag: `saque-${ids[1]}`,
        enviadaEm: expect.any(String),
        topicos: ['balance', 'statement', 'withdrawals', 'notices'],
      },
    ]);
    expect(JSON.stringify(payloads(dev))).not.toContain('maria.souza');
  });

  it('a contest answered, a VPO received and running short, a tag blocked for its fee', async () => {
    const d = await driverWithTag();
    const dev = await device(d);

    const externalId = await passed(d.tag, 23.5, 'Praça Campo Limpo (SP-330)');
    const passage = await db().kysely.selectFrom('passages').select('id').where('external_id', '=', externalId).executeTakeFirstOrThrow();
    const opened = await app().inject({
      method: 'POST',
      url: '/api/motorista/contestacoes',
      headers: bearer(d.token),
      payload: { passagemId: passage.id, motivo: 'CATEGORIA' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const contestId = json<{ Contestacao: { id: number } }>(opened).Contestacao.id;
    const answered = await app().inject({
      method: 'POST',
      url: `/api/parceiro/contestacoes/${contestId}/resposta`,
      headers: { 'x-api-key': await operator() },
      payload: { decisao: 'ACEITA', valor: 9.6, motivo: 'Categoria corrigida para 2 eixos' },
    });
    expect(answered.statusCode, answered.body).toBe(200);

    const shipper = await new PartnerService(db()).create('shipper', 'Transportes Boa Viagem Ltda');
    const vpo = await app().inject({
      method: 'POST',
      url: '/api/parceiro/vpos',
      headers: { 'x-api-key': shipper.key },
      payload: {
        externalId: `vpo-${randomUUID()}`,
        serialNumber: d.tag.serial,
        PlacaVeiculo: d.tag.plate,
        CpfCnpjEmbarcador: cnpj.generate(),
        ValorTotalVP: 10,
        inicioViagem: spAt(-minutes(120)),
        fimViagem: spAt(minutes(600)),
      },
    });
    expect(vpo.statusCode, vpo.body).toBe(201);
    const vpoId = Number(json<{ id: string }>(vpo).id);
    // R$ 15,00 with R$ 10,00 of VPO: R$ 5,00 from Saldo.
    await passed(d.tag, 15, 'Praça Jundiaí');

    await settle();
    const got = payloads(dev);
    expect(got.find((p) => p.url === '/contestacoes')).toMatchObject({
      titulo: 'Contestação aceita',
      // Issue 33: the push says where the money went (the passage was paid from Saldo).
      corpo: notificationTexts.contestAcceptedPartsBody(`Devolvido ao seu saldo: ${formatBrl(960)}`),
      tag: `contestacao-${contestId}`,
      topicos: ['balance', 'statement', 'contests', 'vpos', 'notices'],
    });
    expect(got.filter((p) => p.tag === `vpo-${vpoId}`)).toEqual([
      {
        titulo: 'VPO recebido',
        corpo: 'Transportes Boa Viagem Ltda enviou um Vale-Pedágio de R$\u00a010,00 para a sua viagem.',
        url: '/vpos/listar',
        tag: `vpo-${vpoId}`,
        enviadaEm: expect.any(String),
        topicos: ['statement', 'vpos', 'notices'],
      },
      {
        titulo: 'Vale-Pedágio acabando',
        corpo: notificationTexts.vpoRunningShortBody('Transportes Boa Viagem Ltda', formatBrl(500)),
        url: '/vpos/listar',
        tag: `vpo-${vpoId}`,
        enviadaEm: expect.any(String),
        topicos: ['balance', 'statement', 'vpos', 'notices'],
      },
    ]);
    // The two passages of the minute, one notification: the second took R$ 5,00 of Saldo (the VPO paid the rest).
    expect(got.filter((p) => p.tag === 'passagens').map((p) => [p.titulo, p.corpo])).toEqual([
      [
        '2 passagens: R$\u00a028,50',
        'Praça Campo Limpo (SP-330) (R$\u00a023,50), Praça Jundiaí (R$\u00a05,00). Debitadas do seu saldo de pedágio.',
      ],
    ]);

    // A tag activated last month, Saldo withdrawn to zero: this month's billing blocks it.
    const b = await registerDriver(app());
    const bTag = await registerTag(app(), b, { Operadora: SEMPARAR });
    await fund(app(), b, 100);
    const lastMonth = new Date(`${previousBillingPeriod(billingPeriod(new Date()))}-15T12:00:00-03:00`);
    await services(() => lastMonth).tags.activate(
      { id: b.id, cpfCnpj: b.cpfCnpj },
      { serialNumber: bTag.serial, licensePlate: bTag.plate, cnpj: b.cpfCnpj },
    );
    const withdrawn = await app().inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(b.token),
      payload: {
        description: 'Saque',
        receiver_document: b.cpfCnpj,
        senha: b.password,
        amount: 84.1,
        pix: { type: 'CPF', key: b.cpfCnpj },
      },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const bDev = await device(b);
    expect(await services().billing.run(new Date())).toMatchObject({ blocked: 1 });
    await drain();
    expect(payloads(bDev)).toEqual([
      {
        titulo: 'Tag bloqueada',
        corpo: notificationTexts.tagBlockedBody(bTag.plate),
        url: `/tags/detalhes/${bTag.plate}`,
        tag: `tag-${bTag.plate}`,
        enviadaEm: expect.any(String),
        topicos: ['balance', 'statement', 'tags', 'notices'],
      },
    ]);
    expect(bDev.received[0]?.urgency).toBe('high');
    // Nothing of one driver reached the other's device.
    expect(payloads(dev).some((p) => p.tag === `tag-${bTag.plate}`)).toBe(false);
  });

  it('a 410 removes the device; a 500 is retried after its backoff and sent once; the last attempt gives up and says why', async () => {
    const d = await registerDriver(app());
    const gone = await device(d);
    const flaky = await device(d);
    const healthy = await device(d);
    gone.answers.push(410);
    flaky.answers.push(500);
    await fund(app(), d, 100);
    const now = Date.now();
    expect(await drain(new Date(now))).toMatchObject({ notifications: 1, sent: 1, failed: 1, gone: 1, gaveUp: 0 });
    expect(
      (await subscriptions())
        .filter((s) => s.driver_id === d.id)
        .map((s) => s.endpoint)
        .sort(),
    ).toEqual([flaky.endpoint, healthy.endpoint].sort());
    const row = () =>
      db()
        .kysely.selectFrom('notification_outbox')
        .selectAll()
        .where('driver_id', '=', d.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ attempts: 1, sent_at: null, last_error: 'HTTP 500' });

    // Not before its backoff; then only to the device it did not reach.
    expect(await drain(new Date(now + RETRY_BASE_MS - 1_000))).toMatchObject({ notifications: 0 });
    expect(await drain(new Date(now + RETRY_BASE_MS + 1_000))).toMatchObject({ notifications: 1, sent: 1, failed: 0 });
    expect(payloads(flaky)).toHaveLength(1);
    expect(payloads(healthy)).toHaveLength(1);
    expect(payloads(gone)).toHaveLength(0);
    expect((await row()).sent_at).not.toBeNull();
    expect(await drain(new Date(now + 10 * RETRY_BASE_MS))).toMatchObject({ notifications: 0 });
    expect(payloads(flaky)).toHaveLength(1);

    // A push service that keeps failing: MAX_ATTEMPTS tries, with growing waits, then given up.
    await db().kysely.deleteFrom('push_subscriptions').where('endpoint', '=', healthy.endpoint).execute();
    flaky.answers.push(503, 503, 503);
    await fund(app(), d, 120);
    let at = Date.now();
    const reports: DrainReport[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      reports.push(await drain(new Date(at)));
      at += RETRY_BASE_MS * 2 ** (attempt - 1) + 1_000;
    }
    expect(reports.map((r) => [r.failed, r.gaveUp])).toEqual([
      [1, 0],
      [1, 0],
      [1, 1],
    ]);
    expect(await row()).toMatchObject({ attempts: MAX_ATTEMPTS, sent_at: null, last_error: 'HTTP 503' });
    expect((await row()).gave_up_at).not.toBeNull();
    expect(await drain(new Date(at + 86_400_000))).toMatchObject({ notifications: 0 });
    expect(flaky.received.map((r) => r.status)).toEqual([500, 201, 503, 503, 503]);
  });

  it('every push names what its event changed: the Recarga automática cancelled by the bank, a cycle paid or refused', async () => {
    const d = await registerDriver(app());
    const dev = await device(d);
    await db()
      .kysely.transaction()
      .execute(async (trx) => {
        await enqueueNotification(trx, d.id, { kind: 'pixAutoAuthorizationCancelled', authorizationId: 'aut_1' });
        await enqueueNotification(trx, d.id, { kind: 'pixAutoCyclePaid', cycleId: 'chg_c1', amountCents: 15_000, receiptId: 'chg_c1' });
        await enqueueNotification(trx, d.id, { kind: 'pixAutoCycleFailed', cycleId: 'chg_c2', reason: 'Saldo insuficiente' });
      });
    await drain();
    expect(payloads(dev).map((p) => [p.titulo, p.topicos])).toEqual([
      [notificationTexts.pixAutoCancelledTitle, ['automatic', 'notices']],
      [notificationTexts.pixAutoCyclePaidTitle, ['balance', 'statement', 'automatic', 'notices']],
      [notificationTexts.pixAutoCycleFailedTitle, ['automatic', 'notices']],
    ]);
  });

  it('an event rolled back sends nothing', async () => {
    const d = await registerDriver(app());
    const dev = await device(d);
    await expect(
      db()
        .kysely.transaction()
        .execute(async (trx) => {
          await enqueueNotification(trx, d.id, { kind: 'pixReceived', chargeId: 'desfeita', amountCents: 1_000 });
          throw new Error('o evento falhou depois');
        }),
    ).rejects.toThrow('o evento falhou depois');
    await settle();
    expect(dev.received).toEqual([]);
    expect(
      await db().kysely.selectFrom('notification_outbox').select('id').where('dedupe_key', '=', 'pixReceived:desfeita').execute(),
    ).toEqual([]);
  });

  it("'Sair' removes this device only; another driver cannot remove mine; a device removed hears nothing", async () => {
    const d = await registerDriver(app());
    const other = await registerDriver(app());
    const phone = await device(d);
    // The same driver signed in on a tablet: another session, another device.
    const login = await app().inject({
      method: 'POST',
      url: '/api/tokens/login-motorista',
      payload: { cpfCnpj: d.cpfCnpj, password: d.password },
    });
    expect(login.statusCode, login.body).toBe(200);
    const tablet = { ...d, token: json<{ Token: string }>(login).Token };
    const tabletDev = await device(tablet);

    const refused = await unsubscribe(other, phone.endpoint);
    expect(refused.statusCode, refused.body).toBe(200);
    expect((await subscriptions()).filter((s) => s.driver_id === d.id)).toHaveLength(2);

    const out = await app().inject({ method: 'POST', url: '/api/tokens/logout', headers: bearer(d.token) });
    expect(out.statusCode, out.body).toBe(200);
    expect((await subscriptions()).filter((s) => s.driver_id === d.id).map((s) => s.endpoint)).toEqual([tabletDev.endpoint]);

    await fund(app(), tablet, 100);
    await drain();
    expect(phone.received).toEqual([]);
    expect(payloads(tabletDev).map((p) => p.titulo)).toEqual(['Pix recebido']);

    // Turned off in the tablet's settings: removed, and removing it again is fine.
    for (let i = 0; i < 2; i += 1) {
      const off = await unsubscribe(tablet, tabletDev.endpoint);
      expect(off.statusCode, off.body).toBe(200);
      expect(json(off)).toEqual({ Sucesso: true, Mensagem: pushSubscriptionMessages.removed });
    }
    expect((await subscriptions()).filter((s) => s.driver_id === d.id)).toEqual([]);
  });

  it('a subscription that is not a browser push service, or whose keys are broken, is a 422 in Portuguese that changes nothing', async () => {
    const d = await registerDriver(app());
    const good = push.device().subscription;
    const before = await subscriptions();
    const cases: [unknown, string, string][] = [
      [{ ...good, endpoint: 'ftp://127.0.0.1/push' }, 'endpoint', pushSubscriptionMessages.endpointInvalid],
      [{ ...good, endpoint: 'http://push.example.com/x' }, 'endpoint', pushSubscriptionMessages.endpointInvalid],
      [{ ...good, endpoint: `https://127.0.0.1/${'a'.repeat(1_001)}` }, 'endpoint', pushSubscriptionMessages.endpointInvalid],
      [{ ...good, endpoint: 42 }, 'endpoint', pushSubscriptionMessages.endpointInvalid],
      [{ keys: good.keys }, 'endpoint', pushSubscriptionMessages.endpointInvalid],
      [{ ...good, keys: { ...good.keys, p256dh: 'abc' } }, 'keys.p256dh', pushSubscriptionMessages.keyInvalid],
      [{ ...good, keys: { ...good.keys, p256dh: good.keys.auth } }, 'keys.p256dh', pushSubscriptionMessages.keyInvalid],
      [{ ...good, keys: { ...good.keys, auth: 'c2hvcnQ' } }, 'keys.auth', pushSubscriptionMessages.keyInvalid],
      [{ endpoint: good.endpoint }, 'keys.p256dh', pushSubscriptionMessages.keyInvalid],
      [{ endpoint: good.endpoint, keys: 'x' }, 'keys.auth', pushSubscriptionMessages.keyInvalid],
      // Well formed, but not a push service the portal sends to.
      [{ ...good, endpoint: 'https://intranet.example.com/push/1' }, 'endpoint', pushSubscriptionMessages.serviceNotAccepted],
    ];
    for (const [body, field, message] of cases) {
      const res = await subscribe(d, body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(422);
      const answer = json<{ Sucesso: boolean; errors: Record<string, string[]> }>(res);
      expect(answer.Sucesso).toBe(false);
      expect(answer.errors[field], JSON.stringify(answer)).toEqual([message]);
    }
    expect((await unsubscribe(d, 'javascript:alert(1)')).statusCode).toBe(422);
    expect(await subscriptions()).toEqual(before);
    // Without a session: 401, whatever the body.
    expect((await app().inject({ method: 'PUT', url: SUBSCRIPTION_URL, payload: good })).statusCode).toBe(401);
  });
});
