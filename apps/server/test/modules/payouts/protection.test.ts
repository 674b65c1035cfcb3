import { cpf } from 'cpf-cnpj-validator';
import type { LightMyRequestResponse } from 'fastify';
import { DEFAULT_PAYOUT_LIMITS_CENTS, payoutMessages, serverMessages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import {
  acceptTerms,
  createCharge,
  expectLedgerInvariant,
  FakePixProvider,
  fund,
  ownBalance,
  paymentEvent,
  sendWebhook,
} from '../../helpers/pix.js';
import { actions, registerTag, SEMPARAR } from '../../helpers/tags.js';
import { PayoutLimitStore } from '../../../src/modules/payouts/limits.js';

/** The domain's defaults, as production has them (the other test files raise them: helpers/app.ts). */
const REAL_DEFAULTS = {
  PAYOUT_LIMIT_PER_WITHDRAWAL_DEFAULT: String(DEFAULT_PAYOUT_LIMITS_CENTS.perWithdrawal / 100),
  PAYOUT_LIMIT_DAILY_DEFAULT: String(DEFAULT_PAYOUT_LIMITS_CENTS.daily / 100),
  PAYOUT_LIMIT_NIGHT_DEFAULT: String(DEFAULT_PAYOUT_LIMITS_CENTS.night / 100),
};
const DAYTIME = '2026-11-25T10:00:00-03:00';
const NIGHT = '2026-11-25T23:00:00-03:00';

type Body = Record<string, unknown>;

function payoutsApp(dialect: Parameters<typeof useTestApp>[0], clock: string, extra: Record<string, string> = {}) {
  const provider = new FakePixProvider();
  const ctx = useTestApp(dialect, { ...REAL_DEFAULTS, CLOCK_START: clock, ...extra }, { pixProvider: provider });
  const app = () => ctx().app;
  const withdraw = (d: Registered, body: Body): Promise<LightMyRequestResponse> =>
    app().inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description: 'Saque', receiver_document: d.cpfCnpj, ...body },
    });
  const ready = async (reais: number) => {
    const d = await registerDriver(app());
    await acceptTerms(app(), d);
    for (let left = reais; left > 0; left -= 50_000) await fund(app(), d, Math.min(left, 50_000));
    return d;
  };
  const withdrawalsOf = (d: Registered) => ctx().db.kysely.selectFrom('withdrawals').selectAll().where('driver_id', '=', d.id).execute();
  const keysOf = (d: Registered) => ctx().db.kysely.selectFrom('pix_keys').selectAll().where('driver_id', '=', d.id).execute();
  return { provider, ctx, app, withdraw, ready, withdrawalsOf, keysOf };
}

const mensagem = (res: LightMyRequestResponse) => json<{ Mensagem: string }>(res).Mensagem;
/** A catalogue text with '{x}' where a value (a time to the second) is not known in advance. */
const like = (text: string) =>
  new RegExp(
    `^${text
      .split('{x}')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+')}$`,
  );

