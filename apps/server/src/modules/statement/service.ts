import { centsToReais, isUserTransactionOrigin, PAGE_SIZE } from '@portal/domain';
import type { StatementTransaction } from '@portal/contract';
import type { Kysely } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';

export interface StatementPage {
  transactions: StatementTransaction[];
  totalPages: number;
}

const EVENTS = new Set(['RECEIVED', 'OVERDUE', 'REFUND']);

function eventOf(event: string | null): StatementTransaction['event'] {
  return event !== null && EVENTS.has(event) ? (event as StatementTransaction['event']) : null;
}

/**
 * The driver's entries (own and third accounts) by the date they show, newest first (ties: the
 * later posted first), PAGE_SIZE a page. driver_seq is each entry's place in that order, kept by
 * the ledger, so page p is the range (n - 10p, n - 10(p - 1)] with n the driver's entry count:
 * two index lookups, whatever the length of the history.
 */
export async function statementPage(db: Kysely<Database>, driverId: number, page: number): Promise<StatementPage> {
  const counter = await db
    .selectFrom('driver_ledger_counters')
    .select('entry_count')
    .where('driver_id', '=', driverId)
    .executeTakeFirst();
  const n = Number(counter?.entry_count ?? 0);
  const totalPages = Math.ceil(n / PAGE_SIZE);
  const upper = n - PAGE_SIZE * (page - 1);
  if (upper <= 0) return { transactions: [], totalPages };
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['id', 'place_name', 'amount_cents', 'created_at', 'event', 'origin', 'is_third'])
    .where('driver_id', '=', driverId)
    .where('driver_seq', '>', upper - PAGE_SIZE)
    .where('driver_seq', '<=', upper)
    .orderBy('driver_seq', 'desc')
    .execute();
  return {
    totalPages,
    transactions: rows.map((r) => ({
      transactionId: r.id,
      placeName: r.place_name,
      value: centsToReais(Number(r.amount_cents)),
      created_at: toIso(r.created_at),
      event: eventOf(r.event),
      origin: r.origin,
      is_third: r.is_third === 1,
      user_transaction: isUserTransactionOrigin(r.origin),
    })),
  };
}
