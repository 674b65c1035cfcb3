import { PARTNER_EVENT_MAX_AHEAD_HOURS, STATEMENT_ORIGINS } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Trx } from '../../db/connection.js';
import { toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';

/**
 * Passages with what contests may still give back of them (what each account paid, less what was
 * given back); the caller filters and groups by passages.id, occurred_at, operator_cnpj and what
 * else it selects.
 */
export function passagesWithRefundable(db: Kysely<Database>) {
  return db
    .selectFrom('passages')
    .leftJoin('passage_payments', 'passage_payments.passage_id', 'passages.id')
    .select((eb) => [
      'passages.id',
      'passages.occurred_at',
      'passages.operator_cnpj',
      eb.fn.sum<number | string>(eb('passage_payments.paid_cents', '-', eb.ref('passage_payments.refunded_cents'))).as('refundable'),
    ]);
}

/**
 * A driver's passages flagged on arrival as a possible double charge (record.ts sets duplicate_of),
 * since an instant; the caller filters and orders.
 */
export function possibleDoubleCharges(db: Kysely<Database>, driverId: number, sinceIso: string) {
  return db
    .selectFrom('passages')
    .select(['passages.id', 'passages.place_name', 'passages.amount_cents', 'passages.occurred_at'])
    .where('passages.driver_id', '=', driverId)
    .where('passages.duplicate_of', 'is not', null)
    .where('passages.occurred_at', '>=', sinceIso);
}

/**
 * The earliest instant a passage that occurred at `occurredAt` can have been recorded (its
 * created_at, the month it is kept in: decision 80): a partner's occurredAt is at most
 * PARTNER_EVENT_MAX_AHEAD_HOURS after the instant it is sent.
 */
export function recordedNoEarlierThan(occurredAt: number): string {
  return toIso(new Date(occurredAt - PARTNER_EVENT_MAX_AHEAD_HOURS * 3_600_000));
}

/** The ledger entries a toll passage's payment writes (record.ts). */
const PASSAGE_ORIGINS: ReadonlySet<string> = new Set([STATEMENT_ORIGINS.passage, STATEMENT_ORIGINS.vpoPassage]);

/** The passage each of these ledger entries paid, by entry id (entries that paid none are absent). */
export async function passagesPaidBy(
  db: Kysely<Database>,
  entries: readonly { id: number; origin: string }[],
): Promise<Map<number, number>> {
  const paymentEntries = entries.filter((e) => PASSAGE_ORIGINS.has(e.origin)).map((e) => e.id);
  const passageOfEntry = new Map<number, number>();
  if (paymentEntries.length === 0) return passageOfEntry;
  const paying = await db
    .selectFrom('passage_payments')
    .select(['entry_id', 'passage_id'])
    .where('entry_id', 'in', paymentEntries)
    .execute();
  for (const p of paying) passageOfEntry.set(p.entry_id, p.passage_id);
  return passageOfEntry;
}

/** What each account paid of a passage and what was given back, in the order they paid. */
export function paymentsOf(trx: Trx, passageId: number) {
  return trx
    .selectFrom('passage_payments')
    .select(['id', 'account', 'vpo_id', 'paid_cents', 'refunded_cents'])
    .where('passage_id', '=', passageId)
    .orderBy('id')
    .execute();
}
