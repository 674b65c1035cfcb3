import fc from 'fast-check';
import { STATEMENT_ORIGINS, MIN_WITHDRAWAL_CENTS } from '@portal/domain';
import { expect, it } from 'vitest';
import { bearer, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import {
  acceptTerms,
  createCharge,
  entriesOf,
  expectLedgerInvariant,
  FakePixProvider,
  ownBalance,
  paymentEvent,
  sendWebhook,
} from '../../helpers/pix.js';

type Action =
  | { kind: 'buy'; cents: number }
  | { kind: 'settle'; charge: number; events: ('PAYMENT_RECEIVED' | 'PAYMENT_CONFIRMED')[]; concurrent: boolean }
  | { kind: 'refund'; charge: number }
  | { kind: 'overdue'; charge: number }
  | { kind: 'withdraw'; cents: number; payout: 'DONE' | 'PENDING' | 'reject' }
  | { kind: 'transfer'; withdrawal: number; outcome: 'TRANSFER_DONE' | 'TRANSFER_FAILED' };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('buy' as const), cents: fc.integer({ min: 10_000, max: 60_000 }) }),
  fc.record({
    kind: fc.constant('settle' as const),
    charge: fc.nat(),
    events: fc.array(fc.constantFrom('PAYMENT_RECEIVED' as const, 'PAYMENT_CONFIRMED' as const), { minLength: 1, maxLength: 3 }),
    concurrent: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('refund' as const), charge: fc.nat() }),
  fc.record({ kind: fc.constant('overdue' as const), charge: fc.nat() }),
  fc.record({
    kind: fc.constant('withdraw' as const),
    cents: fc.integer({ min: 1, max: 80_000 }),
    payout: fc.constantFrom('DONE' as const, 'PENDING' as const, 'reject' as const),
  }),
  fc.record({
    kind: fc.constant('transfer' as const),
    withdrawal: fc.nat(),
    outcome: fc.constantFrom('TRANSFER_DONE' as const, 'TRANSFER_FAILED' as const),
  }),
);

interface ModelCharge {
  id: string;
  valor: number;
  cents: number;
  status: 'PENDING' | 'RECEIVED' | 'OVERDUE' | 'REFUNDED';
}
interface ModelWithdrawal {
  id: string;
  cents: number;
  status: 'PROCESSING' | 'DONE' | 'FAILED';
}

describeEachDatabase('razão: propriedades sob sequências aleatórias', (dialect) => {
  const provider = new FakePixProvider();
  const ctx = useTestApp(dialect, {}, { pixProvider: provider });

  async function step(
    d: Registered,
    a: Action,
    charges: ModelCharge[],
    withdrawals: ModelWithdrawal[],
    balance: { cents: number },
  ): Promise<void> {
    const app = ctx().app;
    switch (a.kind) {
      case 'buy': {
        const c = await createCharge(app, d, a.cents / 100);
        charges.push({ id: c.id, valor: c.valor, cents: a.cents, status: 'PENDING' });
        return;
      }
      case 'settle': {
        const c = charges[a.charge % Math.max(charges.length, 1)];
        if (!c) return;
        const send = (e: string) => sendWebhook(app, paymentEvent(e, c));
        const results = a.concurrent
          ? await Promise.all(a.events.map(send))
          : await a.events.reduce(
              async (acc, e) => [...(await acc), await send(e)],
              Promise.resolve([] as Awaited<ReturnType<typeof send>>[]),
            );
        expect(results.every((r) => r.statusCode === 200)).toBe(true);
        if (c.status === 'PENDING' || c.status === 'OVERDUE') {
          c.status = 'RECEIVED';
          balance.cents += c.cents;
        }
        return;
      }
      case 'refund': {
        const c = charges[a.charge % Math.max(charges.length, 1)];
        if (!c) return;
        expect((await sendWebhook(app, paymentEvent('PAYMENT_REFUNDED', c))).statusCode).toBe(200);
        if (c.status === 'RECEIVED') balance.cents -= c.cents;
        c.status = 'REFUNDED';
        return;
      }
      case 'overdue': {
        const c = charges[a.charge % Math.max(charges.length, 1)];
        if (!c) return;
        expect((await sendWebhook(app, paymentEvent('PAYMENT_OVERDUE', c))).statusCode).toBe(200);
        if (c.status === 'PENDING') c.status = 'OVERDUE';
        return;
      }
      case 'withdraw': {
        provider.payout = a.payout === 'reject' ? { reject: 'Chave inválida' } : a.payout;
        const res = await app.inject({
          method: 'POST',
          url: '/api/motorista/sacar',
          headers: bearer(d.token),
          payload: { description: 'p', receiver_document: d.cpfCnpj, amount: a.cents / 100, pix: { type: 'CPF', key: d.cpfCnpj } },
        });
        const processing = withdrawals.some((w) => w.status === 'PROCESSING');
        if (processing) return expect(res.statusCode).toBe(409);
        // The minimum withdrawal (decision 44) and the balance: refused, nothing written.
        if (a.cents < MIN_WITHDRAWAL_CENTS || a.cents > balance.cents) return expect(res.statusCode).toBe(422);
        const id = res.json<{ withdrawalId?: string }>().withdrawalId;
        if (a.payout === 'reject') {
          expect(res.statusCode).toBe(502);
          return;
        }
        expect(res.statusCode).toBe(200);
        balance.cents -= a.cents;
        withdrawals.push({ id: id ?? '', cents: a.cents, status: a.payout === 'DONE' ? 'DONE' : 'PROCESSING' });
        return;
      }
      case 'transfer': {
        const w = withdrawals[a.withdrawal % Math.max(withdrawals.length, 1)];
        if (!w) return;
        const res = await sendWebhook(app, {
          event: a.outcome,
          transfer: { id: `tr_${w.id}`, externalReference: w.id, failReason: 'Recusado' },
        });
        expect(res.statusCode).toBe(200);
        if (w.status === 'PROCESSING') {
          w.status = a.outcome === 'TRANSFER_DONE' ? 'DONE' : 'FAILED';
          if (w.status === 'FAILED') balance.cents += w.cents;
        }
        return;
      }
    }
  }

  /** Replaying the driver's entries in order: no withdrawal debit ever left the own balance below zero. */
  async function expectGuardHeld(d: Registered): Promise<void> {
    let running = 0;
    for (const e of await entriesOf(ctx().db, d.id)) {
      running += e.amount_cents;
      if (e.origin === STATEMENT_ORIGINS.pixWithdrawal) expect(running).toBeGreaterThanOrEqual(0);
    }
  }

  it('balance = sum of entries and the model, after every step; guarded debits never go below zero', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 14 }), async (actions) => {
        const d = await registerDriver(ctx().app);
        await acceptTerms(ctx().app, d);
        const charges: ModelCharge[] = [];
        const withdrawals: ModelWithdrawal[] = [];
        const balance = { cents: 0 };
        for (const a of actions) {
          await step(d, a, charges, withdrawals, balance);
          expect(Math.round((await ownBalance(ctx().app, d)) * 100)).toBe(balance.cents);
          await expectLedgerInvariant(ctx().db);
          await expectGuardHeld(d);
        }
      }),
      { numRuns: 30 },
    );
  });
});
