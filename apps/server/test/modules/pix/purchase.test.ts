import { messages, PIX_CHARGE_TTL_MINUTES, serverMessages, STATEMENT_ORIGINS } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import {
  createCharge,
  entriesOf,
  expectLedgerInvariant,
  FakePixProvider,
  ownBalance,
  paymentEvent,
  sendWebhook,
  WEBHOOK_TOKEN,
} from '../../helpers/pix.js';

describeEachDatabase('compra de saldo por Pix', (dialect) => {
  const provider = new FakePixProvider();
  const ctx = useTestApp(dialect, {}, { pixProvider: provider });
  const app = () => ctx().app;
  const db = () => ctx().db;

  const buy = (d: Registered, payload: Record<string, unknown>) =>
    app().inject({
      method: 'POST',
      url: '/api/transacoes/gerar-qrcode',
      headers: bearer(d.token),
      payload: { cpfCnpj: d.cpfCnpj, project: 'VPO', ...payload },
    });
  const charge = async (id: string) => db().kysely.selectFrom('pix_charges').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const chargeCount = async (d: Registered) =>
    (await db().kysely.selectFrom('pix_charges').select('id').where('driver_id', '=', d.id).execute()).length;

  describe('POST /api/transacoes/gerar-qrcode', () => {
    it('creates a PENDING charge with a BR Code that expires in 60 minutes', async () => {
      const d = await registerDriver(app());
      const before = Date.now();
      const res = await buy(d, { valor: 150 });
      expect(res.statusCode).toBe(200);
      const body = json<{ Sucesso: boolean; Mensagem: string; qrCode: Record<string, unknown> }>(res);
      expect(body).toMatchObject({ Sucesso: true, Mensagem: 'Pix gerado com sucesso!', qrCode: { valor: 150, status: 'PENDING' } });
      const qr = body.qrCode as { id: string; payload: string; expiresAt: string; createdAt: string };
      expect(qr.id).toMatch(/^chg_[0-9a-f]{20}$/);
      expect(qr.payload.startsWith('000201')).toBe(true);
      expect(new Date(qr.expiresAt).getTime() - new Date(qr.createdAt).getTime()).toBe(PIX_CHARGE_TTL_MINUTES * 60_000);
      expect(new Date(qr.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
      const row = await charge(qr.id);
      expect(row).toMatchObject({
        driver_id: d.id,
        provider: 'local',
        provider_charge_id: `local_${qr.id}`,
        status: 'PENDING',
        payload: qr.payload,
      });
      expect(Number(row.amount_cents)).toBe(15_000);
      expect(provider.charges.at(-1)).toMatchObject({
        chargeId: qr.id,
        amountCents: 15_000,
        driver: { cpfCnpj: d.cpfCnpj, name: 'Maria das Graças Souza' },
      });
    });

    it('re-checks the amount rules with the spec messages; nothing is stored', async () => {
      const d = await registerDriver(app());
      const cases: [number, string][] = [
        [0, messages.purchase.amountRequired],
        [-5, messages.purchase.amountRequired],
        [99.99, messages.purchase.belowMinimum],
        [100.001, messages.purchase.valueInvalid],
        [50_000.01, messages.purchase.aboveMaximum],
      ];
      for (const [valor, message] of cases) {
        const res = await buy(d, { valor });
        expect(res.statusCode, String(valor)).toBe(422);
        expect(json(res)).toEqual({ Sucesso: false, Mensagem: message, errors: { valor: [message] } });
      }
      expect(message(await buy(d, { valor: 'cem' }))).toBe(messages.purchase.amountRequired);
      expect(await chargeCount(d)).toBe(0);
      expect((await buy(d, { valor: 100 })).statusCode).toBe(200);
      expect((await buy(d, { valor: 50_000 })).statusCode).toBe(200);
    });

    it("accepts the driver's own document masked, refuses another one (403)", async () => {
      const d = await registerDriver(app());
      const masked = d.cpfCnpj.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
      expect((await buy(d, { valor: 120, cpfCnpj: masked })).statusCode).toBe(200);
      const other = await buy(d, { valor: 120, cpfCnpj: '11144477735' });
      expect(other.statusCode).toBe(403);
      expect(json(other)).toEqual({ Sucesso: false, Mensagem: serverMessages.pix.notYourDocument });
    });

    it('502 when the provider fails, nothing stored; 401 without a session', async () => {
      const d = await registerDriver(app());
      provider.failCharges = true;
      try {
        const res = await buy(d, { valor: 150 });
        expect(res.statusCode).toBe(502);
        expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.pix.providerUnavailable });
      } finally {
        provider.failCharges = false;
      }
      expect(await chargeCount(d)).toBe(0);
      const anon = await app().inject({
        method: 'POST',
        url: '/api/transacoes/gerar-qrcode',
        payload: { valor: 150, cpfCnpj: d.cpfCnpj, project: 'VPO' },
      });
      expect(anon.statusCode).toBe(401);
    });
  });

  describe('GET /api/transacoes/qrcode/:id', () => {
    it("answers the driver's own charge; another driver's or an unknown one is 404", async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      const res = await app().inject({ method: 'GET', url: `/api/transacoes/qrcode/${c.id}`, headers: bearer(d.token) });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toMatchObject({
        Sucesso: true,
        Mensagem: messages.pix.chargeStatus.PENDING,
        qrCode: { id: c.id, status: 'PENDING', valor: 150 },
      });
      const other = await registerDriver(app());
      for (const [who, id] of [
        [other, c.id],
        [d, 'chg_00000000000000000000'],
      ] as const) {
        const r = await app().inject({ method: 'GET', url: `/api/transacoes/qrcode/${id}`, headers: bearer(who.token) });
        expect(r.statusCode).toBe(404);
        expect(json(r)).toEqual({ Sucesso: false, Mensagem: serverMessages.pix.chargeNotFound });
      }
    });

    it('a PENDING charge past its time reads as OVERDUE and is marked so', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      await db()
        .kysely.updateTable('pix_charges')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', c.id)
        .execute();
      const res = await app().inject({ method: 'GET', url: `/api/transacoes/qrcode/${c.id}`, headers: bearer(d.token) });
      expect(json(res)).toMatchObject({ Mensagem: messages.pix.chargeStatus.OVERDUE, qrCode: { status: 'OVERDUE' } });
      expect((await charge(c.id)).status).toBe('OVERDUE');
    });

    it('an expired charge is cancelled at the provider once; a payment that arrives anyway is credited once and shown', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      const row = await charge(c.id);
      await db()
        .kysely.updateTable('pix_charges')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', c.id)
        .execute();
      for (let i = 0; i < 2; i++) await app().inject({ method: 'GET', url: `/api/transacoes/qrcode/${c.id}`, headers: bearer(d.token) });
      expect(provider.cancelled.filter((id) => id === row.provider_charge_id)).toHaveLength(1);
      expect((await charge(c.id)).provider_cancelled_at).not.toBeNull();
      for (let i = 0; i < 2; i++)
        expect(json(await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c)))).toMatchObject({
          Mensagem: serverMessages.pix.webhookProcessed,
        });
      const shown = await app().inject({ method: 'GET', url: `/api/transacoes/qrcode/${c.id}`, headers: bearer(d.token) });
      expect(json(shown)).toMatchObject({ Mensagem: messages.pix.chargeStatus.RECEIVED, qrCode: { status: 'RECEIVED' } });
      expect(await ownBalance(app(), d)).toBe(150);
      expect(await entriesOf(db(), d.id)).toHaveLength(1);
    });
  });

  describe('POST /api/webhooks/asaas', () => {
    it('401 without the token or with a wrong one; nothing changes', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      const event = paymentEvent('PAYMENT_RECEIVED', c);
      const wrongSameLength = WEBHOOK_TOKEN.replace(/.$/, (ch) => (ch === 'x' ? 'y' : 'x'));
      for (const token of [null, '', 'errado', wrongSameLength, `${WEBHOOK_TOKEN} `]) {
        const res = await sendWebhook(app(), event, token);
        expect(res.statusCode, String(token)).toBe(401);
        expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.pix.webhookUnauthorized });
      }
      // Even a malformed body is refused for its missing token first.
      expect((await sendWebhook(app(), { nada: 1 }, null)).statusCode).toBe(401);
      expect(await ownBalance(app(), d)).toBe(0);
      expect((await charge(c.id)).status).toBe('PENDING');
    });

    it('malformed bodies are 4xx and change nothing', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      for (const body of [
        {},
        { event: 'PAYMENT_RECEIVED' },
        { event: 'PAYMENT_RECEIVED', payment: { id: `local_${c.id}` } },
        { event: 'PAYMENT_RECEIVED', payment: { id: 1, value: '150' } },
      ]) {
        const res = await sendWebhook(app(), body);
        expect(res.statusCode, JSON.stringify(body)).toBe(422);
        expect(json(res)).toMatchObject({ Sucesso: false });
      }
      const text = await app().inject({
        method: 'POST',
        url: '/api/webhooks/asaas',
        headers: { 'asaas-access-token': WEBHOOK_TOKEN, 'content-type': 'application/json' },
        payload: '{"event":',
      });
      expect(text.statusCode).toBe(400);
      expect(await ownBalance(app(), d)).toBe(0);
      expect((await charge(c.id)).status).toBe('PENDING');
    });

    it('PAYMENT_RECEIVED credits the own account once; duplicates and CONFIRMED do not credit again', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      const res = await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c));
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookProcessed });
      for (const event of ['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED']) {
        expect((await sendWebhook(app(), paymentEvent(event, c))).statusCode).toBe(200);
      }
      expect(await ownBalance(app(), d)).toBe(150);
      expect(await entriesOf(db(), d.id)).toEqual([
        {
          amount_cents: 15_000,
          origin: STATEMENT_ORIGINS.pixPurchase,
          event: 'RECEIVED',
          place_name: 'Compra de saldo via Pix',
          reference: c.id,
          idempotency_key: `pix-charge:${c.id}:credit`,
          driver_seq: 1,
        },
      ]);
      const row = await charge(c.id);
      expect(row.status).toBe('RECEIVED');
      expect(row.received_at).not.toBeNull();
      const status = await app().inject({ method: 'GET', url: `/api/transacoes/qrcode/${c.id}`, headers: bearer(d.token) });
      expect(json(status)).toMatchObject({ Mensagem: messages.pix.chargeStatus.RECEIVED, qrCode: { status: 'RECEIVED' } });
      await expectLedgerInvariant(db());
    });

    it('PAYMENT_CONFIRMED first, then RECEIVED: one credit; the charge is found by payment.id alone', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 200);
      expect((await sendWebhook(app(), { event: 'PAYMENT_CONFIRMED', payment: { id: `local_${c.id}`, value: 200 } })).statusCode).toBe(200);
      expect((await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c))).statusCode).toBe(200);
      expect(await ownBalance(app(), d)).toBe(200);
      expect(await entriesOf(db(), d.id)).toHaveLength(1);
    });

    it('the same webhook delivered 20 times at once credits once', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 333.33);
      const events = Array.from({ length: 20 }, (_, i) => paymentEvent(i % 3 === 0 ? 'PAYMENT_CONFIRMED' : 'PAYMENT_RECEIVED', c));
      const results = await Promise.all(events.map((e) => sendWebhook(app(), e)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      expect(await ownBalance(app(), d)).toBe(333.33);
      expect(await entriesOf(db(), d.id)).toHaveLength(1);
      await expectLedgerInvariant(db());
    });

    it('an authenticated event that cannot be applied is answered 200, moves no money and is recorded once for the operator', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      const orphan = {
        id: 'evt_orfao_1',
        event: 'PAYMENT_RECEIVED',
        payment: { id: 'pay_999', value: 150, externalReference: 'chg_nao_existe' },
      };
      // Asaas retries the same event id: one row, whatever the deliveries.
      for (const body of [
        orphan,
        orphan,
        { event: 'PAYMENT_OVERDUE', payment: { id: 'pay_998', value: 1 } },
        { event: 'PAYMENT_REFUNDED', payment: { id: 'pay_998', value: 1 } },
      ]) {
        const res = await sendWebhook(app(), body);
        expect(res.statusCode).toBe(200);
        expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
      }
      const mismatch = await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c, { value: 149.99 }));
      expect(json(mismatch)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
      expect(ctx().logs.some((l) => l.includes(c.id) && l.includes('valor do pagamento difere'))).toBe(true);
      expect(await ownBalance(app(), d)).toBe(0);
      expect((await charge(c.id)).status).toBe('PENDING');
      const rows = await db()
        .kysely.selectFrom('webhook_events')
        .selectAll()
        .where('provider_ref', 'in', ['pay_999', 'pay_998', `local_${c.id}`])
        .orderBy('id')
        .execute();
      expect(rows.map((r) => [r.event, r.provider_ref, r.reason_code, r.status])).toEqual([
        ['PAYMENT_RECEIVED', 'pay_999', 'unknown-charge', 'open'],
        ['PAYMENT_OVERDUE', 'pay_998', 'unknown-charge', 'open'],
        ['PAYMENT_REFUNDED', 'pay_998', 'unknown-charge', 'open'],
        ['PAYMENT_RECEIVED', `local_${c.id}`, 'amount-mismatch', 'open'],
      ]);
      expect(rows[0]?.reason).toBe(serverMessages.pix.unapplied['unknown-charge']);
      expect(JSON.parse(rows[0]!.excerpt)).toEqual(orphan);
      // The charge is still payable with the right amount.
      await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c));
      expect(await ownBalance(app(), d)).toBe(150);
    });

    // Issue 21, point 1, founding decision 26: the payment id must be the one the charge stored.
    it("a crossed PAYMENT_* (one charge's payment id with another charge as its reference) moves nothing and is recorded", async () => {
      const d = await registerDriver(app());
      const a = await createCharge(app(), d, 150);
      const b = await createCharge(app(), d, 150);
      const crossed = [
        { id: 'evt_cruzado_1', event: 'PAYMENT_RECEIVED', payment: { id: `local_${b.id}`, value: 150, externalReference: a.id } },
        // A payment no charge stored, naming a charge that stored another.
        { id: 'evt_cruzado_2', event: 'PAYMENT_RECEIVED', payment: { id: 'pay_de_fora', value: 150, externalReference: a.id } },
        { id: 'evt_cruzado_3', event: 'PAYMENT_OVERDUE', payment: { id: `local_${a.id}`, value: 150, externalReference: b.id } },
      ];
      const answers = [];
      for (const body of crossed) answers.push(await sendWebhook(app(), body));
      expect(await ownBalance(app(), d)).toBe(0);
      for (const res of answers) expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
      expect(await entriesOf(db(), d.id)).toEqual([]);
      expect([(await charge(a.id)).status, (await charge(b.id)).status]).toEqual(['PENDING', 'PENDING']);
      const rows = await db()
        .kysely.selectFrom('webhook_events')
        .select(['dedupe_key', 'reason_code', 'reason'])
        .where('dedupe_key', 'like', 'evt_cruzado_%')
        .orderBy('dedupe_key')
        .execute();
      expect(rows.map((r) => [r.dedupe_key, r.reason_code])).toEqual([
        ['evt_cruzado_1', 'reference-mismatch'],
        ['evt_cruzado_2', 'reference-mismatch'],
        ['evt_cruzado_3', 'reference-mismatch'],
      ]);
      expect(rows[0]?.reason).toBe(
        `${serverMessages.pix.unapplied['reference-mismatch']} (${serverMessages.pix.mismatch.paymentOfAnother(`local_${b.id}`, b.id)})`,
      );
      // Each charge's own event still applies.
      await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', b));
      expect(await ownBalance(app(), d)).toBe(150);
      expect([(await charge(a.id)).status, (await charge(b.id)).status]).toEqual(['PENDING', 'RECEIVED']);
      await expectLedgerInvariant(db());
    });

    it('PAYMENT_PARTIALLY_REFUNDED takes back only the refunded part, once per total; PAYMENT_REFUNDED takes the rest', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c));
      const partial = (values: number[]) =>
        paymentEvent('PAYMENT_PARTIALLY_REFUNDED', c, { refunds: values.map((value) => ({ value, status: 'DONE' })) });
      for (let i = 0; i < 3; i++)
        expect(json(await sendWebhook(app(), partial([50])))).toMatchObject({ Mensagem: serverMessages.pix.webhookProcessed });
      expect(await ownBalance(app(), d)).toBe(100);
      expect((await charge(c.id)).status).toBe('RECEIVED');
      await Promise.all([sendWebhook(app(), partial([50, 30])), sendWebhook(app(), partial([50, 30]))]);
      expect(await ownBalance(app(), d)).toBe(70);
      // Without the refunded amount nothing leaves the balance: the operator is told.
      expect(json(await sendWebhook(app(), paymentEvent('PAYMENT_PARTIALLY_REFUNDED', c)))).toMatchObject({
        Mensagem: serverMessages.pix.webhookRecorded,
      });
      await sendWebhook(app(), paymentEvent('PAYMENT_REFUNDED', c));
      expect(await ownBalance(app(), d)).toBe(0);
      expect((await entriesOf(db(), d.id)).map((e) => [e.amount_cents, e.origin])).toEqual([
        [15_000, STATEMENT_ORIGINS.pixPurchase],
        [-5_000, STATEMENT_ORIGINS.pixRefund],
        [-3_000, STATEMENT_ORIGINS.pixRefund],
        [-7_000, STATEMENT_ORIGINS.pixRefund],
      ]);
      expect(await charge(c.id)).toMatchObject({ status: 'REFUNDED' });
      await expectLedgerInvariant(db());
    });

    it('PAYMENT_DELETED: a pending charge reads as expired; a paid one keeps its credit and the operator is told', async () => {
      const d = await registerDriver(app());
      const pending = await createCharge(app(), d, 120);
      const paid = await createCharge(app(), d, 150);
      await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', paid));
      expect(json(await sendWebhook(app(), paymentEvent('PAYMENT_DELETED', pending)))).toMatchObject({
        Mensagem: serverMessages.pix.webhookProcessed,
      });
      expect(await charge(pending.id)).toMatchObject({ status: 'OVERDUE' });
      expect((await charge(pending.id)).provider_cancelled_at).not.toBeNull();
      const status = await app().inject({ method: 'GET', url: `/api/transacoes/qrcode/${pending.id}`, headers: bearer(d.token) });
      expect(json(status)).toMatchObject({ qrCode: { status: 'OVERDUE' } });
      expect(json(await sendWebhook(app(), paymentEvent('PAYMENT_DELETED', paid)))).toMatchObject({
        Mensagem: serverMessages.pix.webhookRecorded,
      });
      expect(await charge(paid.id)).toMatchObject({ status: 'RECEIVED' });
      expect(await ownBalance(app(), d)).toBe(150);
      const events = await db()
        .kysely.selectFrom('webhook_events')
        .select('reason_code')
        .where('provider_ref', '=', `local_${paid.id}`)
        .execute();
      expect(events).toEqual([{ reason_code: 'deleted-after-payment' }]);
    });

    it('chargebacks and refunds under way are recorded for the operator and take nothing back (decision)', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c));
      const events = [
        'PAYMENT_CHARGEBACK_REQUESTED',
        'PAYMENT_CHARGEBACK_DISPUTE',
        'PAYMENT_AWAITING_CHARGEBACK_REVERSAL',
        'PAYMENT_REFUND_IN_PROGRESS',
      ];
      for (const event of events) {
        const res = await sendWebhook(app(), paymentEvent(event, c));
        expect(res.statusCode).toBe(200);
        expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
      }
      expect(await ownBalance(app(), d)).toBe(150);
      expect(await charge(c.id)).toMatchObject({ status: 'RECEIVED' });
      const rows = await db()
        .kysely.selectFrom('webhook_events')
        .select(['event', 'reason_code'])
        .where('provider_ref', '=', `local_${c.id}`)
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { event: events[0], reason_code: 'chargeback' },
        { event: events[1], reason_code: 'chargeback' },
        { event: events[2], reason_code: 'chargeback' },
        { event: events[3], reason_code: 'refund-in-progress' },
      ]);
    });

    it('tells a listener (metrics) what became of each authenticated event', async () => {
      const { createServices } = await import('../../../src/services.js');
      const services = createServices(ctx().config, db(), createSilentLog(), { pixProvider: provider });
      const seen: unknown[] = [];
      services.webhook.onOutcome((o) => seen.push(o));
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      await services.webhook.handle(paymentEvent('PAYMENT_RECEIVED', c));
      await services.webhook.handle({ event: 'PAYMENT_CREATED', payment: { id: 'pay_x', value: 1 } });
      await services.webhook.handle({ event: 'PAYMENT_RECEIVED', payment: { id: 'pay_x', value: 1 } });
      expect(seen).toEqual([
        { event: 'PAYMENT_RECEIVED', result: 'applied' },
        { event: 'PAYMENT_CREATED', result: 'ignored' },
        { event: 'PAYMENT_RECEIVED', result: 'recorded', reason: 'unknown-charge' },
      ]);
    });

    it('PAYMENT_OVERDUE marks a PENDING charge OVERDUE without money; a payment that still arrives is credited', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      const res = await sendWebhook(app(), paymentEvent('PAYMENT_OVERDUE', c));
      expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookProcessed });
      expect((await charge(c.id)).status).toBe('OVERDUE');
      expect(await entriesOf(db(), d.id)).toEqual([]);
      await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c));
      expect((await charge(c.id)).status).toBe('RECEIVED');
      // OVERDUE after RECEIVED changes nothing.
      await sendWebhook(app(), paymentEvent('PAYMENT_OVERDUE', c));
      expect((await charge(c.id)).status).toBe('RECEIVED');
      expect(await ownBalance(app(), d)).toBe(150);
    });

    it('PAYMENT_REFUNDED after RECEIVED takes the credit back once (unguarded)', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c));
      for (let i = 0; i < 3; i++) expect((await sendWebhook(app(), paymentEvent('PAYMENT_REFUNDED', c))).statusCode).toBe(200);
      expect(await ownBalance(app(), d)).toBe(0);
      expect((await entriesOf(db(), d.id)).map((e) => [e.amount_cents, e.origin, e.event, e.place_name, e.idempotency_key])).toEqual([
        [15_000, 'compra-pix', 'RECEIVED', 'Compra de saldo via Pix', `pix-charge:${c.id}:credit`],
        [-15_000, 'estorno-compra-pix', 'REFUND', 'Estorno de compra via Pix', `pix-charge:${c.id}:refund`],
      ]);
      const row = await charge(c.id);
      expect(row.status).toBe('REFUNDED');
      expect(row.refunded_at).not.toBeNull();
      // A late RECEIVED after the refund does not credit again.
      await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c));
      expect(await ownBalance(app(), d)).toBe(0);
      const status = await app().inject({ method: 'GET', url: `/api/transacoes/qrcode/${c.id}`, headers: bearer(d.token) });
      expect(json(status)).toMatchObject({ Mensagem: messages.pix.chargeStatus.REFUNDED });
    });

    it('PAYMENT_REFUNDED before any credit just marks REFUNDED; RECEIVED after it credits nothing', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      await sendWebhook(app(), paymentEvent('PAYMENT_REFUNDED', c));
      expect((await charge(c.id)).status).toBe('REFUNDED');
      expect((await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c))).statusCode).toBe(200);
      expect(await ownBalance(app(), d)).toBe(0);
      expect(await entriesOf(db(), d.id)).toEqual([]);
    });

    it('a refund may take the balance below zero: the money already went back', async () => {
      const d = await registerDriver(app());
      const c = await createCharge(app(), d, 150);
      await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', c));
      await db()
        .kysely.transaction()
        .execute(async (trx) => {
          const { accountId, post } = await import('../../../src/modules/ledger/ledger.js');
          await post(trx, {
            accountId: await accountId(trx, d.id, 'own'),
            amountCents: -10_000,
            origin: 'passagem',
            placeName: 'Praça',
            idempotencyKey: `toll-${d.id}`,
          });
        });
      await sendWebhook(app(), paymentEvent('PAYMENT_REFUNDED', c));
      expect(await ownBalance(app(), d)).toBe(-100);
      await expectLedgerInvariant(db());
    });

    it('other events are acknowledged and ignored', async () => {
      const res = await sendWebhook(app(), { event: 'PAYMENT_CREATED', payment: { id: 'pay_1', value: 1 } });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookIgnored });
    });
  });
});

function createSilentLog() {
  return createLogger('silent');
}

function message(res: { json: <T>() => T }): string {
  return res.json<{ Mensagem: string }>().Mensagem;
}
