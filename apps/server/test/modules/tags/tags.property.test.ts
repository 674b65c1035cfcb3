import fc from 'fast-check';
import { STATEMENT_ORIGINS, TAG_MONTHLY_FEE_CENTS } from '@portal/domain';
import { expect, it } from 'vitest';
import { accountId, post as postEntry } from '../../../src/modules/ledger/ledger.js';
import { registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { expectLedgerInvariant } from '../../helpers/pix.js';
import { actions, newSerial, registerTag, tagStatus } from '../../helpers/tags.js';

/** The model: each tag's status (spec §4 / founding decision 12), or 'gone' once removed; and the balance. */
type ModelStatus = number | null | 'gone';
interface Model {
  tags: { serial: string; plate: string; status: ModelStatus }[];
  balance: number;
}

type Action =
  | { kind: 'activate' | 'block' | 'release' | 'cancel' | 'remove'; tag: number }
  | { kind: 'replace'; tag: number; valid: boolean }
  | { kind: 'credit'; cents: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constantFrom('activate', 'block', 'release', 'cancel', 'remove'), tag: fc.nat(2) }) as fc.Arbitrary<Action>,
  fc.record({ kind: fc.constant('replace' as const), tag: fc.nat(2), valid: fc.boolean() }),
  fc.record({ kind: fc.constant('credit' as const), cents: fc.constantFrom(500, 1000, 2000) }),
);

/** What the model expects: the HTTP status and the model after the step. */
function step(m: Model, a: Action, fresh: string): { status: number; next: Model } {
  if (a.kind === 'credit') return { status: 0, next: { ...m, balance: m.balance + a.cents } };
  const tag = m.tags[a.tag];
  if (!tag) throw new Error('tag fora do modelo');
  const set = (status: ModelStatus, balance = m.balance, serial = tag.serial) => ({
    status: 200,
    next: { balance, tags: m.tags.map((t, i) => (i === a.tag ? { ...t, status, serial } : t)) },
  });
  const refuse = (status: number) => ({ status, next: m });
  const s = tag.status;
  // The body is validated first (422), then the tag is looked up among the driver's (404).
  if (a.kind === 'replace' && !a.valid) return refuse(422);
  if (s === 'gone') return refuse(404);
  switch (a.kind) {
    case 'activate':
      if (s !== null && s !== 201) return refuse(409);
      return m.balance >= TAG_MONTHLY_FEE_CENTS ? set(100, m.balance - TAG_MONTHLY_FEE_CENTS) : refuse(422);
    case 'block':
      return s === 100 ? set(200) : refuse(409);
    case 'release':
      // Same month: already paid at activation, nothing more to charge.
      return s === 200 ? set(100) : refuse(409);
    case 'cancel':
      return s !== null && s >= 300 ? refuse(409) : set(300);
    case 'remove':
      return s === null || s === 201 || s >= 300 ? set('gone') : refuse(409);
    case 'replace':
      return s === 100 || s === 200 ? set(s, m.balance, fresh) : refuse(409);
  }
}

describeEachDatabase('tags: modelo da máquina de estados', (dialect) => {
  const ctx = useTestApp(dialect);

  it('server and model agree after every step; the ledger invariant holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 4 }), fc.array(action, { minLength: 1, maxLength: 14 }), async (start, steps) => {
        const { app, db } = ctx();
        const d: Registered = await registerDriver(app);
        const own = await accountId(db.kysely, d.id, 'own');
        let seq = 0;
        const credit = (cents: number) =>
          db.kysely.transaction().execute((trx) =>
            postEntry(trx, {
              accountId: own,
              amountCents: cents,
              origin: STATEMENT_ORIGINS.pixPurchase,
              placeName: 'Crédito de teste',
              idempotencyKey: `prop:${d.id}:${(seq += 1)}`,
            }),
          );
        if (start > 0) await credit(start * 1000);
        let model: Model = { balance: start * 1000, tags: [] };
        for (let i = 0; i < 3; i += 1) {
          const t = await registerTag(app, d);
          model.tags.push({ serial: t.serial, plate: t.plate, status: null });
        }
        for (const a of steps) {
          const fresh = newSerial();
          const { status, next } = step(model, a, fresh);
          if (a.kind === 'credit') {
            await credit(a.cents);
          } else {
            const tag = model.tags[a.tag]!;
            const res =
              a.kind === 'activate'
                ? await actions.activate(app, d, tag.serial, tag.plate)
                : a.kind === 'replace'
                  ? await actions.replace(app, d, tag.serial, a.valid ? fresh : '12ab')
                  : await actions[a.kind](app, d, tag.serial);
            expect(res.statusCode, `${JSON.stringify(a)} em ${JSON.stringify(tag)}: ${res.body}`).toBe(status);
          }
          model = next;
          for (const t of model.tags) expect(await tagStatus(app, d, t.plate)).toBe(t.status === 'gone' ? 'none' : t.status);
          const row = await db.kysely.selectFrom('accounts').select('balance_cents').where('id', '=', own).executeTakeFirstOrThrow();
          expect(Number(row.balance_cents)).toBe(model.balance);
          expect(model.balance).toBeGreaterThanOrEqual(0);
        }
        await expectLedgerInvariant(db);
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
