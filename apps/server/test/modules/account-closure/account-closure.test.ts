import { accountClosureMessages, closureKeepUntil, formatDateTime, maskCpfCnpj, messages, payoutMessages } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { LocalTagOperatorGateway } from '../../../src/adapters/operators/local.js';
import type { Db } from '../../../src/db/connection.js';
import { RateLimitStore } from '../../../src/db/rate-limit-store.js';
import { AccountClosureService } from '../../../src/modules/account-closure/service.js';
import { PixAutomaticService } from '../../../src/modules/pix-automatic/service.js';
import { ChargeService } from '../../../src/modules/pix/charges.js';
import type { PasswordConfirmation } from '../../../src/modules/auth/confirmation.js';
import { Catalogue } from '../../../src/modules/tags/catalogue.js';
import { TagFees } from '../../../src/modules/tags/fees.js';
import { TagService } from '../../../src/modules/tags/service.js';
import { bearer, json, registerDriver } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { createCharge, expectLedgerInvariant, fund, paymentEvent, sendWebhook, usePixTestApp } from '../../helpers/pix.js';
import { newPlate, newSerial, registrationBody } from '../../helpers/tags.js';
import { expectVpoInvariants } from '../../helpers/vpos.js';
import type { DriverWorld, World } from '../../helpers/world.js';
import { buildWorld, saoPaulo } from '../../helpers/world.js';
import { pdfPlainText as pdfText } from '../../helpers/files.js';

const URL = '/api/motorista/encerramento';

interface StatusAnswer {
  Sucesso: boolean;
  Mensagem: string;
  Encerramento: { podeEncerrar: boolean; pendencias: { motivo: string; mensagem: string }[] };
}
interface ClosedAnswer {
  Sucesso: boolean;
  Mensagem: string;
  Comprovante: { url: string; expiraEm: string };
}

const brl = (reais: string) => `R$\u00a0${reais}`;

