import type { AttentionResponse, Receipt, StatementTransaction } from '@portal/contract';
import { ERROR_CODES } from '@portal/contract';
import {
  addCalendarDays,
  cycleFailedText,
  pixAutomaticMessages,
  saoPauloDay,
  serverMessages,
  STATEMENT_ORIGINS,
  STATEMENT_PLACE_NAMES,
} from '@portal/domain';
import { expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { CycleScheduler } from '../../../src/modules/pix-automatic/cycles.js';
import { bearer, json, registerDriver } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { entriesOf, expectLedgerInvariant, ownBalance, sendWebhook, usePixTestApp } from '../../helpers/pix.js';
import {
  authorizationEvent,
  authorizationOf,
  authorizationRow,
  automaticCalls,
  createdAutomatic,
  cyclePaidEvent,
  cyclesOf,
  firstPaymentEvent,
  instructionEvent,
} from '../../helpers/pix-automatic.js';

const DAY_MS = 86_400_000;

/** Decision 58 with the local provider: the whole lifecycle, as the CLI's bank drives it. */
describeEachDatabase('Recarga automática por Pix (provedor local)', (dialect) => {
  const { provider, app, db } = usePixTestApp(dialect);
  const log = createLogger('silent');
  /** The cycles' schedule as the server runs it, at `daysAhead` days from now. */
  const scheduler = (daysAhead = 0) => new CycleScheduler(db(), provider, log, () => new Date(Date.now() + daysAhead * DAY_MS));

  async function webhook(body: unknown, message: string = serverMessages.pix.webhookProcessed) {
    const res = await sendWebhook(app(), body);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).Mensagem, res.body).toBe(message);
  }

  async function outbox(d: Registered) {
    const rows = await db()
      .kysely.selectFrom('notification_outbox')
      .select(['kind', 'payload'])
      .where('driver_id', '=', d.id)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ kind: r.kind, ...(JSON.parse(r.payload) as Record<string, unknown>) }));
  }

  async function notices(d: Registered) {
    const res = await app().inject({ method: 'GET', url: '/api/motorista/avisos', headers: bearer(d.token) });
    expect(res.statusCode, res.body).toBe(200);
    return json<AttentionResponse>(res).Avisos;
  }

  /** A driver whose weekly R$ 150,00 is authorized: the QR Code's first Pix paid and the authorization active. */
  async function activeDriver(valor = 150) {
    const d = await registerDriver(app());
    const created = await createdAutomatic(app(), d, valor, 'SEMANAL');
    const row = await authorizationRow(db(), created.id);
    await webhook(firstPaymentEvent(row));
    await webhook(authorizationEvent('ACTIVATED', row));
    return { d, row: await authorizationRow(db(), created.id) };
  }

  it('creates, shows the QR Code, is authorized by paying it (credited once, with its receipt), sends and debits each cycle', async () => {
    const d = await registerDriver(app());
    const created = await createdAutomatic(app(), d, 150, 'SEMANAL');
    expect(created).toMatchObject({
      estado: 'AGUARDANDO',
      frequencia: 'SEMANAL',
      valor: 150,
      proximoDebito: null,
      ativadaEm: null,
      encerradaEm: null,
      motivoEncerramento: null,
      ciclos: [],
    });
    expect(created.qrCode?.payload).toMatch(/^000201/);
    expect(provider.authorizations.at(-1)).toMatchObject({ authorizationId: created.id, amountCents: 15_000, frequency: 'SEMANAL' });
    const read = json<{ RecargaAutomatica: unknown; Disponivel: boolean }>(await automaticCalls.current(app(), d));
    expect(read).toMatchObject({ Disponivel: true, RecargaAutomatica: { id: created.id, estado: 'AGUARDANDO' } });

    // The bank pays the QR Code's first Pix: it names the QR Code, not our id.
    const row = await authorizationRow(db(), created.id);
    await webhook(firstPaymentEvent(row));
    expect(await ownBalance(app(), d)).toBe(150);
    // Delivered again: nothing more.
    await webhook(firstPaymentEvent(row));
    expect(await ownBalance(app(), d)).toBe(150);
    await webhook(authorizationEvent('ACTIVATED', row));
    const active = authorizationOf(await automaticCalls.current(app(), d));
    const today = saoPauloDay(new Date());
    expect(active).toMatchObject({
      estado: 'ATIVA',
      proximoDebito: { data: addCalendarDays(today, 7), valor: 150, agendado: false },
      qrCode: null,
      ciclos: [{ numero: 1, estado: 'PAGA', valor: 150, dataDebito: today, motivo: null }],
    });
    const firstCharge = active.ciclos[0]?.id ?? '';

    // The statement and the receipt say what it was.
    const entries = await entriesOf(db(), d.id);
    expect(entries).toEqual([
      expect.objectContaining({
        amount_cents: 15_000,
        origin: STATEMENT_ORIGINS.pixAutomaticTopUp,
        place_name: STATEMENT_PLACE_NAMES.pixAutomaticTopUp,
        reference: firstCharge,
      }),
    ]);
    const statement = json<{ Transacoes: StatementTransaction[] }>(
      await app().inject({ method: 'GET', url: '/api/extrato/listar?page=1', headers: bearer(d.token) }),
    ).Transacoes;
    expect(statement[0]).toMatchObject({
      placeName: 'Recarga automática via Pix',
      value: 150,
      receipt: { tipo: 'compra', id: firstCharge },
    });
    const receipt = json<{ Comprovante: Receipt }>(
      await app().inject({ method: 'GET', url: `/api/comprovantes/compra/${firstCharge}`, headers: bearer(d.token) }),
    ).Comprovante;
    expect(receipt).toMatchObject({
      titulo: serverMessages.receipt.automaticTitle,
      valor: 150,
      status: 'RECEIVED',
      descricao: 'Recarga automática via Pix',
    });

    // The schedule sends the first weekly debit at once (7 days away), and only once.
    expect(await scheduler().run()).toEqual({ sent: 1, failed: 0 });
    expect(await scheduler().run()).toEqual({ sent: 0, failed: 0 });
    const [, second] = await cyclesOf(db(), created.id);
    expect(second).toMatchObject({ number: 2, due_date: addCalendarDays(today, 7), status: 'SCHEDULED' });
    expect(provider.cycles.at(-1)).toMatchObject({ chargeId: second?.charge_id, amountCents: 15_000, dueDate: addCalendarDays(today, 7) });
    const scheduled = authorizationOf(await automaticCalls.current(app(), d));
    expect(scheduled.proximoDebito).toEqual({ data: addCalendarDays(today, 7), valor: 150, agendado: true });
    // A cycle waiting for its debit is not a purchase waiting for a Pix.
    expect((await notices(d)).filter((n) => n.tipo === 'compra-pendente')).toEqual([]);

    // The debit arrives before the instruction's own event, and twice: credited once.
    if (!second) throw new Error('sem o ciclo 2');
    await webhook(cyclePaidEvent(second));
    await webhook(instructionEvent('SCHEDULED', row, second));
    await webhook(cyclePaidEvent(second));
    expect(await ownBalance(app(), d)).toBe(300);
    const [, paid] = await cyclesOf(db(), created.id);
    expect(paid).toMatchObject({ status: 'PAID', instruction_id: `local_pi_${second.charge_id}` });
    expect((await entriesOf(db(), d.id)).filter((e) => e.origin === STATEMENT_ORIGINS.pixAutomaticTopUp)).toHaveLength(2);

    expect((await outbox(d)).map((n) => n.kind)).toEqual(['pixAutoCyclePaid', 'pixAutoAuthorizationActive', 'pixAutoCyclePaid']);
    expect((await outbox(d))[2]).toMatchObject({ cycleId: second.charge_id, amountCents: 15_000, receiptId: second.charge_id });
    await expectLedgerInvariant(db());
  });

  it('a refused cycle moves no money, is a notice and a push, once; a later paid cycle clears the notice', async () => {
    const { d, row } = await activeDriver(120);
    await scheduler().run();
    const [, cycle] = await cyclesOf(db(), row.id);
    if (!cycle) throw new Error('sem o ciclo');
    const before = await ownBalance(app(), d);
    const refused = instructionEvent('REFUSED', row, cycle, { refusalReason: 'Saldo insuficiente' });
    await webhook(refused);
    await webhook({ ...refused, id: `${refused.id}-de-novo` });
    expect(await ownBalance(app(), d)).toBe(before);
    const [, after] = await cyclesOf(db(), row.id);
    expect(after).toMatchObject({ status: 'REFUSED', failure_reason: 'Saldo insuficiente' });
    expect(after?.charge.status).toBe('OVERDUE');
    const failed = (await notices(d)).filter((n) => n.tipo === 'recarga-automatica-falhou');
    expect(failed).toEqual([
      {
        tipo: 'recarga-automatica-falhou',
        Mensagem: cycleFailedText(12_000, cycle.due_date, 'Saldo insuficiente'),
        autorizacaoId: row.id,
        cicloId: cycle.charge_id,
        valor: 120,
        dataDebito: cycle.due_date,
      },
    ]);
    expect((await outbox(d)).filter((n) => n.kind === 'pixAutoCycleFailed')).toEqual([
      { kind: 'pixAutoCycleFailed', cycleId: cycle.charge_id, reason: 'Saldo insuficiente' },
    ]);
    const view = authorizationOf(await automaticCalls.current(app(), d));
    expect(view.ciclos[0]).toMatchObject({ estado: 'RECUSADA', motivo: 'Saldo insuficiente' });

    // A week later the next cycle is debited: the money came after all, the notice leaves.
    await scheduler(7).run();
    const [, , third] = await cyclesOf(db(), row.id);
    if (!third) throw new Error('sem o ciclo 3');
    await webhook(cyclePaidEvent(third));
    expect(await ownBalance(app(), d)).toBe(before + 120);
    expect((await notices(d)).filter((n) => n.tipo === 'recarga-automatica-falhou')).toEqual([]);
    await expectLedgerInvariant(db());
  });

  it('a cycle not debited on its day (PAYMENT_OVERDUE) is a notice; its payment stays at the provider for the bank to retry', async () => {
    const { d, row } = await activeDriver();
    await scheduler().run();
    const [, cycle] = await cyclesOf(db(), row.id);
    if (!cycle) throw new Error('sem o ciclo');
    await webhook({
      id: 'evt_overdue',
      event: 'PAYMENT_OVERDUE',
      payment: { id: cycle.charge.provider_charge_id, value: 150, externalReference: cycle.charge_id },
    });
    const [, after] = await cyclesOf(db(), row.id);
    expect(after).toMatchObject({ status: 'REFUSED', failure_reason: pixAutomaticMessages.overdue });
    expect(provider.cancelled).not.toContain(cycle.charge.provider_charge_id);
    expect((await notices(d)).map((n) => n.tipo)).toContain('recarga-automatica-falhou');
  });

  it('cancelled in the bank app: reflected, told, and no further cycle is sent', async () => {
    const { d, row } = await activeDriver();
    await webhook(authorizationEvent('CANCELLED', row));
    await webhook(authorizationEvent('CANCELLED', row));
    const view = authorizationOf(await automaticCalls.current(app(), d));
    expect(view).toMatchObject({ estado: 'CANCELADA', motivoEncerramento: pixAutomaticMessages.endReasons.bank, proximoDebito: null });
    expect((await outbox(d)).filter((n) => n.kind === 'pixAutoAuthorizationCancelled')).toHaveLength(1);
    expect(await scheduler().run()).toEqual({ sent: 0, failed: 0 });
    // Cancelling again in the portal: already ended.
    const again = await automaticCalls.cancel(app(), d, row.id);
    expect(again.statusCode).toBe(409);
    expect(json(again).Mensagem).toBe(pixAutomaticMessages.alreadyEnded.replace('{state}', 'cancelada'));
  });

  it('cancelled in the portal: at the provider, then here; the scheduled cycle is no longer expected', async () => {
    const { d, row } = await activeDriver();
    await scheduler().run();
    const cancelled = authorizationOf(await automaticCalls.cancel(app(), d, row.id));
    expect(cancelled).toMatchObject({ estado: 'CANCELADA', motivoEncerramento: pixAutomaticMessages.endReasons.driver });
    expect(provider.cancelledAuthorizations).toContain(row.provider_authorization_id);
    expect((await cyclesOf(db(), row.id)).map((c) => c.status)).toEqual(['PAID', 'CANCELLED']);
    // The bank's own event about our cancel changes nothing and tells nobody again.
    await webhook(authorizationEvent('CANCELLED', row));
    expect((await outbox(d)).filter((n) => n.kind === 'pixAutoAuthorizationCancelled')).toEqual([]);
  });

  it('changing the value cancels the authorization and opens a new one with its own QR Code', async () => {
    const { d, row } = await activeDriver();
    const changed = authorizationOf(await automaticCalls.changeValue(app(), d, row.id, { valor: 250.5 }));
    expect(changed).toMatchObject({ estado: 'AGUARDANDO', valor: 250.5, frequencia: 'SEMANAL' });
    expect(changed.id).not.toBe(row.id);
    expect(changed.qrCode?.payload).toMatch(/^000201/);
    expect(await authorizationRow(db(), row.id)).toMatchObject({ status: 'CANCELLED', end_reason: 'valueChanged' });
    expect(await authorizationRow(db(), changed.id)).toMatchObject({ status: 'CREATED', replaces_id: row.id, amount_cents: 25_050 });
    expect(provider.cancelledAuthorizations).toContain(row.provider_authorization_id);
  });

  it('one waiting or active per driver: a waiting one is replaced by a new QR Code, an active one refuses', async () => {
    const d = await registerDriver(app());
    const first = await createdAutomatic(app(), d, 150, 'MENSAL');
    const second = await createdAutomatic(app(), d, 200, 'MENSAL');
    expect(await authorizationRow(db(), first.id)).toMatchObject({ status: 'CANCELLED', end_reason: 'replaced' });
    const row = await authorizationRow(db(), second.id);
    await webhook(firstPaymentEvent(row));
    await webhook(authorizationEvent('ACTIVATED', row));
    const refused = await automaticCalls.create(app(), d, { valor: 300, frequencia: 'SEMANAL' });
    expect(refused.statusCode).toBe(409);
    expect(json(refused)).toMatchObject({ Sucesso: false, Mensagem: pixAutomaticMessages.alreadyActive });
    const live = await db()
      .kysely.selectFrom('pix_automatic_authorizations')
      .select('id')
      .where('driver_id', '=', d.id)
      .where('status', 'in', ['CREATED', 'ACTIVE'])
      .execute();
    expect(live).toEqual([{ id: second.id }]);
  });

  it('bad values: a Portuguese 422 on the field, and nothing changes', async () => {
    const d = await registerDriver(app());
    const count = async () =>
      Number(
        (
          await db()
            .kysely.selectFrom('pix_automatic_authorizations')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('driver_id', '=', d.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const cases: [Record<string, unknown>, string, string][] = [
      [{ valor: 50, frequencia: 'SEMANAL' }, pixAutomaticMessages.belowMinimum, 'valor'],
      [{ valor: 50_000.01, frequencia: 'SEMANAL' }, pixAutomaticMessages.aboveMaximum, 'valor'],
      [{ valor: 150.001, frequencia: 'SEMANAL' }, pixAutomaticMessages.valueInvalid, 'valor'],
      [{ valor: 'cem', frequencia: 'SEMANAL' }, pixAutomaticMessages.valueRequired, 'valor'],
      [{ frequencia: 'MENSAL' }, pixAutomaticMessages.valueRequired, 'valor'],
      [{ valor: 150, frequencia: 'DIARIA' }, pixAutomaticMessages.frequencyRequired, 'frequencia'],
      [{ valor: 150 }, pixAutomaticMessages.frequencyRequired, 'frequencia'],
    ];
    for (const [body, message, field] of cases) {
      const res = await automaticCalls.create(app(), d, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(json<{ errors: Record<string, string[]> }>(res).errors[field], JSON.stringify(body)).toEqual([message]);
    }
    expect(await count()).toBe(0);
    expect(provider.authorizations.filter((a) => a.driver.cpfCnpj === d.cpfCnpj)).toEqual([]);

    const created = await createdAutomatic(app(), d, 150);
    const same = await automaticCalls.changeValue(app(), d, created.id, { valor: 150 });
    expect(same.statusCode).toBe(422);
    expect(json(same).Mensagem).toBe(pixAutomaticMessages.sameValue);
    const low = await automaticCalls.changeValue(app(), d, created.id, { valor: 99.99 });
    expect(json(low).Mensagem).toBe(pixAutomaticMessages.belowMinimum);
    expect(await authorizationRow(db(), created.id)).toMatchObject({ status: 'CREATED', amount_cents: 15_000 });
    expect(await count()).toBe(1);
  });

  it('another driver can neither read nor change nor cancel mine', async () => {
    const { d: owner, row } = await activeDriver();
    const other = await registerDriver(app());
    expect(json(await automaticCalls.current(app(), other))).toMatchObject({ RecargaAutomatica: null });
    for (const res of [
      await automaticCalls.cancel(app(), other, row.id),
      await automaticCalls.changeValue(app(), other, row.id, { valor: 300 }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: pixAutomaticMessages.notFound });
    }
    expect(await authorizationRow(db(), row.id)).toMatchObject({ status: 'ACTIVE', amount_cents: 15_000 });
    expect(authorizationOf(await automaticCalls.current(app(), owner)).estado).toBe('ATIVA');
  });

  it('moving money needs the terms accepted; cancelling never does', async () => {
    const d = await registerDriver(app(), {}, { acceptTerms: false });
    const refused = await automaticCalls.create(app(), d, { valor: 150, frequencia: 'SEMANAL' });
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toMatchObject({ code: ERROR_CODES.termsNotAccepted });
    const { d: owner, row } = await activeDriver();
    await app().inject({ method: 'POST', url: '/api/termos/rejeitar', headers: bearer(owner.token) });
    expect((await automaticCalls.changeValue(app(), owner, row.id, { valor: 300 })).statusCode).toBe(403);
    expect(authorizationOf(await automaticCalls.cancel(app(), owner, row.id)).estado).toBe('CANCELADA');
  });

  it('a QR Code never paid in time: refused, and stopped at the provider', async () => {
    const d = await registerDriver(app());
    const created = await createdAutomatic(app(), d);
    await db()
      .kysely.updateTable('pix_automatic_authorizations')
      .set({ qr_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', created.id)
      .execute();
    const view = authorizationOf(await automaticCalls.current(app(), d));
    expect(view).toMatchObject({ estado: 'RECUSADA', qrCode: null, motivoEncerramento: pixAutomaticMessages.endReasons.qrExpired });
    const row = await authorizationRow(db(), created.id);
    expect(provider.cancelledAuthorizations).toContain(row.provider_authorization_id);
    // Paid after all (the bank was late): the money is credited, and the authorization stays ended.
    await webhook(firstPaymentEvent(row));
    expect(await ownBalance(app(), d)).toBe(150);
  });

  it('an event naming an authorization or an instruction the portal does not have moves nothing and is recorded', async () => {
    const { row } = await activeDriver();
    await webhook(
      {
        id: 'evt_x1',
        event: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED',
        authorization: { id: 'local_pxa_desconhecida', status: 'CANCELLED' },
      },
      serverMessages.pix.webhookRecorded,
    );
    await webhook(
      {
        id: 'evt_x2',
        event: 'PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_REFUSED',
        paymentInstruction: { id: 'pi_x', paymentId: 'pay_nao_existe' },
      },
      serverMessages.pix.webhookRecorded,
    );
    // Our authorization's id with another contract: crossed.
    await webhook(authorizationEvent('CANCELLED', row, { contractId: 'pxa_outra' }), serverMessages.pix.webhookRecorded);
    // A first payment of another value than the QR Code's: not credited.
    const d2 = await registerDriver(app());
    const other = await authorizationRow(db(), (await createdAutomatic(app(), d2)).id);
    await webhook(firstPaymentEvent(other, { value: 1 }), serverMessages.pix.webhookRecorded);
    expect(await ownBalance(app(), d2)).toBe(0);
    expect(await authorizationRow(db(), row.id)).toMatchObject({ status: 'ACTIVE' });
    const reasons = await db()
      .kysely.selectFrom('webhook_events')
      .select(['event', 'reason_code'])
      .where('dedupe_key', 'in', ['evt_x1', 'evt_x2'])
      .orderBy('id')
      .execute();
    expect(reasons).toEqual([
      { event: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED', reason_code: 'unknown-authorization' },
      { event: 'PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_REFUSED', reason_code: 'unknown-instruction' },
    ]);
  });

  it('the OpenAPI document has the four calls, generated from the contract', async () => {
    const spec = json<{ paths: Record<string, Record<string, { requestBody?: unknown; security?: unknown }>> }>(
      await app().inject({ method: 'GET', url: '/api/docs/json' }),
    );
    expect(spec.paths['/api/motorista/pix-automatico']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(JSON.stringify(spec.paths['/api/motorista/pix-automatico']?.post?.requestBody)).toContain('frequencia');
    expect(JSON.stringify(spec.paths['/api/motorista/pix-automatico/{id}/valor']?.post?.requestBody)).toContain('valor');
    expect(spec.paths['/api/motorista/pix-automatico/{id}/cancelar']?.post).toBeDefined();
  });

  it('a provider that fails leaves nothing changed (502)', async () => {
    const d = await registerDriver(app());
    provider.failAutomatic = true;
    const res = await automaticCalls.create(app(), d, { valor: 150, frequencia: 'SEMANAL' });
    expect(res.statusCode).toBe(502);
    expect(json(res).Mensagem).toBe(pixAutomaticMessages.providerUnavailable);
    expect(json(await automaticCalls.current(app(), d))).toMatchObject({ RecargaAutomatica: null });
  });
});