describeEachDatabase('saques protegidos (issue 21, ponto 3)', (dialect) => {
  describe('a stolen session in the daytime', () => {
    const t = payoutsApp(dialect, DAYTIME);
    const stranger = () => ({ type: 'CPF', key: cpf.generate(true) });

    it('a key not saved asks for the password again; without it or with a wrong one nothing moves', async () => {
      const d = await t.ready(2_000);
      const pix = stranger();
      const missing = await t.withdraw(d, { amount: 2_000, pix });
      expect(missing.statusCode).toBe(422);
      expect(json(missing)).toMatchObject({
        Mensagem: payoutMessages.passwordRequired,
        errors: { senha: [payoutMessages.passwordRequired] },
      });
      const wrong = await t.withdraw(d, { amount: 2_000, pix, senha: 'não-é-a-senha' });
      expect(wrong.statusCode).toBe(422);
      expect(json(wrong)).toMatchObject({ errors: { senha: [payoutMessages.passwordWrong] } });
      expect(await t.withdrawalsOf(d)).toHaveLength(0);
      expect(await t.keysOf(d)).toHaveLength(0);
      expect(t.provider.payouts).toHaveLength(0);
      expect(await ownBalance(t.app(), d)).toBe(2_000);
    });

    it('the right password saves the key, which receives at most R$ 500,00 in its first 24 hours', async () => {
      const d = await t.ready(2_000);
      const pix = stranger();
      const all = await t.withdraw(d, { amount: 2_000, pix, senha: d.password });
      expect(all.statusCode).toBe(422);
      expect(mensagem(all)).toMatch(like(payoutMessages.newKeyExceeded('R$\u00a0500,00', '26/11/2026 10:{x}', 'R$\u00a0500,00')));
      expect(await t.keysOf(d)).toHaveLength(1);
      // Saved now: no password needed again, and the cap holds across withdrawals.
      expect((await t.withdraw(d, { amount: 300, pix })).statusCode).toBe(200);
      const more = await t.withdraw(d, { amount: 250, pix });
      expect(more.statusCode).toBe(422);
      expect(mensagem(more)).toMatch(like(payoutMessages.newKeyExceeded('R$\u00a0500,00', '26/11/2026 10:{x}', 'R$\u00a0200,00')));
      expect((await t.withdraw(d, { amount: 200, pix })).statusCode).toBe(200);
      expect(await ownBalance(t.app(), d)).toBe(1_500);
      await expectLedgerInvariant(t.ctx().db);
    });

    it('issue 33: one mailbox is one key whatever its case: saved once, capped together at R$ 500,00, shown and sent in lower case', async () => {
      const d = await t.ready(2_000);
      const paidBefore = t.provider.payouts.length;
      const first = await t.withdraw(d, { amount: 500, pix: { type: 'EMAIL', key: 'Ladrao@Example.com' }, senha: d.password });
      expect(first.statusCode).toBe(200);
      // The same mailbox in other cases is the same saved key: no password asked, and nothing left of its R$ 500,00.
      for (const key of ['ladrao@example.com', ' LADRAO@EXAMPLE.COM ']) {
        const again = await t.withdraw(d, { amount: 450, pix: { type: 'EMAIL', key } });
        expect(again.statusCode, key).toBe(422);
        expect(mensagem(again)).toMatch(like(payoutMessages.newKeyExceeded('R$\u00a0500,00', '26/11/2026 10:{x}', 'R$\u00a00,00')));
      }
      const saveAgain = await t.app().inject({
        method: 'POST',
        url: '/api/motorista/chaves-pix',
        headers: bearer(d.token),
        payload: { tipo: 'EMAIL', chave: 'LaDrAo@ExAmPlE.CoM', senha: d.password },
      });
      expect(json(saveAgain)).toMatchObject({ Mensagem: payoutMessages.keyAlreadySaved });
      expect((await t.keysOf(d)).map((k) => k.key)).toEqual(['ladrao@example.com']);
      const listed = await t.app().inject({ method: 'GET', url: '/api/motorista/chaves-pix', headers: bearer(d.token) });
      expect(json<{ Chaves: { tipo: string }[] }>(listed).Chaves.filter((k) => k.tipo === 'EMAIL')).toHaveLength(1);
      expect((await t.withdrawalsOf(d)).map((w) => [w.pix_key, w.amount_cents])).toEqual([['ladrao@example.com', 50_000]]);
      expect(t.provider.payouts.slice(paidBefore).map((p) => p.key)).toEqual(['ladrao@example.com']);
      expect(await ownBalance(t.app(), d)).toBe(1_500);
      await expectLedgerInvariant(t.ctx().db);
    });

    it("the driver's own CPF key needs no password and no waiting; the limits still apply", async () => {
      const d = await t.ready(8_000);
      expect((await t.withdraw(d, { amount: 1_500, pix: { type: 'CPF', key: d.cpfCnpj } })).statusCode).toBe(200);
      const above = await t.withdraw(d, { amount: 5_000.01, pix: { type: 'CPF', key: d.cpfCnpj } });
      expect(above.statusCode).toBe(422);
      expect(json(above)).toMatchObject({
        Mensagem: payoutMessages.perWithdrawalExceeded('R$\u00a05.000,00'),
        errors: { amount: [payoutMessages.perWithdrawalExceeded('R$\u00a05.000,00')] },
      });
    });

    it('five wrong passwords in a row: the next attempt waits, even with the right one', async () => {
      const d = await t.ready(100);
      for (let i = 0; i < 5; i++) expect((await t.withdraw(d, { amount: 10, pix: stranger(), senha: `errada${i}` })).statusCode).toBe(422);
      const locked = await t.withdraw(d, { amount: 10, pix: stranger(), senha: d.password });
      expect(locked.statusCode).toBe(429);
      expect(locked.headers['retry-after']).toBeDefined();
      expect(mensagem(locked)).toMatch(/^Muitas tentativas de confirmar a senha\. Tente de novo em \d+ minutos?\.$/);
      expect(await t.keysOf(d)).toHaveLength(0);
    });

    it('the password never reaches the log', async () => {
      const d = await t.ready(100);
      await t.withdraw(d, { amount: 10, pix: stranger(), senha: 'senha-que-nao-pode-vazar' });
      await t.withdraw(d, { amount: 10, pix: stranger(), senha: d.password });
      expect(t.ctx().logs.join('\n')).not.toContain('senha-que-nao-pode-vazar');
      expect(t.ctx().logs.join('\n')).not.toContain(d.password);
    });

    it('the password is no part of a retry: not in the stored request hash, and the same key replays whatever was typed', async () => {
      const d = await t.ready(200);
      const pix = stranger();
      const body = { description: 'Saque', receiver_document: d.cpfCnpj, amount: 50, pix };
      const send = (senha: string) =>
        t.app().inject({
          method: 'POST',
          url: '/api/motorista/sacar',
          headers: { ...bearer(d.token), 'idempotency-key': 'chave-do-saque-1' },
          payload: { ...body, senha },
        });
      expect((await send(d.password)).statusCode).toBe(200);
      const again = await send('outra-coisa');
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      const stored = await t
        .ctx()
        .db.kysely.selectFrom('idempotency_keys')
        .select('request_hash')
        .where('driver_id', '=', d.id)
        .executeTakeFirstOrThrow();
      const { requestHash } = await import('../../../src/db/request-hash.js');
      expect(stored.request_hash).toBe(
        requestHash({
          method: 'POST',
          route: '/api/motorista/sacar',
          params: {},
          body: { ...body, pix: { key: pix.key, type: pix.type } },
        }),
      );
      expect(await t.withdrawalsOf(d)).toHaveLength(1);
    });

    it('a minimum of R$ 1,00: sixty withdrawals of R$ 0,01 are sixty refusals and no transfer', async () => {
      const d = await t.ready(100);
      const before = t.provider.payouts.length;
      const answers = await Promise.all(
        Array.from({ length: 60 }, () => t.withdraw(d, { amount: 0.01, pix: { type: 'CPF', key: d.cpfCnpj } })),
      );
      for (const res of answers) {
        expect(res.statusCode).toBe(422);
        expect(json(res)).toMatchObject({ Mensagem: payoutMessages.belowMinimum, errors: { amount: [payoutMessages.belowMinimum] } });
      }
      expect(t.provider.payouts.length).toBe(before);
      expect((await t.withdraw(d, { amount: 1, pix: { type: 'CPF', key: d.cpfCnpj } })).statusCode).toBe(200);
    });

    it('the daily limit: what is left today and when it frees', async () => {
      const d = await t.ready(12_000);
      const own = { type: 'CPF', key: d.cpfCnpj };
      expect((await t.withdraw(d, { amount: 5_000, pix: own })).statusCode).toBe(200);
      expect((await t.withdraw(d, { amount: 4_000, pix: own })).statusCode).toBe(200);
      const over = await t.withdraw(d, { amount: 1_500, pix: own });
      expect(over.statusCode).toBe(422);
      expect(mensagem(over)).toBe(payoutMessages.dailyExceeded('R$\u00a010.000,00', 'R$\u00a01.000,00', '26/11/2026 00:00:00'));
      expect((await t.withdraw(d, { amount: 1_000, pix: own })).statusCode).toBe(200);
    });

    it('concurrent withdrawals cannot pass a limit together: the sum sent stays within it', async () => {
      const d = await t.ready(1_000);
      const pix = stranger();
      expect((await t.withdraw(d, { amount: 1, pix, senha: d.password })).statusCode).toBe(200);
      const answers = await Promise.all(Array.from({ length: 10 }, () => t.withdraw(d, { amount: 100, pix })));
      const rows = await t.withdrawalsOf(d);
      const sent = rows.filter((w) => w.status !== 'FAILED').reduce((sum, w) => sum + Number(w.amount_cents), 0);
      expect(sent).toBeLessThanOrEqual(50_000);
      expect(answers.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(4);
      await expectLedgerInvariant(t.ctx().db);
    });

    it('withdrawals racing tag activations (their fee) and Pix credits for the same driver never deadlock: no 500', async () => {
      const d = await t.ready(2_000);
      const tags = await Promise.all(Array.from({ length: 6 }, () => registerTag(t.app(), d, { Operadora: SEMPARAR })));
      const charges = await Promise.all(Array.from({ length: 6 }, () => createCharge(t.app(), d, 100)));
      const own = { type: 'CPF', key: d.cpfCnpj };
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => t.withdraw(d, { amount: 5, pix: own })),
        ...tags.map((tag) => actions.activate(t.app(), d, tag.serial, tag.plate)),
        ...charges.map((c) => sendWebhook(t.app(), paymentEvent('PAYMENT_RECEIVED', c))),
      ]);
      for (const res of answers) expect(res.statusCode, res.body).toBeLessThan(500);
      await expectLedgerInvariant(t.ctx().db);
    });

    it("the dashboard's notices show every new key and every payout; a removed key asks for the password again", async () => {
      const d = await t.ready(500);
      const pix = stranger();
      expect((await t.withdraw(d, { amount: 120, pix, senha: d.password })).statusCode).toBe(200);
      const notices = json<{ Avisos: { tipo: string; Mensagem: string }[] }>(
        await t.app().inject({ method: 'GET', url: '/api/motorista/avisos', headers: bearer(d.token) }),
      ).Avisos;
      const masked = `***.${pix.key.replace(/\D/g, '').slice(3, 6)}.${pix.key.replace(/\D/g, '').slice(6, 9)}-**`;
      expect(notices.find((n) => n.tipo === 'chave-pix-nova')?.Mensagem).toContain(`CPF ${masked}`);
      expect(notices.find((n) => n.tipo === 'saque')?.Mensagem).toMatch(
        new RegExp(
          `^Saque de R\\$\\s120,00 para a chave Pix CPF ${masked.replace(/[.*]/g, '\\$&')} em 25/11/2026 10:00:\\d\\d: concluído\\.$`,
        ),
      );
      const keys = json<{ Chaves: { id: number | null; propria: boolean; chave: string; restanteLimitada: number | null }[] }>(
        await t.app().inject({ method: 'GET', url: '/api/motorista/chaves-pix', headers: bearer(d.token) }),
      ).Chaves;
      expect(keys[0]).toMatchObject({ propria: true, chave: d.cpfCnpj, id: null });
      const saved = keys.find((k) => !k.propria);
      expect(saved).toMatchObject({ restanteLimitada: 380 });
      const removed = await t.app().inject({ method: 'DELETE', url: `/api/motorista/chaves-pix/${saved?.id}`, headers: bearer(d.token) });
      expect(json(removed)).toEqual({ Sucesso: true, Mensagem: payoutMessages.keyRemoved });
      expect((await t.withdraw(d, { amount: 10, pix })).statusCode).toBe(422);
      const other = await registerDriver(t.app());
      const notYours = await t
        .app()
        .inject({ method: 'DELETE', url: `/api/motorista/chaves-pix/${saved?.id}`, headers: bearer(other.token) });
      expect(notYours.statusCode).toBe(404);
    });
  });

  describe('at 23h in São Paulo', () => {
    const t = payoutsApp(dialect, NIGHT);

    it('the night limit (R$ 1.000,00 by default) says what is left tonight and that it frees at 6h', async () => {
      const d = await t.ready(3_000);
      const own = { type: 'CPF', key: d.cpfCnpj };
      expect((await t.withdraw(d, { amount: 700, pix: own })).statusCode).toBe(200);
      const over = await t.withdraw(d, { amount: 400, pix: own });
      expect(over.statusCode).toBe(422);
      expect(mensagem(over)).toBe(payoutMessages.nightExceeded('R$\u00a01.000,00', 'R$\u00a0300,00', '26/11/2026 06:00:00'));
      expect(await ownBalance(t.app(), d)).toBe(2_300);
    });

    it('the stolen phone: a stranger key saved with the password takes at most R$ 500,00 of R$ 3.000,00', async () => {
      const d = await t.ready(3_000);
      const pix = { type: 'CPF', key: cpf.generate(true) };
      const all = await t.withdraw(d, { amount: 3_000, pix, senha: d.password });
      expect(all.statusCode).toBe(422);
      expect((await t.withdraw(d, { amount: 500, pix })).statusCode).toBe(200);
      expect((await t.withdraw(d, { amount: 500, pix })).statusCode).toBe(422);
      expect(await ownBalance(t.app(), d)).toBe(2_500);
    });
  });

  describe('changing the limits', () => {
    const t = payoutsApp(dialect, DAYTIME);
    const set = (d: Registered, body: Body) =>
      t.app().inject({ method: 'POST', url: '/api/motorista/limites-saque', headers: bearer(d.token), payload: body });

    it('a lowering takes effect at once; a raise only 24 hours later, and the page says when', async () => {
      const d = await t.ready(3_000);
      const lowered = await set(d, { porSaque: 100, diario: 10_000, noturno: 1_000 });
      expect(json(lowered)).toMatchObject({ Mensagem: payoutMessages.limitsSaved, Limites: { porSaque: { valor: 100, pendente: null } } });
      expect((await t.withdraw(d, { amount: 150, pix: { type: 'CPF', key: d.cpfCnpj } })).statusCode).toBe(422);
      const raised = await set(d, { porSaque: 100, diario: 20_000, noturno: 1_000 });
      expect(mensagem(raised)).toMatch(
        like(payoutMessages.limitsSavedRaises(payoutMessages.raiseWaits('Limite diário', 'R$\u00a020.000,00', '26/11/2026 10:{x}'))),
      );
      expect(json(raised)).toMatchObject({ Limites: { diario: { valor: 10_000, pendente: { valor: 20_000 } } } });
      const read = json<{ Limites: { diario: { pendente: { vigenteEm: string } } } }>(
        await t.app().inject({ method: 'GET', url: '/api/motorista/limites-saque', headers: bearer(d.token) }),
      );
      expect(Date.parse(read.Limites.diario.pendente.vigenteEm) - Date.parse(DAYTIME)).toBeGreaterThanOrEqual(24 * 3_600_000);
    });

    it('a raise waiting is in force once its time has come, and a lowering meanwhile cancels it', async () => {
      const d = await registerDriver(t.app());
      const store = new PayoutLimitStore(t.ctx().db.kysely, DEFAULT_PAYOUT_LIMITS_CENTS);
      const now = new Date(DAYTIME);
      const wanted = { perWithdrawal: 500_000, daily: 2_000_000, night: 100_000 };
      await store.change(d.id, wanted, now);
      expect((await store.read(t.ctx().db.kysely, d.id, new Date(now.getTime() + 23 * 3_600_000))).daily.valueCents).toBe(1_000_000);
      expect((await store.read(t.ctx().db.kysely, d.id, new Date(now.getTime() + 24 * 3_600_000))).daily).toEqual({
        valueCents: 2_000_000,
        pending: null,
      });
      await store.change(d.id, { ...wanted, daily: 900_000 }, new Date(now.getTime() + 3_600_000));
      expect((await store.read(t.ctx().db.kysely, d.id, new Date(now.getTime() + 48 * 3_600_000))).daily).toEqual({
        valueCents: 900_000,
        pending: null,
      });
    });

    it('a value out of range is refused with a Portuguese message on its field, and nothing changes', async () => {
      const d = await registerDriver(t.app());
      const res = await set(d, { porSaque: -1, diario: 'muito', noturno: 100_000_000 });
      expect(res.statusCode).toBe(422);
      expect(json(res)).toMatchObject({
        errors: {
          porSaque: [payoutMessages.limitInvalid('perWithdrawal')],
          diario: [payoutMessages.limitInvalid('daily')],
          noturno: [payoutMessages.limitInvalid('night')],
        },
      });
      expect(await t.ctx().db.kysely.selectFrom('payout_limits').selectAll().where('driver_id', '=', d.id).execute()).toHaveLength(0);
    });
  });
});

