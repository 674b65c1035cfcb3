import type { PayoutLimitKind, PayoutLimitState } from '@portal/domain';
import { changePayoutLimit, DEFAULT_PAYOUT_LIMITS_CENTS, PAYOUT_LIMIT_KINDS, payoutLimitAt } from '@portal/domain';
import type { Kysely } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import type { Trx } from '../../db/connection.js';

export type PayoutLimitStates = Record<PayoutLimitKind, PayoutLimitState>;

/** The values in force: what payoutLimitError weighs a withdrawal against. */
export function inForce(states: PayoutLimitStates): Record<PayoutLimitKind, number> {
  return { perWithdrawal: states.perWithdrawal.valueCents, daily: states.daily.valueCents, night: states.night.valueCents };
}

/** The driver's withdrawal limits (decision 44): a kind never changed is the configured default. */
export class PayoutLimitStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly defaults: Readonly<Record<PayoutLimitKind, number>> = DEFAULT_PAYOUT_LIMITS_CENTS,
  ) {}

  async read(db: Trx | Kysely<Database>, driverId: number, now: Date): Promise<PayoutLimitStates> {
    const rows = await db.selectFrom('payout_limits').selectAll().where('driver_id', '=', driverId).execute();
    const states = {} as PayoutLimitStates;
    for (const kind of PAYOUT_LIMIT_KINDS) {
      const row = rows.find((r) => r.kind === kind);
      const stored: PayoutLimitState = row
        ? {
            valueCents: Number(row.value_cents),
            pending:
              row.pending_cents !== null && row.pending_at !== null
                ? { valueCents: Number(row.pending_cents), effectiveAt: new Date(toIso(row.pending_at)) }
                : null,
          }
        : { valueCents: this.defaults[kind], pending: null };
      states[kind] = payoutLimitAt(stored, now);
    }
    return states;
  }

  /** Lowerings at once, raises 24 hours later (changePayoutLimit); one transaction for the three. */
  async change(driverId: number, requested: Record<PayoutLimitKind, number>, now: Date): Promise<PayoutLimitStates> {
    return this.db.transaction().execute(async (trx) => {
      const current = await this.read(trx, driverId, now);
      const next = {} as PayoutLimitStates;
      for (const kind of PAYOUT_LIMIT_KINDS) {
        const state = changePayoutLimit(current[kind], requested[kind], now);
        next[kind] = state;
        const values = {
          value_cents: state.valueCents,
          pending_cents: state.pending?.valueCents ?? null,
          pending_at: state.pending ? state.pending.effectiveAt.toISOString() : null,
        };
        await trx
          .insertInto('payout_limits')
          .values({ driver_id: driverId, kind, ...values })
          .onConflict((oc) => oc.columns(['driver_id', 'kind']).doUpdateSet(values))
          .execute();
      }
      return next;
    });
  }
}
