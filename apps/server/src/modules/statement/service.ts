import { centsToReais, isUserTransactionOrigin, isVpoMoneyOrigin, PAGE_SIZE, STATEMENT_ORIGINS, statementKindOf } from '@portal/domain';
import type {
  StatementAccountRef,
  StatementAccountTotal,
  StatementExportFormat,
  StatementFilters,
  StatementTransaction,
} from '@portal/contract';
import { expressionBuilder, sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { toIso } from '../../db/connection.js';
import { historyOn } from '../../db/read-replica.js';
import type { ReadRouter } from '../../db/read-replica.js';
import type { Database } from '../../db/schema.js';
import { passageInfoByEntry } from '../contests/queries.js';
import type { StatementFile } from './export.js';
import { statementExport } from './export.js';
import {
  entriesBefore,
  entryAtRank,
  entryCondition,
  entryMonths,
  entrySpan,
  kindCondition,
  newestSpan,
  statementScope,
  withinSpan,
} from './queries.js';
import type { EntryMonth, WhoseEntries } from './queries.js';
import { entryVehicles } from './vehicles.js';
import { whoseEntries } from './whose.js';
import { balancesThrough, driverAccounts, periodTotals, rowAccountOf, statementAccountOf, vpoAccountNames } from './accounts.js';
import type { RowAccount, VpoAccountName } from './accounts.js';

export interface StatementPage {
  transactions: StatementTransaction[];
  totalPages: number;
}

/** A page and the filtered period's totals per account (issue 33). */
export interface StatementPageWithTotals extends StatementPage {
  totals: StatementAccountTotal[];
}

const EVENTS = new Set(['RECEIVED', 'OVERDUE', 'REFUND']);

function eventOf(event: string | null): StatementTransaction['event'] {
  return event !== null && EVENTS.has(event) ? (event as StatementTransaction['event']) : null;
}

const PURCHASE_ORIGINS: ReadonlySet<string> = new Set([
  STATEMENT_ORIGINS.pixPurchase,
  STATEMENT_ORIGINS.pixAutomaticTopUp,
  STATEMENT_ORIGINS.pixRefund,
]);
const WITHDRAWAL_ORIGINS: ReadonlySet<string> = new Set([
  STATEMENT_ORIGINS.pixWithdrawal,
  STATEMENT_ORIGINS.pixWithdrawalReversal,
  STATEMENT_ORIGINS.pixWithdrawalAfterReversal,
]);

/** The receipt an entry opens: its Pix charge (purchase, refund) or withdrawal (and its reversal); the ledger's reference holds the id. */
function receiptOf(origin: string, reference: string | null): StatementTransaction['receipt'] {
  if (reference === null) return null;
  if (PURCHASE_ORIGINS.has(origin)) return { tipo: 'compra', id: reference };
  if (WITHDRAWAL_ORIGINS.has(origin)) return { tipo: 'saque', id: reference };
  return null;
}

const COLUMNS = [
  'id',
  'account_id',
  'place_name',
  'amount_cents',
  'created_at',
  'event',
  'origin',
  'is_third',
  'reference',
  'vpo_id',
  'vehicle_id',
  'cost_centre_id',
] as const;

interface EntryRow {
  id: number;
  account_id: number;
  place_name: string;
  amount_cents: number;
  created_at: Date | string;
  event: string | null;
  origin: string;
  is_third: 0 | 1;
  reference: string | null;
  vpo_id: number | null;
  vehicle_id: number | null;
  cost_centre_id: number | null;
}

/**
 * Decision 52: the VPO an entry moved (its money) or ran short for (Saldo paid), with its shipper's
 * name; decision 56: the passage an entry paid or gave back, to contest it; issue 33: the account
 * it moved and that account's balance right after it.
 */
async function withVpos(db: Kysely<Database>, driverId: number, rows: EntryRow[], now: Date): Promise<StatementTransaction[]> {
  const shippers = await vpoAccountNames(
    db,
    rows.flatMap((r) => (r.vpo_id === null ? [] : [r.vpo_id])),
  );
  const kinds = await driverAccounts(db, driverId);
  const accounts = rows.map((r) => rowAccountOf(kinds, r));
  const [passages, vehicles, after] = await Promise.all([
    passageInfoByEntry(db, rows, now),
    entryVehicles(db, rows),
    balancesThrough(
      db,
      driverId,
      rows.map((r, i) => ({
        ...(accounts[i] ?? { kind: 'own', vpoId: null }),
        accountId: r.account_id,
        createdAt: toIso(r.created_at),
        id: r.id,
        moneyFrom: r.vpo_id === null ? undefined : shippers.get(r.vpo_id)?.moneyFrom,
      })),
    ),
  ]);
  return rows.map((r, i) => {
    const conta = accountRef(accounts[i] ?? { kind: 'own', vpoId: null }, shippers);
    const transaction = {
      ...transactionOf(r),
      passagem: passages.get(r.id) ?? null,
      conta,
      saldoApos: centsToReais(after[i] ?? 0),
      veiculo: vehicles.get(r.id) ?? null,
    };
    if (r.vpo_id === null) return transaction;
    const vpo = {
      IdTransacao: String(r.vpo_id),
      Embarcador: shippers.get(r.vpo_id)?.shipper ?? '',
      pagoPor: isVpoMoneyOrigin(r.origin) ? 'VPO' : 'SALDO',
    } as const;
    return { ...transaction, vpo };
  });
}

/** The contract's account of a row or a total: its kind, and a VPO's id, shipper and route. */
function accountRef(account: RowAccount, shippers: Map<number, VpoAccountName>): StatementAccountRef {
  const vpo = account.vpoId === null ? undefined : shippers.get(account.vpoId);
  return {
    tipo: statementAccountOf(account),
    vpoId: account.vpoId === null ? null : String(account.vpoId),
    embarcador: vpo?.shipper ?? null,
    rota: vpo?.route ?? null,
  };
}

function transactionOf(r: EntryRow): Omit<StatementTransaction, 'conta' | 'saldoApos' | 'veiculo'> {
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
    passagem: null,
  };
}