describeEachDatabase('encerrar a conta (issue 35, decisão 70)', (dialect) => {
  const { provider, app, db, ctx } = usePixTestApp(dialect);
  let world: World;

  beforeAll(async () => {
    world = await buildWorld(app(), db());
  });

  const status = (d: Registered) => app().inject({ method: 'GET', url: URL, headers: bearer(d.token) });
  const close = (d: Registered, payload: Record<string, unknown> = { senha: d.password, confirmacao: true }) =>
    app().inject({ method: 'POST', url: URL, headers: bearer(d.token), payload });
  const partner = (key: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
    app().inject({ method, url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });
  const closed = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return json<ClosedAnswer>(res);
  };

  it('a driver with nothing under way can close; the status says so', async () => {
    const d = await registerDriver(app());
    expect(json<StatusAnswer>(await status(d))).toEqual({
      Sucesso: true,
      Mensagem: accountClosureMessages.ready,
      Encerramento: { podeEncerrar: true, pendencias: [] },
    });
    expect((await app().inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    expect((await app().inject({ method: 'POST', url: URL, payload: { senha: 'x', confirmacao: true } })).statusCode).toBe(401);
  });

  it('names every reason and how to clear it; closing is refused with them and changes nothing', async () => {
    const a = world.a;
    provider.payout = 'PENDING';
    const withdrawal = await app().inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(a.token),
      payload: { description: 'Saque em andamento', receiver_document: a.cpfCnpj, amount: 12.4, pix: { key: a.cpfCnpj, type: 'CPF' } },
    });
    expect(withdrawal.statusCode, withdrawal.body).toBe(200);
    const credit = await partner(world.keys.platform, 'POST', '/api/parceiro/terceiro/movimentos', {
      externalId: `t-${newSerial()}`,
      cpfCnpj: a.cpfCnpj,
      origin: 'credito-terceiro-movemais',
      value: 3.3,
      occurredAt: saoPaulo(5).local,
    });
    expect(credit.statusCode, credit.body).toBe(200);

    const answer = json<StatusAnswer>(await status(a));
    expect(answer.Encerramento.podeEncerrar).toBe(false);
    expect(answer.Encerramento.pendencias.map((p) => p.motivo)).toEqual(['saldo', 'saldoTerceiro', 'saque', 'pix', 'vpo', 'contestacao']);
    const text = Object.fromEntries(answer.Encerramento.pendencias.map((p) => [p.motivo, p.mensagem]));
    expect(text.saque).toBe(`Aguarde a conclusão do saque de ${brl('12,40')} em andamento antes de encerrar.`);
    expect(text.pix).toBe(`Aguarde o pagamento do Pix de ${brl('120,00')} ou deixe-o expirar antes de encerrar.`);
    expect(text.saldoTerceiro).toContain(brl('3,30'));
    expect(text.vpo).toBe('Aguarde o embarcador concluir o VPO em aberto antes de encerrar a conta.');
    expect(text.contestacao).toBe('Aguarde a operadora responder a contestação em aberto antes de encerrar a conta.');

    const sessionsBefore = await liveSessions(db(), a.id);
    const refused = await close(a);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(json(refused).Mensagem).toBe(accountClosureMessages.blocked(answer.Encerramento.pendencias.map((p) => p.mensagem).join(' ')));
    expect(await liveSessions(db(), a.id)).toBe(sessionsBefore);
    expect((await status(a)).statusCode).toBe(200);
    expect(await db().kysely.selectFrom('closed_accounts').selectAll().where('driver_id', '=', a.id).execute()).toEqual([]);

    // The withdrawal comes back done: it no longer blocks.
    provider.payout = 'DONE';
    await db()
      .kysely.updateTable('withdrawals')
      .set({ status: 'DONE' })
      .where('driver_id', '=', a.id)
      .where('status', '=', 'PROCESSING')
      .execute();
  });

  it('a Pix past its time no longer blocks; the password and the confirmation are asked, each on its field', async () => {
    const d = await registerDriver(app());
    const charge = await createCharge(app(), d, 140);
    expect(json<StatusAnswer>(await status(d)).Encerramento.pendencias.map((p) => p.motivo)).toEqual(['pix']);
    await db()
      .kysely.updateTable('pix_charges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', charge.id)
      .execute();
    expect(json<StatusAnswer>(await status(d)).Encerramento.podeEncerrar).toBe(true);

    const noBox = await close(d, { senha: d.password, confirmacao: false });
    expect(noBox.statusCode).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(noBox).errors.confirmacao).toEqual([accountClosureMessages.confirmationRequired]);
    const noPassword = await close(d, { senha: '', confirmacao: true });
    expect(json<{ errors: Record<string, string[]> }>(noPassword).errors.senha).toEqual([accountClosureMessages.passwordRequired]);
    const wrong = await close(d, { senha: 'outra-senha', confirmacao: true });
    expect(wrong.statusCode).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(wrong).errors.senha).toEqual([payoutMessages.passwordWrong]);
    expect((await status(d)).statusCode).toBe(200);
  });

  it('a top-up the provider cannot cancel now: nothing is closed', async () => {
    const d = await registerDriver(app());
    const created = await app().inject({
      method: 'POST',
      url: '/api/motorista/pix-automatico',
      headers: bearer(d.token),
      payload: { valor: 150, frequencia: 'MENSAL' },
    });
    expect(created.statusCode, created.body).toBe(201);
    provider.failAutomatic = true;
    const res = await close(d);
    expect(res.statusCode).toBe(502);
    expect(json(res).Mensagem).toBe(accountClosureMessages.topUpProviderFailed);
    expect((await status(d)).statusCode).toBe(200);
    const row = await db().kysely.selectFrom('drivers').select(['name', 'cpf_cnpj']).where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row.cpf_cnpj).toBe(d.cpfCnpj);
  });

  describe('an account that had every kind of movement, closed', () => {
    let a: DriverWorld;
    let entriesBefore: { n: number; total: number };
    let receipt: ClosedAnswer;
    let automaticProviderId: string;

    beforeAll(async () => {
      // This beforeAll runs before the file's beforeEach resets the provider.
      provider.failAutomatic = false;
      provider.payout = 'DONE';
      a = world.a;
      // Clear what blocks, the way a driver and the partners do: the Pix paid, the contest answered
      // (part given back), the VPO ended by its shipper, SaldoTerceiro spent, Saldo withdrawn.
      expect((await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', { id: a.pendingChargeId, valor: 120 }))).statusCode).toBe(200);
      const answered = await partner(world.keys.operator, 'POST', `/api/parceiro/contestacoes/${a.contestId}/resposta`, {
        decisao: 'ACEITA',
        valor: 5,
        motivo: 'Categoria corrigida',
      });
      expect(answered.statusCode, answered.body).toBe(200);
      const onTrip = await partner(world.keys.shipper, 'PATCH', `/api/parceiro/vpos/${a.vpoExternalId}`, { Status: 'EM_VIAGEM' });
      expect(onTrip.statusCode, onTrip.body).toBe(200);
      const ended = await partner(world.keys.shipper, 'PATCH', `/api/parceiro/vpos/${a.vpoExternalId}`, { Status: 'ENCERRADO' });
      expect(ended.statusCode, ended.body).toBe(200);
      const third = await partner(world.keys.operator, 'POST', '/api/parceiro/passagens', {
        externalId: `p3-${a.active.serial}`,
        serialNumber: a.active.serial,
        placeName: 'Praça Terceiro',
        value: 3.3,
        occurredAt: saoPaulo(3).local,
        is_third: true,
      });
      expect(third.statusCode, third.body).toBe(200);
      const saldo = json<{ Saldo: number }>(
        await app().inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(a.token) }),
      ).Saldo;
      const out = await app().inject({
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: bearer(a.token),
        payload: { description: 'Saque final', receiver_document: a.cpfCnpj, amount: saldo, pix: { key: a.cpfCnpj, type: 'CPF' } },
      });
      expect(out.statusCode, out.body).toBe(200);
      // A device subscribed to push (as POST /api/motorista/notificacoes/inscricao stores it).
      await db()
        .kysely.insertInto('push_subscriptions')
        .values({
          driver_id: a.id,
          session_id: null,
          endpoint: `https://push.example/encerrar-${a.id}`,
          p256dh: 'k',
          auth: 'a',
          created_at: new Date().toISOString(),
          last_success_at: null,
        })
        .execute();
      expect(json<StatusAnswer>(await status(a)).Encerramento).toEqual({ podeEncerrar: true, pendencias: [] });
      automaticProviderId = (
        await db()
          .kysely.selectFrom('pix_automatic_authorizations')
          .select('provider_authorization_id')
          .where('id', '=', a.automaticId)
          .executeTakeFirstOrThrow()
      ).provider_authorization_id;
      entriesBefore = await entries(db(), a.id);
      receipt = closed(await close(a));
    });

    it('answers the closing receipt, downloadable without a session for a short time', async () => {
      expect(receipt.Mensagem).toBe(accountClosureMessages.closed);
      expect(receipt.Comprovante.url).toMatch(/^\/api\/encerramento\/comprovante\/[A-Za-z0-9_-]{43}$/);
      const minutes = (Date.parse(receipt.Comprovante.expiraEm) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(14);
      expect(minutes).toBeLessThanOrEqual(15);
      const pdf = await app().inject({ method: 'GET', url: receipt.Comprovante.url });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['cache-control']).toBe('no-store');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      // What was erased, what is kept, why and until when; the document masked, never whole.
      const text = await pdfText(pdf.rawPayload);
      const kept = await db().kysely.selectFrom('closed_accounts').selectAll().where('driver_id', '=', a.id).executeTakeFirstOrThrow();
      for (const expected of [
        'Comprovante de encerramento de conta',
        'O que foi apagado',
        'Senha: não é mais possível entrar nesta conta',
        'O que guardamos, por quê e até quando',
        'Lei 9.613/1998, art. 10, § 2º',
        'Marco Civil da Internet (Lei 12.965/2014), art. 15',
        maskCpfCnpj(a.cpfCnpj),
        formatDateTime(new Date(kept.closed_at)),
        formatDateTime(new Date(new Date(kept.keep_until).getTime() - 1000)),
      ]) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain(a.cpfCnpj);
      // Another token, or this one past its time: the one 404.
      const unknown = await app().inject({ method: 'GET', url: `/api/encerramento/comprovante/${'x'.repeat(43)}` });
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown).Mensagem).toBe(accountClosureMessages.receiptExpired);
      await db()
        .kysely.updateTable('closed_accounts')
        .set({ receipt_expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('driver_id', '=', a.id)
        .execute();
      const late = await app().inject({ method: 'GET', url: receipt.Comprovante.url });
      expect(late.statusCode).toBe(404);
    });

    it('every session ends at once: the old token is 401, and signing in again is refused as an unknown account', async () => {
      for (const url of ['/api/motorista/saldo', URL, '/api/motorista/dados']) {
        expect((await app().inject({ method: 'GET', url, headers: bearer(a.token) })).statusCode, url).toBe(401);
      }
      expect(await liveSessions(db(), a.id)).toBe(0);
      const login = await app().inject({
        method: 'POST',
        url: '/api/tokens/login-motorista',
        payload: { cpfCnpj: a.cpfCnpj, password: a.password },
      });
      expect(login.statusCode).toBe(401);
      expect(json(login).Mensagem).toBe(messages.login.invalidCredentials);
    });

    it('erases what is no longer needed and keeps what the law asks, with the document apart until keep_until', async () => {
      const k = db().kysely;
      const driver = await k.selectFrom('drivers').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
      expect(driver).toMatchObject({
        name: 'Conta encerrada',
        cpf_cnpj: `encerrada-${a.id}`,
        phone_number: '',
        password_hash: '',
        balance_alert_cents: null,
      });
      const count = async (table: 'push_subscriptions' | 'pix_keys' | 'payout_limits' | 'profile_changes' | 'idempotency_keys') =>
        Number(
          (
            await k
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('driver_id', '=', a.id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      for (const table of ['push_subscriptions', 'pix_keys', 'payout_limits', 'profile_changes', 'idempotency_keys'] as const) {
        expect(await count(table), table).toBe(0);
      }
      // The sign-in throttle's known addresses of the document (written by the sign-up and sign-ins) are gone.
      const known = await k
        .selectFrom('rate_limits')
        .select('key')
        .where('scope', '=', 'login:known')
        .where('key', 'like', `${a.cpfCnpj}|%`)
        .execute();
      expect(known).toEqual([]);
      const unsent = await k
        .selectFrom('notification_outbox')
        .select('id')
        .where('driver_id', '=', a.id)
        .where('sent_at', 'is', null)
        .where('gave_up_at', 'is', null)
        .execute();
      expect(unsent).toEqual([]);
      const kept = await k.selectFrom('closed_accounts').selectAll().where('driver_id', '=', a.id).executeTakeFirstOrThrow();
      expect(kept.cpf_cnpj).toBe(a.cpfCnpj);
      expect(new Date(kept.keep_until).toISOString()).toBe(closureKeepUntil(new Date(kept.closed_at)).toISOString());
      expect(new Date(kept.keep_until).getTime() - new Date(kept.closed_at).getTime()).toBeGreaterThan(5 * 365 * 24 * 3_600_000);
      // The records stay, whole: the ledger, receipts, VPOs, passages, contests, terms decisions, access records.
      expect(await entries(db(), a.id)).toEqual(entriesBefore);
      for (const table of ['withdrawals', 'pix_charges', 'vpos', 'passages', 'contests', 'term_decisions', 'access_records'] as const) {
        const rows = await k.selectFrom(table).select('driver_id').where('driver_id', '=', a.id).execute();
        expect(rows.length, table).toBeGreaterThan(0);
      }
      const vehicles = await k.selectFrom('vehicles').select(['deleted_at', 'cpf_cnpj_antt']).where('driver_id', '=', a.id).execute();
      expect(vehicles.every((v) => v.deleted_at !== null && v.cpf_cnpj_antt === '')).toBe(true);
    });

    it('the automatic top-up is cancelled at the provider, the tags at the operator', async () => {
      expect(provider.cancelledAuthorizations).toContain(automaticProviderId);
      const automatic = await db()
        .kysely.selectFrom('pix_automatic_authorizations')
        .select(['status', 'end_reason'])
        .where('id', '=', a.automaticId)
        .executeTakeFirstOrThrow();
      expect(automatic).toEqual({ status: 'CANCELLED', end_reason: 'driver' });
      const tags = await db()
        .kysely.selectFrom('tags')
        .select(['serial_number', 'status_code', 'deleted_at', 'released_at'])
        .where('driver_id', '=', a.id)
        .execute();
      expect(tags.every((t) => t.deleted_at !== null)).toBe(true);
      const operator = async (serial: string) =>
        db().kysely.selectFrom('operator_tags').select('status_code').where('serial_number', '=', serial).executeTakeFirst();
      // Activated: cancelled for good at the operator (300); never activated: the operator forgot it.
      expect(await operator(a.active.serial)).toEqual({ status_code: 300 });
      expect(await operator(a.inactive.serial)).toBeUndefined();
      const pending = await db()
        .kysely.selectFrom('closure_tag_cancellations')
        .select(['cancelled_at', 'attempts'])
        .where('driver_id', '=', a.id)
        .execute();
      expect(pending).toHaveLength(2);
      expect(pending.every((p) => p.cancelled_at !== null && p.attempts === 1)).toBe(true);
    });

    it('money is neither lost nor created: every balance is the sum of its entries, the VPOs balance', async () => {
      await expectLedgerInvariant(db());
      await expectVpoInvariants(db());
      const balances = await db().kysely.selectFrom('accounts').select(['kind', 'balance_cents']).where('driver_id', '=', a.id).execute();
      expect(balances.every((b) => Number(b.balance_cents) === 0)).toBe(true);
    });

    it("partners get for the closed account's tag, VPO and document what an unknown one gets", async () => {
      const unknownSerial = newSerial();
      const passage = (serial: string) =>
        partner(world.keys.operator, 'POST', '/api/parceiro/passagens', {
          externalId: `x-${newSerial()}`,
          serialNumber: serial,
          placeName: 'Praça Depois',
          value: 2,
          occurredAt: saoPaulo(1).local,
          is_third: false,
        });
      expectSame(await passage(a.active.serial), await passage(unknownSerial));
      const issue = (serial: string, plate: string) =>
        partner(world.keys.shipper, 'POST', '/api/parceiro/vpos', {
          externalId: `v-${newSerial()}`,
          serialNumber: serial,
          PlacaVeiculo: plate,
          CpfCnpjEmbarcador: '11222333000181',
          ValorTotalVP: 10,
        });
      expectSame(await issue(a.active.serial, a.active.plate), await issue(unknownSerial, newPlate()));
      expectSame(
        await partner(world.keys.shipper, 'GET', `/api/parceiro/vpos/${a.vpoExternalId}`),
        await partner(world.keys.shipper, 'GET', '/api/parceiro/vpos/nunca-enviado'),
      );
      expectSame(
        await partner(world.keys.shipper, 'PATCH', `/api/parceiro/vpos/${a.vpoExternalId}`, { Status: 'CANCELADO' }),
        await partner(world.keys.shipper, 'PATCH', '/api/parceiro/vpos/nunca-enviado', { Status: 'CANCELADO' }),
      );
      const movement = (cpfCnpj: string) =>
        partner(world.keys.platform, 'POST', '/api/parceiro/terceiro/movimentos', {
          externalId: `m-${newSerial()}`,
          cpfCnpj,
          origin: 'credito-terceiro-movemais',
          value: 1,
          occurredAt: saoPaulo(1).local,
        });
      expectSame(await movement(a.cpfCnpj), await movement('52998224725'));
      await expectLedgerInvariant(db());
    });

    it('the same CPF registers again as a new account that sees nothing of the old one', async () => {
      const again = await registerDriver(app(), { cpfCnpj: a.cpfCnpj, name: 'Ana Nova Conta' });
      expect(again.id).not.toBe(a.id);
      const read = async (url: string) => {
        const res = await app().inject({ method: 'GET', url, headers: bearer(again.token) });
        expect(res.statusCode, `${url} ${res.body}`).toBe(200);
        return res.json<Record<string, unknown>>();
      };
      expect((await read('/api/extrato/listar?page=1')).Transacoes).toEqual([]);
      expect((await read('/api/veiculo/listar?page=1')).Veiculos).toEqual([]);
      expect((await read('/api/pedagio/motoristaVpos?page=1&sort=data&direction=desc')).VPOS).toEqual([]);
      expect((await read('/api/tag/listar?page=1')).Tags).toEqual([]);
      // Only the driver's own document, which every account has; no saved key.
      expect((await read('/api/motorista/chaves-pix')).Chaves).toEqual([expect.objectContaining({ id: null, propria: true })]);
      expect((await read('/api/motorista/contestacoes?page=1')).Contestacoes).toEqual([]);
      expect((await read('/api/motorista/pix-automatico')).RecargaAutomatica).toBeNull();
      const balance = await read('/api/motorista/saldo');
      expect([balance.Saldo, balance.SaldoTerceiro]).toEqual([0, 0]);
      const body = JSON.stringify([
        await read('/api/motorista/avisos'),
        await read('/api/tag/listar?page=1'),
        await read('/api/motorista/dados'),
      ]);
      for (const old of [a.active.serial, a.inactive.serial, a.active.plate, a.pendingChargeId, a.paidChargeId])
        expect(body).not.toContain(old);
      expect(json(await app().inject({ method: 'GET', url: URL, headers: bearer(again.token) })).Encerramento).toEqual({
        podeEncerrar: true,
        pendencias: [],
      });
      // The old account's records stay whole beside the new one.
      expect(await entries(db(), a.id)).toEqual(entriesBefore);
      await expectLedgerInvariant(db());
    });
  });

  it("an operator that refuses a closed account's tag does not undo the closing: recorded, and done on retry", async () => {
    const d = await registerDriver(app());
    await fund(app(), d, 120);
    const serial = newSerial();
    const plate = newPlate();
    const registered = await app().inject({
      method: 'POST',
      url: '/api/tag/cadastrar-tag',
      headers: bearer(d.token),
      payload: registrationBody(d, { serialNumber: serial, licensePlate: plate }),
    });
    expect(registered.statusCode, registered.body).toBe(201);
    // Spend the balance to zero with the activation's fee and a withdrawal of the rest.
    const activated = await app().inject({
      method: 'POST',
      url: '/api/tag/ativar-tag-motorista',
      headers: bearer(d.token),
      payload: { serialNumber: serial, licensePlate: plate, cnpj: d.cpfCnpj },
    });
    expect(activated.statusCode, activated.body).toBe(200);
    const saldo = json<{ Saldo: number }>(
      await app().inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) }),
    ).Saldo;
    const out = await app().inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount: saldo, pix: { key: d.cpfCnpj, type: 'CPF' } },
    });
    expect(out.statusCode, out.body).toBe(200);
    // The operator's side of the serial is missing: its cancel refuses.
    const held = await db().kysely.selectFrom('operator_tags').selectAll().where('serial_number', '=', serial).executeTakeFirstOrThrow();
    await db().kysely.deleteFrom('operator_tags').where('serial_number', '=', serial).execute();

    closed(await close(d));
    const tag = await db()
      .kysely.selectFrom('tags')
      .select(['id', 'deleted_at', 'status_code'])
      .where('serial_number', '=', serial)
      .executeTakeFirstOrThrow();
    expect(tag.deleted_at).not.toBeNull();
    const pending = await db()
      .kysely.selectFrom('closure_tag_cancellations')
      .selectAll()
      .where('tag_id', '=', tag.id)
      .executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ cancelled_at: null, attempts: 1 });
    expect(pending.last_error).not.toBeNull();
    expect(await liveSessions(db(), d.id)).toBe(0);

    // The operator is back: the retry (CLI encerramento:tags) cancels it.
    await db()
      .kysely.insertInto('operator_tags')
      .values({ ...held, updated_at: new Date(held.updated_at).toISOString() })
      .execute();
    const retried = await retryService(db()).retryTagCancellations();
    expect(retried).toEqual({ cancelled: 1, pending: 0 });
    expect(
      await db().kysely.selectFrom('operator_tags').select('status_code').where('serial_number', '=', serial).executeTakeFirst(),
    ).toEqual({ status_code: 300 });
    await expectLedgerInvariant(db());
  });

  it('money landing between the first check and the closing is caught inside the transaction: nothing closed', async () => {
    const d = await registerDriver(app());
    const tags = new TagService(db(), new LocalTagOperatorGateway(), new Catalogue(), new TagFees());
    // The password check is where the driver waits: a purchase is paid just then.
    const landing = { check: async () => void (await fund(app(), d, 100)) } as unknown as PasswordConfirmation;
    const service = new AccountClosureService(db(), landing, { cancel: () => Promise.reject(new Error('sem recarga')) }, tags, silentLog);
    const refused = await service.close(d.id, d.password).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      kind: 'conflict',
      message: accountClosureMessages.blocked(`Saque o saldo de ${brl('100,00')} antes de encerrar.`),
    });
    expect(await liveSessions(db(), d.id)).toBe(1);
    expect(await db().kysely.selectFrom('closed_accounts').select('driver_id').where('driver_id', '=', d.id).execute()).toEqual([]);
    const row = await db()
      .kysely.selectFrom('drivers')
      .select(['name', 'cpf_cnpj', 'password_hash'])
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row.cpf_cnpj).toBe(d.cpfCnpj);
    expect(row.password_hash).not.toBe('');
  });

  it('a purchase or a top-up authenticated before the closing and stored after it is refused and cancelled at the provider', async () => {
    const d = await registerDriver(app());
    closed(await close(d));
    const { config } = ctx();
    const charges = new ChargeService(db().kysely, db().dialect, provider, config.driverCalls, new RateLimitStore(db().kysely), silentLog);
    const cancelledBefore = provider.cancelled.length;
    await expect(charges.create(d.id, 15_000)).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(provider.cancelled.length).toBe(cancelledBefore + 1);
    const automatic = new PixAutomaticService(db(), provider, true, config.driverCalls, new RateLimitStore(db().kysely), silentLog);
    const authorizationsBefore = provider.cancelledAuthorizations.length;
    await expect(automatic.create(d.id, 15_000, 'MENSAL')).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(provider.cancelledAuthorizations.length).toBe(authorizationsBefore + 1);
    expect(await db().kysely.selectFrom('pix_charges').select('id').where('driver_id', '=', d.id).execute()).toEqual([]);
    expect(await db().kysely.selectFrom('pix_automatic_authorizations').select('id').where('driver_id', '=', d.id).execute()).toEqual([]);
  });

  function expectSame(closedAnswer: LightMyRequestResponse, unknownAnswer: LightMyRequestResponse): void {
    expect(closedAnswer.statusCode, closedAnswer.body).toBe(unknownAnswer.statusCode);
    expect(closedAnswer.body).toBe(unknownAnswer.body);
  }
});

async function liveSessions(db: Db, driverId: number): Promise<number> {
  const rows = await db.kysely
    .selectFrom('sessions')
    .select('id')
    .where('driver_id', '=', driverId)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.length;
}

async function entries(db: Db, driverId: number): Promise<{ n: number; total: number }> {
  const row = await db.kysely
    .selectFrom('ledger_entries')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number | string>('amount_cents').as('total')])
    .where('driver_id', '=', driverId)
    .executeTakeFirstOrThrow();
  return { n: Number(row.n), total: Number(row.total) };
}

const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as ConstructorParameters<
  typeof AccountClosureService
>[4];

/** The service as the CLI builds it, for the retry alone. */
function retryService(db: Db): AccountClosureService {
  const tags = new TagService(db, new LocalTagOperatorGateway(), new Catalogue(), new TagFees());
  const unused = {} as PasswordConfirmation;
  return new AccountClosureService(db, unused, { cancel: () => Promise.reject(new Error('não usado')) }, tags, silentLog);
}