describeEachDatabase('chamadas que custam dinheiro ao operador, por motorista (issue 21, ponto 4)', (dialect) => {
  const t = payoutsApp(dialect, DAYTIME, { PIX_CHARGES_PENDING_MAX: '3', PIX_CHARGES_PER_HOUR: '5', WITHDRAWALS_PER_HOUR: '3' });
  const charge = (d: Registered) =>
    t.app().inject({
      method: 'POST',
      url: '/api/transacoes/gerar-qrcode',
      headers: bearer(d.token),
      payload: { valor: 100, cpfCnpj: d.cpfCnpj, project: 'VPO' },
    });

  it('ten concurrent Pix charges: three wait at once, the rest 429 with a Portuguese Mensagem; nothing payable beyond them', async () => {
    const d = await registerDriver(t.app());
    await acceptTerms(t.app(), d);
    const answers = await Promise.all(Array.from({ length: 10 }, () => charge(d)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(3);
    for (const r of answers.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(429);
      expect(
        [serverMessages.payouts.tooManyPending(3), serverMessages.payouts.tooManyCharges(60)].some((m) => m === mensagem(r)) ||
          /^Você gerou muitos Pix na última hora/.test(mensagem(r)),
      ).toBe(true);
    }
    const pending = await t
      .ctx()
      .db.kysely.selectFrom('pix_charges')
      .selectAll()
      .where('driver_id', '=', d.id)
      .where('status', '=', 'PENDING')
      .execute();
    expect(pending).toHaveLength(3);
    // A charge made at the provider but refused here was cancelled there.
    const made = t.provider.charges.filter((c) => c.driver.cpfCnpj === d.cpfCnpj).length;
    expect(made).toBeLessThanOrEqual(5);
    expect(t.provider.cancelled.length).toBeGreaterThanOrEqual(made - 3);
  });

  it('charges per hour: the sixth of the hour is refused even when none is waiting', async () => {
    const d = await registerDriver(t.app());
    await acceptTerms(t.app(), d);
    for (let i = 0; i < 5; i++) {
      const res = await charge(d);
      expect(res.statusCode, res.body).toBe(200);
      await t.ctx().db.kysely.updateTable('pix_charges').set({ status: 'OVERDUE' }).where('driver_id', '=', d.id).execute();
    }
    const sixth = await charge(d);
    expect(sixth.statusCode).toBe(429);
    expect(mensagem(sixth)).toMatch(/^Você gerou muitos Pix na última hora\. Tente de novo em \d+ minutos?\.$/);
  });

  it('withdrawals per hour, counted in the database: a second instance on it sees the same count', async () => {
    const d = await t.ready(500);
    const own = { type: 'CPF', key: d.cpfCnpj };
    for (let i = 0; i < 3; i++) expect((await t.withdraw(d, { amount: 10, pix: own })).statusCode).toBe(200);
    const { buildApp } = await import('../../../src/app.js');
    const second = await buildApp({ config: t.ctx().config, db: t.ctx().db, pixProvider: t.provider });
    try {
      const res = await second.inject({
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: bearer(d.token),
        payload: { description: 'x', receiver_document: d.cpfCnpj, amount: 10, pix: own },
      });
      expect(res.statusCode).toBe(429);
      expect(mensagem(res)).toMatch(/^Você fez muitos saques na última hora\. Tente de novo em \d+ minutos?\.$/);
    } finally {
      await second.close();
    }
    expect(await ownBalance(t.app(), d)).toBe(470);
  });
});