/** The page's rows (or one row of nulls) beside the period's counts: each page is one SQL statement. */
type PageRow = { [K in keyof EntryRow]: EntryRow[K] | null } & { entries: number | string };

async function pageOf(db: Kysely<Database>, driverId: number, query: RawBuilder<PageRow>, now: Date): Promise<StatementPage> {
  const { rows } = await query.execute(db);
  const totalPages = Math.ceil(Number(rows[0]?.entries ?? 0) / PAGE_SIZE);
  const entries = rows.filter((r): r is PageRow & EntryRow => r.id !== null);
  return { totalPages, transactions: await withVpos(db, driverId, entries, now) };
}

/** Pages that start fewer rows than this below the period's newest entry are read by OFFSET. */
const DIRECT_OFFSET_ROWS = 200;

const SELECTED = sql.join(COLUMNS.map((c) => sql.ref(`p.${c}`)));

/**
 * The driver's entries (Saldo, SaldoTerceiro and the VPOs' money: decision 52) by the date they
 * show, newest first (ties: the later posted first), PAGE_SIZE a page: descending (created_at, id)
 * over ledger_entries_statement_idx (decision 54). Without a kind, the period holds the entries of
 * ranks [before, through) (queries.ts entriesBefore, from the driver's counters), page p starts at
 * rank through - 1 - 10(p - 1), found by entryAtRank, and is read from there down the index: a
 * few counter rows and one index range, whatever the length of the history or the page. A kind
 * counts and pages (OFFSET) inside the period over ledger_entries_kind_idx. A plate, cost centre
 * or driver (decision 79) does the same over their counters and their index, the page read
 * between its first and last entries' places (several vehicles' entries are not one index range).
 */
