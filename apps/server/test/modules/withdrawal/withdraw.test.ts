import { messages, Refusal, serverMessages, STATEMENT_ORIGINS } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { resolveWithdrawal } from '../../../src/cli/withdrawal.js';
import { createLogger } from '../../../src/logger.js';
import { createServices } from '../../../src/services.js';
import { bearer, json, registerDriver } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import {
  acceptTerms,
  entriesOf,
  expectLedgerInvariant,
  fund,
  ownBalance,
  sendWebhook,
  readyDriver as readyDriverWith,
  usePixTestApp,
} from '../../helpers/pix.js';

const MASKED_CPF = '529.982.247-25';

describeEachDatabase('saque para chave Pix', (dialect) => {
  const { provider, ctx, app, db } = usePixTestApp(dialect);

  const readyDriver = (reais: number) => readyDriverWith(app(), reais);

  const withdraw = (d: Registered, body: Record<string, unknown>) =>
    app().inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description: 'Saque', receiver_document: d.cpfCnpj, senha: d.password, ...body },
    });
  const check = (d: Registered) => app().inject({ method: 'GET', url: '/api/motorista/verificar-saque', headers: bearer(d.token) });
  const withdrawalsOf = (d: Registered) =>
    db().kysely.selectFrom('withdrawals').selectAll().where('driver_id', '=', d.id).orderBy('created_at').execute();

  describe('GET /api/motorista/verificar-saque', () => {
    it('refuses until the terms are accepted, and after a rejection, naming them by their code (issue 25)', async () => {
      const termsRefusal = { Sucesso: false, Mensagem: serverMessages.withdrawal.termsNotAccepted, code: 'TERMS_NOT_ACCEPTED' };
      const d = await registerDriver(app(), {}, { acceptTerms: false });
      expect(json(await check(d))).toEqual(termsRefusal);
      await acceptTerms(app(), d);
      const ok = await check(d);
      expect(ok.statusCode).toBe(200);
      expect(json(ok)).toEqual({ Sucesso: true, Mensagem: serverMessages.withdrawal.allowed });
      await app().inject({ method: 'POST', url: '/api/termos/rejeitar', headers: bearer(d.token) });
      expect(json(await check(d))).toEqual(termsRefusal);
      // Founding decision 27: refused before anything else, as every call that moves money (test/security/terms-enforcement.test.ts).
      const refused = await withdraw(d, { amount: 1, pix: { type: 'EVP', key: '123e4567-e89b' } });
      expect(refused.statusCode).toBe(403);
      expect(json(refused)).toEqual({ Sucesso: false, Mensagem: serverMessages.terms.notAccepted, code: 'TERMS_NOT_ACCEPTED' });
      expect((await app().inject({ method: 'GET', url: '/api/motorista/verificar-saque' })).statusCode).toBe(401);
    });
  });

  describe('POST /api/motorista/sacar', () => {
    it('pays out to each of the five key types, normalised as spec §7 says', async () => {
      const d = await readyDriver(500);
      const cases = [
        { type: 'CPF', key: MASKED_CPF, stored: '52998224725' },
        { type: 'CNPJ', key: '11.222.333/0001-81', stored: '11222333000181' },
        { type: 'PHONE', key: '(11) 98765-4321', stored: '11987654321' },
        { type: 'EMAIL', key: '  motorista@example.com ', stored: 'motorista@example.com' },
        { type: 'EVP', key: '123e4567-e89b-12d3-a456-426614174000', stored: '123e4567-e89b-12d3-a456-426614174000' },
      ];
      for (const c of cases) {
        const res = await withdraw(d, { amount: 40, description: `Saque ${c.type}`, pix: { type: c.type, key: c.key } });
        expect(res.statusCode, res.body).toBe(200);
        const body = json<{ withdrawalId: string }>(res);
        expect(body).toMatchObject({ Sucesso: true, Mensagem: serverMessages.withdrawal.done, status: 'DONE' });
        expect(provider.payouts.at(-1)).toEqual({
          withdrawalId: body.withdrawalId,
          amountCents: 4_000,
          key: c.stored,
          keyType: c.type,
          description: `Saque ${c.type}`,
        });
      }
      const rows = await withdrawalsOf(d);
      expect(rows.map((r) => [r.pix_key_type, r.pix_key, Number(r.amount_cents), r.status])).toEqual(
        cases.map((c) => [c.type, c.stored, 4_000, 'DONE']),
      );
      expect(rows.every((r) => r.completed_at !== null && r.provider_transfer_id === `tr_${r.id}`)).toBe(true);
      expect(await ownBalance(app(), d)).toBe(300);
      const debits = (await entriesOf(db(), d.id)).filter((e) => e.origin === STATEMENT_ORIGINS.pixWithdrawal);
      expect(debits.map((e) => [e.amount_cents, e.place_name, e.event])).toEqual(Array(5).fill([-4_000, 'Saque via Pix', null]));
      expect(debits.map((e) => e.idempotency_key)).toEqual(rows.map((r) => `withdrawal:${r.id}:debit`));
      await expectLedgerInvariant(db());
    });

    it('checks the rules of spec §5 in their order, with their messages; nothing is written', async () => {
      const d = await readyDriver(100);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ pix: { type: '', key: '' } }, 'amount', messages.withdrawal.amountRequired],
        [{ amount: 'abc', pix: { type: 'CPF', key: MASKED_CPF } }, 'amount', messages.withdrawal.amountRequired],
        [{ amount: 0, pix: { type: 'CPF', key: MASKED_CPF } }, 'amount', messages.withdrawal.amountRequired],
        [{ amount: -10, pix: { type: 'CPF', key: MASKED_CPF } }, 'amount', messages.withdrawal.amountRequired],
        [{ amount: 10.005, pix: { type: 'CPF', key: MASKED_CPF } }, 'amount', messages.withdrawal.amountRequired],
        [{ amount: 100.01, pix: { type: '', key: '' } }, 'amount', messages.withdrawal.amountAboveBalance],
        [{ amount: 50, pix: { type: '', key: 'x' } }, 'pixType', messages.withdrawal.keyTypeRequired],
        [{ amount: 50, pix: { type: 'BOLETO', key: 'x' } }, 'pixType', messages.withdrawal.keyTypeRequired],
        [{ amount: 50 }, 'pixType', messages.withdrawal.keyTypeRequired],
        [{ amount: 50, pix: { type: 'CPF', key: '   ' } }, 'pixKey', messages.withdrawal.keyRequired],
        [{ amount: 50, pix: { type: 'CPF', key: '529.982.247-24' } }, 'pixKey', messages.withdrawal.keyInvalid],
        [{ amount: 50, pix: { type: 'CNPJ', key: '11.222.333/0001-80' } }, 'pixKey', messages.withdrawal.keyInvalid],
        [{ amount: 50, pix: { type: 'PHONE', key: '(11) 8765-4321' } }, 'pixKey', messages.withdrawal.keyInvalid],
        [{ amount: 50, pix: { type: 'EMAIL', key: 'motorista@' } }, 'pixKey', messages.withdrawal.keyInvalid],
        [{ amount: 50, pix: { type: 'EVP', key: '1234567' } }, 'pixKey', messages.withdrawal.keyInvalid],
      ];
      for (const [body, field, message] of cases) {
        const res = await withdraw(d, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(422);
        expect(json(res)).toEqual({ Sucesso: false, Mensagem: message, errors: { [field]: [message] } });
      }
      const other = await withdraw(d, { amount: 50, receiver_document: '11144477735', pix: { type: 'CPF', key: MASKED_CPF } });
      expect(other.statusCode).toBe(403);
      expect(json(other)).toEqual({ Sucesso: false, Mensagem: serverMessages.withdrawal.notYourDocument });
      expect(await withdrawalsOf(d)).toEqual([]);
      expect(provider.payouts.filter((p) => p.amountCents === 5_000 && p.key === '52998224725')).toEqual([]);
      expect(await ownBalance(app(), d)).toBe(100);
      // The whole balance, with a masked receiver document, is fine.
      const ok = await withdraw(d, {
        amount: 100,
        receiver_document: d.cpfCnpj.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4'),
        pix: { type: 'PHONE', key: '11987654321' },
      });
      expect(ok.statusCode).toBe(200);
      expect(await ownBalance(app(), d)).toBe(0);
      // No description: the payout still says where it comes from.
      await fund(app(), d, 100);
      await withdraw(d, { amount: 1, description: '  ', pix: { type: 'PHONE', key: '11987654321' } });
      expect(provider.payouts.at(-1)?.description).toBe(messages.withdrawal.defaultDescription);
    });

    it('a rejected payout gives the money back with a reversal, and says why', async () => {
      const d = await readyDriver(200);
      provider.payout = { reject: 'Chave Pix não encontrada.' };
      const res = await withdraw(d, { amount: 120, pix: { type: 'EMAIL', key: 'nao.existe@example.com' } });
      const text = 'Não foi possível concluir o saque: Chave Pix não encontrada. O valor foi devolvido ao seu saldo.';
      expect(res.statusCode).toBe(502);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: text, error: text });
      expect(await ownBalance(app(), d)).toBe(200);
      const [w] = await withdrawalsOf(d);
      expect(w).toMatchObject({ status: 'FAILED', failure_reason: 'Chave Pix não encontrada.' });
      expect(
        (await entriesOf(db(), d.id)).slice(1).map((e) => [e.amount_cents, e.origin, e.event, e.place_name, e.idempotency_key]),
      ).toEqual([
        [-12_000, 'saque-pix', null, 'Saque via Pix', `withdrawal:${w!.id}:debit`],
        [12_000, 'devolucao-saque-pix', 'REFUND', 'Devolução de saque via Pix', `withdrawal:${w!.id}:reversal`],
      ]);
      // A late TRANSFER_FAILED for the same withdrawal changes nothing.
      await sendWebhook(app(), { event: 'TRANSFER_FAILED', transfer: { id: 'tr_x', externalReference: w!.id } });
      expect(await ownBalance(app(), d)).toBe(200);
      await expectLedgerInvariant(db());
    });

    it('a provider that surely never got the payout: reversal with the "não respondeu" reason', async () => {
      const d = await readyDriver(200);
      for (const behaviour of ['unreachable', 'crash'] as const) {
        provider.payout = behaviour;
        const res = await withdraw(d, { amount: 50, pix: { type: 'EVP', key: '123e4567-e89b-12d3-a456-426614174000' } });
        const text = 'Não foi possível concluir o saque: o serviço de pagamentos não respondeu. O valor foi devolvido ao seu saldo.';
        expect(res.statusCode).toBe(502);
        expect(json(res)).toEqual({ Sucesso: false, Mensagem: text, error: text });
      }
      expect(await ownBalance(app(), d)).toBe(200);
    });

    it('a payout that timed out may have been made: it stays PROCESSING, nothing is given back twice', async () => {
      const d = await readyDriver(200);
      provider.payout = 'unavailable';
      const res = await withdraw(d, { amount: 50, pix: { type: 'EVP', key: '123e4567-e89b-12d3-a456-426614174000' } });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toMatchObject({ Sucesso: true, Mensagem: serverMessages.withdrawal.processing, status: 'PROCESSING' });
      expect(await ownBalance(app(), d)).toBe(150);
      expect((await withdrawalsOf(d))[0]).toMatchObject({ status: 'PROCESSING' });
      expect(json(await check(d))).toEqual({ Sucesso: false, Mensagem: serverMessages.withdrawal.alreadyProcessing });
      await expectLedgerInvariant(db());

      // The operator checked the provider: it was not made. The money comes back, once.
      const id = json<{ withdrawalId: string }>(res).withdrawalId;
      const log = createLogger('silent');
      expect(await resolveWithdrawal(db(), log, [id, 'failed', 'transferência', 'não', 'realizada'], provider)).toBe(
        `Saque ${id} (R$\u00a050,00) marcado como FAILED.`,
      );
      expect(await resolveWithdrawal(db(), log, [id, 'failed'], provider)).toContain('já estava FAILED; nada mudou');
      expect(await ownBalance(app(), d)).toBe(200);
      expect((await withdrawalsOf(d))[0]).toMatchObject({ status: 'FAILED', failure_reason: 'transferência não realizada' });
      await expect(resolveWithdrawal(db(), log, [id, 'talvez'], provider)).rejects.toThrow('Uso: withdrawal:resolve');
      await expectLedgerInvariant(db());
    });

    it('a pending payout stays PROCESSING until TRANSFER_DONE; meanwhile no other withdrawal', async () => {
      const d = await readyDriver(300);
      provider.payout = 'PENDING';
      const res = await withdraw(d, { amount: 100, pix: { type: 'CPF', key: MASKED_CPF } });
      expect(json(res)).toMatchObject({ Sucesso: true, Mensagem: serverMessages.withdrawal.processing, status: 'PROCESSING' });
      const [w] = await withdrawalsOf(d);
      expect(w).toMatchObject({ status: 'PROCESSING', provider_transfer_id: `tr_${w!.id}` });
      expect(json(await check(d))).toEqual({ Sucesso: false, Mensagem: serverMessages.withdrawal.alreadyProcessing });
      const second = await withdraw(d, { amount: 10, pix: { type: 'CPF', key: MASKED_CPF } });
      expect(second.statusCode).toBe(409);
      expect(json(second)).toEqual({ Sucesso: false, Mensagem: serverMessages.withdrawal.alreadyProcessing });
      const unknown = await sendWebhook(app(), { event: 'TRANSFER_DONE', transfer: { id: 'tr_nada' } });
      expect(unknown.statusCode).toBe(200);
      expect(json(unknown)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
      // Blocked at the provider: still PROCESSING, and visible to the operator.
      const blocked = await sendWebhook(app(), {
        id: `evt_blk_${w!.id}`,
        event: 'TRANSFER_BLOCKED',
        transfer: { id: `tr_${w!.id}`, status: 'BLOCKED' },
      });
      expect(json(blocked)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
      expect((await withdrawalsOf(d))[0]).toMatchObject({ status: 'PROCESSING' });
      const openEvents = () =>
        db()
          .kysely.selectFrom('webhook_events')
          .select(['reason_code', 'status', 'reason'])
          .where('provider_ref', '=', `tr_${w!.id}`)
          .execute();
      expect(await openEvents()).toEqual([
        { reason_code: 'transfer-blocked', status: 'open', reason: `${serverMessages.pix.unapplied['transfer-blocked']} (saque ${w!.id})` },
      ]);
      for (let i = 0; i < 2; i++) {
        const done = await sendWebhook(app(), { event: 'TRANSFER_DONE', transfer: { id: `tr_${w!.id}`, value: 100, status: 'DONE' } });
        expect(json(done)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookProcessed });
      }
      expect((await withdrawalsOf(d))[0]).toMatchObject({ status: 'DONE' });
      // Released and done: the blocked notice is settled by itself.
      expect(await openEvents()).toMatchObject([{ reason_code: 'transfer-blocked', status: 'resolved' }]);
      // DONE is final: a late failure does not give the money back.
      await sendWebhook(app(), { event: 'TRANSFER_FAILED', transfer: { id: `tr_${w!.id}`, failReason: 'x' } });
      expect(await ownBalance(app(), d)).toBe(200);
      expect(json(await check(d))).toMatchObject({ Sucesso: true });
    });

    it('TRANSFER_FAILED for the stored transfer reverses once, with the default reason when none is given', async () => {
      const d = await readyDriver(300);
      provider.payout = 'PENDING';
      const res = await withdraw(d, { amount: 100, pix: { type: 'CPF', key: MASKED_CPF } });
      const id = json<{ withdrawalId: string }>(res).withdrawalId;
      const event = { event: 'TRANSFER_FAILED', transfer: { id: `tr_${id}`, externalReference: id } };
      const results = await Promise.all(Array.from({ length: 5 }, () => sendWebhook(app(), event)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
      expect(await ownBalance(app(), d)).toBe(300);
      expect((await withdrawalsOf(d))[0]).toMatchObject({ status: 'FAILED', failure_reason: serverMessages.withdrawal.payoutRejected });
      expect((await entriesOf(db(), d.id)).filter((e) => e.origin === STATEMENT_ORIGINS.pixWithdrawalReversal)).toHaveLength(1);
      await expectLedgerInvariant(db());
    });

    // Issue 21, point 1: W1 fails at once (transfer tra_3), W2 waits on its own transfer; an event with
    // tra_3's id and W2's reference must not give W2's money back while W2's transfer is paid.
    it.each([
      ["the failed transfer's id was kept (the rejection carries it)", 'tra_3', true],
      ["the failed transfer's id never reached the portal", 'tra_9', false],
    ] as const)(
      'a crossed TRANSFER_FAILED moves nothing and is recorded; the real TRANSFER_DONE completes W2 (%s)',
      async (_label, failedId, kept) => {
        const d = await readyDriver(200);
        const keptId = kept ? failedId : undefined;
        provider.payout = { reject: 'Chave Pix não encontrada.', ...(keptId ? { transferId: keptId } : {}) };
        await withdraw(d, { amount: 100, pix: { type: 'EMAIL', key: 'outra.pessoa@example.com' } });
        const [w1] = await withdrawalsOf(d);
        expect(w1).toMatchObject({ status: 'FAILED', provider_transfer_id: keptId ?? null });
        provider.payout = 'PENDING';
        const w2 = json<{ withdrawalId: string }>(await withdraw(d, { amount: 100, pix: { type: 'CPF', key: MASKED_CPF } })).withdrawalId;
        expect(await ownBalance(app(), d)).toBe(100);

        const crossed = await sendWebhook(app(), { event: 'TRANSFER_FAILED', transfer: { id: failedId, externalReference: w2 } });
        expect(crossed.statusCode).toBe(200);
        const w2Row = () => db().kysely.selectFrom('withdrawals').selectAll().where('id', '=', w2).executeTakeFirstOrThrow();
        expect(await ownBalance(app(), d)).toBe(100);
        expect(await w2Row()).toMatchObject({ status: 'PROCESSING', provider_transfer_id: `tr_${w2}` });
        expect(json(crossed)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
        const events = await db()
          .kysely.selectFrom('webhook_events')
          .select(['event', 'reason_code', 'status', 'reason'])
          .where('provider_ref', '=', failedId)
          .execute();
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ event: 'TRANSFER_FAILED', reason_code: 'reference-mismatch', status: 'open' });
        expect(events[0]?.reason.startsWith(serverMessages.pix.unapplied['reference-mismatch'])).toBe(true);

        const done = await sendWebhook(app(), { event: 'TRANSFER_DONE', transfer: { id: `tr_${w2}`, externalReference: w2 } });
        expect(json(done)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookProcessed });
        expect(await w2Row()).toMatchObject({ status: 'DONE' });
        expect(await ownBalance(app(), d)).toBe(100);
        // A late event about W1's own transfer still finds W1 only, and gives nothing back twice.
        if (keptId) {
          expect(json(await sendWebhook(app(), { event: 'TRANSFER_FAILED', transfer: { id: keptId, externalReference: w1!.id } }))).toEqual(
            { Sucesso: true, Mensagem: serverMessages.pix.webhookProcessed },
          );
          expect(await ownBalance(app(), d)).toBe(100);
        }
        expect((await entriesOf(db(), d.id)).filter((e) => e.origin === STATEMENT_ORIGINS.pixWithdrawalReversal)).toHaveLength(1);
        await expectLedgerInvariant(db());
      },
    );

    it('an event naming the stored transfer with another withdrawal as its reference moves nothing', async () => {
      const a = await readyDriver(200);
      const b = await readyDriver(200);
      provider.payout = 'PENDING';
      const wa = json<{ withdrawalId: string }>(await withdraw(a, { amount: 50, pix: { type: 'CPF', key: MASKED_CPF } })).withdrawalId;
      const wb = json<{ withdrawalId: string }>(await withdraw(b, { amount: 70, pix: { type: 'CPF', key: MASKED_CPF } })).withdrawalId;
      const crossed = await sendWebhook(app(), { event: 'TRANSFER_FAILED', transfer: { id: `tr_${wa}`, externalReference: wb } });
      expect(await ownBalance(app(), a)).toBe(150);
      expect(await ownBalance(app(), b)).toBe(130);
      expect(json(crossed)).toEqual({ Sucesso: true, Mensagem: serverMessages.pix.webhookRecorded });
      const statuses = await db().kysely.selectFrom('withdrawals').select('status').where('id', 'in', [wa, wb]).execute();
      expect(statuses.map((r) => r.status)).toEqual(['PROCESSING', 'PROCESSING']);
      expect(await db().kysely.selectFrom('webhook_events').select('reason_code').where('provider_ref', '=', `tr_${wa}`).execute()).toEqual(
        [{ reason_code: 'reference-mismatch' }],
      );
    });

    it('50 concurrent withdrawals of the whole balance: exactly one debit', async () => {
      const d = await readyDriver(100);
      provider.payoutDelayMs = 20;
      const results = await Promise.all(
        Array.from({ length: 50 }, () => withdraw(d, { amount: 100, pix: { type: 'CPF', key: MASKED_CPF } })),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      for (const r of results.filter((x) => x.statusCode !== 200)) {
        expect([409, 422, 429]).toContain(r.statusCode);
        // 429: the new key's password confirmations are counted while in flight (decision 44).
        const text = json<{ Mensagem: string }>(r).Mensagem;
        if (r.statusCode === 429) expect(text).toMatch(/^Muitas tentativas de confirmar a senha/);
        else expect([serverMessages.withdrawal.alreadyProcessing, messages.withdrawal.amountAboveBalance]).toContain(text);
      }
      const debits = (await entriesOf(db(), d.id)).filter((e) => e.origin === STATEMENT_ORIGINS.pixWithdrawal);
      expect(debits).toHaveLength(1);
      expect(await withdrawalsOf(d)).toHaveLength(1);
      expect(await ownBalance(app(), d)).toBe(0);
      await expectLedgerInvariant(db());
    });

    it('the guarded debit alone decides: 50 concurrent debits past the checks, one passes, the rest write nothing', async () => {
      const d = await readyDriver(100);
      const silent = createLogger('silent');
      const { withdrawals } = createServices(ctx().config, db(), silent, { pixProvider: provider });
      const order = { driverId: d.id, amountCents: 10_000, keyType: 'CPF' as const, key: '52998224725', description: 'x' };
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => withdrawals.open(order)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') {
          expect(r.reason).toBeInstanceOf(Refusal);
          expect((r.reason as Refusal).message).toBe(messages.withdrawal.amountAboveBalance);
        }
      }
      expect(await withdrawalsOf(d)).toHaveLength(1);
      expect(await ownBalance(app(), d)).toBe(0);
      await expectLedgerInvariant(db());
    });
  });
});
