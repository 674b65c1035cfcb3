import { centsToReais, isUserTransactionOrigin, isVpoMoneyOrigin, PAGE_SIZE, STATEMENT_ORIGINS, statementKindOf } from '@portal/domain';
import type { StatementExportFormat, StatementFilters, StatementTransaction } from '@portal/contract';
import type { Kysely } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import type { StatementFile } from './export.js';
import { statementExport } from './export.js';
import { kindCondition, statementScope } from './scope.js';

export interface StatementPage {
  transactions: StatementTransaction[];
  totalPages: number;
}

const EVENTS = new Set(['RECEIVED', 'OVERDUE', 'REFUND']);

function eventOf(event: string | null): StatementTransaction['event'] {
  return event !== null && EVENTS.has(event) ? (event as StatementTransaction['event']) : null;
}

const PURCHASE_ORIGINS: ReadonlySet<string> = new Set([STATEMENT_ORIGINS.pixPurchase, STATEMENT_ORIGINS.pixRefund]);
const WITHDRAWAL_ORIGINS: ReadonlySet<string> = new Set([STATEMENT_ORIGINS.pixWithdrawal, STATEMENT_ORIGINS.pixWithdrawalReversal]);

/** The receipt an entry opens: its Pix charge (purchase, refund) or withdrawal (and its reversal); the ledger's reference holds the id. */
function receiptOf(origin: string, reference: string | null): StatementTransaction['receipt'] {
  if (reference === null) return null;
  if (PURCHASE_ORIGINS.has(origin)) return { tipo: 'compra', id: reference };
  if (WITHDRAWAL_ORIGINS.has(origin)) return { tipo: 'saque', id: reference };
  return null;
}

const COLUMNS = ['id', 'place_name', 'amount_cents', 'created_at', 'event', 'origin', 'is_third', 'reference', 'vpo_id'] as const;

interface EntryRow {
  id: number;
  place_name: string;
  amount_cents: number;
  created_at: Date | string;
  event: string | null;
  origin: string;
  is_third: 0 | 1;
  reference: string | null;
  vpo_id: number | null;
}

/** Decision 52: the VPO an entry moved (its money) or ran short for (Saldo paid), with its shipper's name. */
async function withVpos(db: Kysely<Database>, rows: EntryRow[]): Promise<StatementTransaction[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.vpo_id === null ? [] : [r.vpo_id])))];
  const shippers =
    ids.length === 0
      ? new Map<number, string>()
      : new Map(
          (
            await db
              .selectFrom('vpos')
              .innerJoin('partners', 'partners.id', 'vpos.partner_id')
              .select(['vpos.id', 'partners.name'])
              .where('vpos.id', 'in', ids)
              .execute()
          ).map((v) => [v.id, v.name]),
        );
  return rows.map((r) => {
    const transaction = transactionOf(r);
    if (r.vpo_id === null) return transaction;
    const vpo = {
      IdTransacao: String(r.vpo_id),
      Embarcador: shippers.get(r.vpo_id) ?? '',
      pagoPor: isVpoMoneyOrigin(r.origin) ? 'VPO' : 'SALDO',
    } as const;
    return { ...transaction, vpo };
  });
}

function transactionOf(r: EntryRow): StatementTransaction {
  const isThird = r.is_third === 1;
  return {
    transactionId: r.id,
    placeName: r.place_name,
    value: centsToReais(Number(r.amount_cents)),
    created_at: toIso(r.created_at),
    event: eventOf(r.event),
    origin: r.origin,
    is_third: isThird,
    user_transaction: isUserTransactionOrigin(r.origin),
    kind: statementKindOf(r.origin, isThird),
    receipt: receiptOf(r.origin, r.reference),
    vpo: null,
  };
}

/**
 * The driver's entries (Saldo, SaldoTerceiro and the VPOs' money: decision 52) by the date they show, newest first (ties: the
 * later posted first), PAGE_SIZE a page. driver_seq is each entry's place in that order, kept by
 * the ledger, so page p of a driver_seq range [lo, hi] is (hi - 10p, hi - 10(p - 1)]: without
 * filters the range is [1, n] and the page is two index lookups, whatever the length of the
 * history. A period narrows the range (scope.ts); a kind counts and pages inside it.
 */
export async function statementPage(
  db: Kysely<Database>,
  driverId: number,
  page: number,
  filters: StatementFilters = { periodo: 'tudo' },
  now: Date = new Date(),
): Promise<StatementPage> {
  const { lo, hi, kind } = await statementScope(db, driverId, filters, now);
  if (lo > hi) return { transactions: [], totalPages: 0 };
  const inRange = db
    .selectFrom('ledger_entries')
    .where('driver_id', '=', driverId)
    .where('driver_seq', '>=', lo)
    .where('driver_seq', '<=', hi);
  if (kind === undefined) {
    const totalPages = Math.ceil((hi - lo + 1) / PAGE_SIZE);
    const upper = hi - PAGE_SIZE * (page - 1);
    if (upper < lo) return { transactions: [], totalPages };
    const rows = await inRange
      .select(COLUMNS)
      .where('driver_seq', '>', upper - PAGE_SIZE)
      .where('driver_seq', '<=', upper)
      .orderBy('driver_seq', 'desc')
      .execute();
    return { totalPages, transactions: await withVpos(db, rows) };
  }
  const matching = inRange.where((eb) => kindCondition(eb, kind));
  const counted = await matching.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  const totalPages = Math.ceil(Number(counted?.n ?? 0) / PAGE_SIZE);
  if (page > totalPages) return { transactions: [], totalPages };
  const rows = await matching
    .select(COLUMNS)
    .orderBy('driver_seq', 'desc')
    .limit(PAGE_SIZE)
    .offset(PAGE_SIZE * (page - 1))
    .execute();
  return { totalPages, transactions: await withVpos(db, rows) };
}

/** The driver's statement: its pages and its export (built once in services.ts). */
export class StatementService {
  constructor(private readonly db: Kysely<Database>) {}

  page(driverId: number, page: number, filters?: StatementFilters, now?: Date): Promise<StatementPage> {
    return statementPage(this.db, driverId, page, filters, now);
  }

  /** The whole statement for the filters as a file streamed from the database (export.ts). */
  export(driverId: number, format: StatementExportFormat, filters: StatementFilters, now: Date): Promise<StatementFile> {
    return statementExport(this.db, driverId, format, filters, now);
  }
}