export async function statementPage(
  db: Kysely<Database>,
  driverId: number,
  page: number,
  filters: StatementFilters = { periodo: 'tudo' },
  now: Date = new Date(),
  whose: WhoseEntries | null = null,
  /** The driver's (or the filter's) months, when the caller read them already. */
  known?: readonly EntryMonth[],
): Promise<StatementPage> {
  const scope = statementScope(filters, now, whose);
  const { from, kind } = scope;
  const skip = PAGE_SIZE * (page - 1);
  const afterFrom = from === null ? sql`` : sql` and e.created_at >= ${from}`;
  const toBound = scope.to === null ? sql`` : sql` and e.created_at < ${scope.to}`;
  // Decision 90: the months the counters say hold the entries wanted; the others' partitions are not read.
  const months = known ?? (await entryMonths(db, driverId, whose));
  const span = entrySpan(months);
  if (span === null) return { transactions: [], totalPages: 0 };
  const owned = entryCondition(driverId, whose);
  if (kind === undefined) {
    const before = from === null ? sql`0` : entriesBefore(driverId, from, whose);
    const through = entriesBefore(driverId, scope.to, whose);
    // Near the top of the period OFFSET over the index costs less than finding the rank's place.
    if (skip < DIRECT_OFFSET_ROWS) {
      return pageOf(
        db,
        driverId,
        sql<PageRow>`
        with period as materialized (select ${through} as through, ${before} as before)
        select ${SELECTED}, period.through - period.before as entries
        from period left join (
          select e.* from ledger_entries e where ${owned}${toBound}${afterFrom} and ${withinSpan(newestSpan(months, span, skip + PAGE_SIZE, scope.to))}
          order by e.created_at desc, e.id desc limit ${PAGE_SIZE} offset ${skip}
        ) p on 1 = 1
        order by p.created_at desc, p.id desc`,
        now,
      );
    }
    // Deeper: the page's first entry by its rank (a few counter rows), then the page from it down
    // the index. Two statements: SQLite planned the two as one about ten times slower.
    const rankOf = (offset: number) =>
      sql<number>`(select case when through - ${offset} > before then through - 1 - ${offset} else -1 end from period)`;
    const last = skip + PAGE_SIZE - 1;
    const { rows: found } = await sql<{
      through: number | string;
      before: number | string;
      created_at: Date | string | null;
      id: number | null;
      last_created_at: Date | string | null;
      last_id: number | null;
    }>`
      with period as materialized (select ${through} as through, ${before} as before)
      select period.through, period.before, f.created_at, f.id, l.created_at as last_created_at, l.id as last_id
      from period left join (${entryAtRank(driverId, rankOf(skip), whose)}) f on 1 = 1
      left join (${whose === null ? sql`select null as created_at, null as id` : entryAtRank(driverId, rankOf(last), whose)}) l on 1 = 1`.execute(
      db,
    );
    const anchor = found[0];
    const totalPages = Math.ceil((Number(anchor?.through ?? 0) - Number(anchor?.before ?? 0)) / PAGE_SIZE);
    if (!anchor || anchor.id === null || anchor.created_at === null) return { transactions: [], totalPages };
    // The page's last entry (filtered statements); else the period's start (afterFrom) bounds the read.
    const lowest =
      anchor.last_id !== null && anchor.last_created_at !== null
        ? sql` and (e.created_at, e.id) >= (${anchor.last_created_at}, ${anchor.last_id})`
        : sql``;
    const { rows } = await sql<EntryRow>`
      select ${sql.join(COLUMNS.map((c) => sql.ref(`e.${c}`)))} from ledger_entries e
      where ${owned} and (e.created_at, e.id) <= (${anchor.created_at}, ${anchor.id})${lowest}${afterFrom}
        and ${withinSpan(newestSpan(months, span, PAGE_SIZE, toIso(anchor.created_at)))}
      order by e.created_at desc, e.id desc
      limit ${PAGE_SIZE}`.execute(db);
    return { totalPages, transactions: await withVpos(db, driverId, rows, now) };
  }
  const matching = sql`from ledger_entries e where ${owned}${afterFrom}${toBound} and ${withinSpan(span)} and ${kindCondition(expressionBuilder<Database, 'ledger_entries'>(), kind)}`;
  return pageOf(
    db,
    driverId,
    sql<PageRow>`
    select ${SELECTED}, period.entries
    from (select count(*) as entries ${matching}) period left join (
      select e.* ${matching}
      order by e.created_at desc, e.id desc
      limit ${PAGE_SIZE} offset ${skip}
    ) p on 1 = 1
    order by p.created_at desc, p.id desc`,
    now,
  );
}

/** The driver's statement: its pages and its export (built once in services.ts). */
export class StatementService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Decision 81: the history's pages and exports may read a replica (none: the primary). */
    private readonly reads: Pick<ReadRouter, 'history'> = historyOn(db),
  ) {}

  async page(driverId: number, page: number, filters: StatementFilters, now: Date): Promise<StatementPage> {
    return statementPage(this.db, driverId, page, filters, now, await whoseEntries(this.db, driverId, filters));
  }

  /** A page, and the filtered period's totals per account (the same on every page): the statement screen's read. */
  async pageWithTotals(driverId: number, page: number, filters: StatementFilters, now: Date): Promise<StatementPageWithTotals> {
    return this.reads.history(driverId, async (db) => {
      const whose = await whoseEntries(db, driverId, filters);
      const months = await entryMonths(db, driverId, whose);
      const found = await statementPage(db, driverId, page, filters, now, whose, months);
      const totals = await periodTotals(db, driverId, statementScope(filters, now, whose), found.totalPages > 0, 'latest', months);
      const shippers = await vpoAccountNames(
        db,
        totals.flatMap((t) => (t.vpoId === null ? [] : [t.vpoId])),
      );
      return {
        ...found,
        totals: totals.map((t) => ({ conta: accountRef(t, shippers), total: centsToReais(t.cents), outrosVpos: t.others })),
      };
    });
  }

  /** Decision 79: the account's plates, live ones first (a plate registered twice once). */
  async plates(driverId: number): Promise<{ placa: string; removido: boolean }[]> {
    const rows = await this.db
      .selectFrom('vehicles')
      .select((eb) => ['license_plate', eb.fn.count<number | string>('id').filterWhere('deleted_at', 'is', null).as('live')])
      .where('driver_id', '=', driverId)
      .groupBy('license_plate')
      .execute();
    return rows
      .map((r) => ({ placa: r.license_plate, removido: Number(r.live) === 0 }))
      .sort((a, b) => Number(a.removido) - Number(b.removido) || a.placa.localeCompare(b.placa));
  }

  /** The whole statement for the filters as a file streamed from the database (export.ts). */
  async export(driverId: number, format: StatementExportFormat, filters: StatementFilters, now: Date): Promise<StatementFile> {
    return this.reads.history(driverId, async (db, later) =>
      statementExport(db, later, driverId, format, filters, now, await whoseEntries(db, driverId, filters)),
    );
  }
}
