import fc from 'fast-check';
import { TAG_MONTHLY_FEE_CENTS } from '@portal/domain';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../helpers/databases.js';
import { expectVpoInvariants, hours, minutes, useVpoApp } from '../../helpers/vpos.js';
import type { Shipper, VpoDriver } from '../../helpers/vpos.js';

/** When a passage happened, against the two kinds of window a VPO is issued with. */
type When = 'onTime' | 'early' | 'late';
/** 'trip': begun two hours ago (covers onTime and early); 'short': begun half an hour ago (onTime only). Both end in an hour: 'late' is after. */
type WindowKind = 'trip' | 'short';

type Passage = { kind: 'passage'; cents: number; when: When; third: boolean };
type Close = { kind: 'close'; vpo: number };
type Action =
  | { kind: 'issue'; cents: number; window: WindowKind }
  | Passage
  | Close
  | { kind: 'cancel'; vpo: number }
  | { kind: 'pair'; first: Passage | Close; second: Passage };

const passage: fc.Arbitrary<Passage> = fc.record({
  kind: fc.constant('passage' as const),
  cents: fc.integer({ min: 50, max: 4_000 }),
  when: fc.constantFrom<When>('onTime', 'onTime', 'early', 'late'),
  third: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});
const close: fc.Arbitrary<Close> = fc.record({ kind: fc.constant('close' as const), vpo: fc.nat() });
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('issue' as const),
      cents: fc.integer({ min: 100, max: 6_000 }),
      window: fc.constantFrom<WindowKind>('trip', 'short'),
    }),
  },
  { weight: 4, arbitrary: passage },
  { weight: 1, arbitrary: close },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), vpo: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pair' as const), first: fc.oneof(passage, close), second: passage }) },
);

interface ModelVpo {
  id: number;
  externalId: string;
  window: WindowKind;
  status: 'EMITIDO' | 'EM_VIAGEM' | 'ENCERRADO' | 'CANCELADO';
  held: number;
  used: number;
  left: number;
  refunded: number;
  short: number;
}
interface Model {
  own: number;
  third: number;
  vpos: ModelVpo[];
  /** What went in: the purchase that funded the driver and every VPO issued. */
  cameIn: number;
  /** What went out to the operators (every passage) and to the portal (the tag's fee). */
  paidOut: number;
}

const covers = (window: WindowKind, when: When) => when === 'onTime' || (when === 'early' && window === 'trip');
const isOpen = (v: ModelVpo) => v.status === 'EMITIDO' || v.status === 'EM_VIAGEM';

/** Decision 52 as the model has it: the open VPOs covering the instant, oldest first, then Saldo; the newest covering VPO is marked short. */
function payInModel(m: Model, p: Passage): void {
  m.paidOut += p.cents;
  if (p.third) {
    m.third -= p.cents;
    return;
  }
  const covering = m.vpos.filter((v) => isOpen(v) && covers(v.window, p.when)).sort((a, b) => a.id - b.id);
  let rest = p.cents;
  for (const v of covering) {
    const take = Math.min(rest, v.left);
    v.left -= take;
    v.used += take;
    rest -= take;
  }
  m.own -= rest;
  const last = covering.at(-1);
  if (rest > 0 && last) last.short += rest;
}

function closeInModel(m: Model, v: ModelVpo, to: 'ENCERRADO' | 'CANCELADO'): void {
  if (!isOpen(v)) return;
  v.status = to;
  v.refunded += v.left;
  v.left = 0;
}

const signature = (m: Model) =>
  JSON.stringify({ own: m.own, third: m.third, vpos: m.vpos.map((v) => [v.id, v.status, v.used, v.left, v.refunded, v.short]) });

/** Decision 52 under random sequences of issues, passages (on time, early, late, third-party, concurrent), closes and cancels. */
describeEachDatabase('VPO: propriedades do dinheiro sob sequências aleatórias', (dialect) => {
  const t = useVpoApp(dialect);
  let shipper: Shipper;
  beforeAll(async () => {
    shipper = await t.shipper('Embarcador Propriedades');
  });

  /** The driver's accounts and VPOs as the database holds them, in the model's shape. */
  async function actual(d: VpoDriver, model: Model): Promise<{ own: number; third: number; vpo: number; vpos: ModelVpo[] }> {
    const accounts = await t.accounts(d);
    const vpos: ModelVpo[] = [];
    for (const v of model.vpos) {
      const row = await t.vpoRow(v.id);
      vpos.push({
        ...v,
        status: row.status as ModelVpo['status'],
        used: row.used,
        left: row.left,
        refunded: row.refunded,
        short: row.short,
      });
    }
    return { ...accounts, vpos };
  }

  it('balances = entries, held = used + left + refunded, money is conserved, and Saldo never pays while a covering VPO has money', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 9 }), async (actions) => {
        const d = await t.driver();
        const base = Date.now();
        const at = (ms: number) => new Date(Math.floor((base + ms) / 1000) * 1000 - 3 * 3_600_000).toISOString().slice(0, 19) + '-03:00';
        const windows: Record<WindowKind, { inicioViagem: string; fimViagem: string }> = {
          trip: { inicioViagem: at(-hours(2)), fimViagem: at(hours(1)) },
          short: { inicioViagem: at(-minutes(30)), fimViagem: at(hours(1)) },
        };
        const instants: Record<When, number> = { onTime: -minutes(10), early: -hours(1), late: hours(2) };
        let seconds = 0;
        /** The passages of the step, by their externalId: what Saldo paid of each is read back. */
        let stepPassages: { p: Passage; externalId: string }[] = [];
        const passageRequest = (p: Passage) => {
          const body = t.passageBody(d.tag, p.cents / 100, at(instants[p.when] + (seconds += 1) * 1000), { is_third: p.third });
          stepPassages.push({ p, externalId: body.externalId });
          return t.passageWith(body);
        };
        const { id: operatorId } = await t.operator();
        const fromSaldo = async (externalId: string) => {
          const row = await t
            .db()
            .kysely.selectFrom('ledger_entries')
            .select('amount_cents')
            .where('idempotency_key', '=', `partner:${operatorId}:passage:${externalId}`)
            .executeTakeFirst();
          return row ? -Number(row.amount_cents) : 0;
        };
        let model: Model = { own: 8_410, third: 0, vpos: [], cameIn: 10_000, paidOut: TAG_MONTHLY_FEE_CENTS };
        const pick = (n: number) => model.vpos[n % Math.max(model.vpos.length, 1)];

        /** An ENCERRADO needs EM_VIAGEM first (the state machine): an EMITIDO VPO is moved there before. */
        async function toTrip(v: ModelVpo): Promise<void> {
          if (v.status !== 'EMITIDO') return;
          expect((await t.patch(shipper, v.externalId, 'EM_VIAGEM')).statusCode).toBe(200);
          v.status = 'EM_VIAGEM';
        }
        const expectedEnd = (v: ModelVpo, to: 'ENCERRADO' | 'CANCELADO') => (isOpen(v) || v.status === to ? 200 : 409);

        for (const a of actions) {
          let candidates: Model[];
          stepPassages = [];
          switch (a.kind) {
            case 'issue': {
              const { id, externalId } = await t.issued(shipper, d.tag, { ValorTotalVP: a.cents / 100, ...windows[a.window] });
              model.vpos.push({
                id,
                externalId,
                window: a.window,
                status: 'EMITIDO',
                held: a.cents,
                used: 0,
                left: a.cents,
                refunded: 0,
                short: 0,
              });
              model.cameIn += a.cents;
              candidates = [model];
              break;
            }
            case 'passage': {
              expect((await passageRequest(a)).statusCode).toBe(200);
              payInModel(model, a);
              candidates = [model];
              break;
            }
            case 'close':
            case 'cancel': {
              const v = pick(a.vpo);
              if (!v) continue;
              const to = a.kind === 'close' ? 'ENCERRADO' : 'CANCELADO';
              if (to === 'ENCERRADO') await toTrip(v);
              const res = await t.patch(shipper, v.externalId, to);
              expect(res.statusCode, res.body).toBe(expectedEnd(v, to));
              closeInModel(model, v, to);
              candidates = [model];
              break;
            }
            case 'pair': {
              const { first, second } = a;
              const closing = first.kind === 'close' ? pick(first.vpo) : undefined;
              if (first.kind === 'close' && !closing) continue;
              if (closing) await toTrip(closing);
              const expectedClose = closing ? expectedEnd(closing, 'ENCERRADO') : 200;
              const [r1, r2] = await Promise.all([
                closing ? t.patch(shipper, closing.externalId, 'ENCERRADO') : passageRequest(first as Passage),
                passageRequest(second),
              ]);
              expect(r1.statusCode, r1.body).toBe(expectedClose);
              expect(r2.statusCode, r2.body).toBe(200);
              // Either may have run first: the database must be one of the two orders, whole.
              const apply = (m: Model, op: Passage | Close) => {
                if (op.kind === 'passage') payInModel(m, op);
                else {
                  const v = m.vpos.find((x) => x.id === closing?.id);
                  if (v) closeInModel(m, v, 'ENCERRADO');
                }
              };
              const inOrder = structuredClone(model);
              apply(inOrder, first);
              apply(inOrder, second);
              const reversed = structuredClone(model);
              apply(reversed, second);
              apply(reversed, first);
              candidates = [inOrder, reversed];
              break;
            }
          }

          const seen = await actual(d, model);
          const match = candidates.find((c) => signature(c) === signature({ ...c, own: seen.own, third: seen.third, vpos: seen.vpos }));
          expect(
            match,
            `${JSON.stringify(a)}\nbanco: ${signature({ ...model, ...seen })}\nmodelo: ${candidates.map(signature).join('\nou: ')}`,
          ).toBeDefined();
          model = match ?? model;

          // Every account = its entries; every VPO: held = used + left + refunded, nothing below zero; the VPO account = what they have left.
          expect(seen.vpo).toBe(model.vpos.reduce((sum, v) => sum + v.left, 0));
          for (const v of seen.vpos) {
            expect(v.used + v.left + v.refunded, `VPO ${v.id}`).toBe(v.held);
            expect(v.left).toBeGreaterThanOrEqual(0);
          }
          // Conservation: nothing created, nothing lost.
          const refunded = seen.vpos.reduce((sum, v) => sum + v.refunded, 0);
          expect(seen.own + seen.third + seen.vpo + refunded + model.paidOut).toBe(model.cameIn);
          // Saldo paid (part of) a passage only when no open VPO covering it had money left: they only empty further.
          for (const { p, externalId } of stepPassages.filter((x) => !x.p.third)) {
            if ((await fromSaldo(externalId)) === 0) continue;
            const covering = seen.vpos.filter((v) => isOpen(v) && covers(v.window, p.when));
            expect(
              covering.map((v) => v.left),
              `${JSON.stringify(p)}: paga pelo saldo com VPO aberto`,
            ).toEqual(covering.map(() => 0));
          }
        }
        await expectVpoInvariants(t.db());
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
