import { describeStatementEntry, isVpoMoneyOrigin, statementAccountName, statementKindOf } from '@portal/domain';
import type { StatementKind } from '@portal/domain';
import type { StatementFilters } from '@portal/contract';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { StreamReads } from '../../db/read-replica.js';
import type { AccountKind, Database } from '../../db/schema.js';
import {
  accountKey,
  balancesAt,
  balancesThrough,
  driverAccounts,
  periodTotals,
  rowAccountOf,
  statementAccountOf,
  vpoAccountNames,
} from './accounts.js';
import type { RowAccount, VpoAccountName } from './accounts.js';
import { entryMonths, entrySpan, inPeriod, kindCondition, ofWhose, statementScope } from './queries.js';
import type { EntryMonth, StatementScope, WhoseEntries } from './queries.js';
import { entryVehicles } from './vehicles.js';
import type { VehicleNames } from './vehicles.js';

/** Rows read per query: a keyset step of (created_at, id) (one index range), small enough to stream. */
export const EXPORT_CHUNK_ROWS = 500;

/** The accounts' balances in centavos: Saldo, SaldoTerceiro and the VPOs' money (decision 52). */
export interface AccountBalances {
  own: number;
  third: number;
  vpo: number;
}

/** What an export knows before its first row: the period, the balances it opens with, the totals it ends with. */
export interface ExportPlan {
  scope: StatementScope;
  /** Each account's balance before the period's first entry (0 for the whole history). */
  opening: AccountBalances;
  /** Issue 33: the period's total per account (the kind's rows), named as the statement names them. */
  totals: { account: string; cents: number }[];
}

/** What the PDF's heading says besides (the CSV has no heading): read by exportSummary, for the PDF alone. */
export interface ExportSummary {
  /** Each account's balance after the period's last entry. */
  closing: AccountBalances;
  /** Rows the export will write (the period's entries of the chosen kind): the PDF counts its pages from it. */
  rowCount: number;
  /** The third-party account moved in or before the period: the PDF shows its balances too. */
  hasThird: boolean;
  /** The VPOs' account likewise (decision 52). */
  hasVpo: boolean;
}

/** One exported row, oldest first. */
export interface ExportRow {
  createdAt: string;
  /** domain describeStatementEntry(...).text, as the statement screen shows it. */
  description: string;
  kind: StatementKind | null;
  amountCents: number;
  third: boolean;
  /** Issue 33: the account the entry moved, named ('Saldo', 'Saldo em outras plataformas', 'VPO de <embarcador>: <rota>'). */
  account: string;
  /** The balance of that account (Saldo, SaldoTerceiro, or that one VPO) right after the entry. */
  balanceAfterCents: number;
  /** Decision 79: the vehicle's plate and the cost centre ('código · nome') of the entry; null: none. */
  plate: string | null;
  costCentre: string | null;
}

/** An account's name as the statement shows it, its VPO's shipper and route read from `vpos`. */
function nameOf(account: RowAccount, vpos: Map<number, VpoAccountName>): string {
  const vpo = account.vpoId === null ? undefined : vpos.get(account.vpoId);
  return statementAccountName(statementAccountOf(account), vpo?.shipper ?? null, vpo?.route ?? null);
}

/** The account an entry moved: its origin tells the VPOs' money apart (a VPO's shortfall is Saldo's). */
const accountOf = (isThird: number, origin: string): keyof AccountBalances =>
  isThird === 1 ? 'third' : isVpoMoneyOrigin(origin) ? 'vpo' : 'own';

export async function exportPlan(
  db: Kysely<Database>,
  driverId: number,
  filters: StatementFilters,
  now: Date,
  whose: WhoseEntries | null = null,
): Promise<ExportPlan> {
  const scope = statementScope(filters, now, whose);
  const opening = await openingBalances(db, driverId, scope);
  const months = await entryMonths(db, driverId, whose);
  const totals = await periodTotals(db, driverId, scope, await periodHasRows(db, driverId, scope, months), 'every', months);
  const shippers = await vpoAccountNames(
    db,
    totals.flatMap((t) => (t.vpoId === null ? [] : [t.vpoId])),
  );
  return { scope, opening, totals: totals.map((t) => ({ account: nameOf(t, shippers), cents: t.cents })) };
}

/** An entry of the period that the export writes as a row: of the chosen kind, of the filter's vehicles or centres. */
function writtenRow(eb: ExpressionBuilder<Database, 'ledger_entries'>, { kind, whose }: StatementScope): Expression<SqlBool> {
  return eb.and([kind === undefined ? eb.lit(true) : kindCondition(eb, kind), ofWhose(eb, whose)]);
}

/**
 * Whether the period holds a row the export writes (of its kind, of its vehicles or centres): the
 * first one found in the months that hold the driver's entries (decision 90), one index step.
 */
async function periodHasRows(
  db: Kysely<Database>,
  driverId: number,
  scope: StatementScope,
  months: readonly EntryMonth[],
): Promise<boolean> {
  const span = entrySpan(months);
  if (span === null) return false;
  const row = await db
    .selectFrom('ledger_entries')
    .select('id')
    .where('driver_id', '=', driverId)
    .where((eb) => inPeriod(eb, scope))
    .where((eb) => inPeriod(eb, span))
    .where((eb) => writtenRow(eb, scope))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The PDF's heading: what each account moved in the period and how many rows the kind keeps, in one
 * grouped pass over the period's entries. The CSV does without (decision 91): that pass read every
 * row's heap page a second time, about as much as the rows themselves.
 */
export async function exportSummary(db: Kysely<Database>, driverId: number, plan: ExportPlan): Promise<ExportSummary> {
  const { kind, whose } = plan.scope;
  const { opening } = plan;
  const closing = { ...opening };
  let rowCount = 0;
  let thirdMoved = false;
  let vpoMoved = false;
  const sums = await db
    .selectFrom('ledger_entries')
    .select((eb) => [
      'is_third',
      'origin',
      eb.fn.sum<number | string>('amount_cents').as('moved'),
      (kind === undefined && whose === null
        ? eb.fn.countAll<number | string>()
        : eb.fn.sum<number | string>(eb.case().when(writtenRow(eb, plan.scope)).then(1).else(0).end())
      ).as('rows'),
    ])
    .where('driver_id', '=', driverId)
    .where((eb) => inPeriod(eb, plan.scope))
    .groupBy(['is_third', 'origin'])
    .execute();
  for (const s of sums) {
    closing[accountOf(s.is_third, s.origin)] += Number(s.moved);
    rowCount += Number(s.rows ?? 0);
    if (s.is_third === 1) thirdMoved = true;
    if (accountOf(s.is_third, s.origin) === 'vpo') vpoMoved = true;
  }
  return {
    closing,
    rowCount,
    hasThird: thirdMoved || opening.third !== 0 || closing.third !== 0,
    hasVpo: vpoMoved || opening.vpo !== 0 || closing.vpo !== 0,
  };
}

/**
 * Each account's balance before the period's first instant, in one statement (one snapshot on both
 * databases), from the driver's counters and the entries of one hour (accounts.ts counterBalance):
 * decision 90, a few rows whatever the history, where it read every entry before the period or
 * after its start, whichever were fewer (about 20,000 rows of a carrier's, from disk at 0.7 of the year).
 */
async function openingBalances(db: Kysely<Database>, driverId: number, scope: StatementScope): Promise<AccountBalances> {
  if (scope.from === null) return { own: 0, third: 0, vpo: 0 };
  return balancesAt(db, driverId, scope.from);
}

/** Where the last chunk ended: the statement's order is (created_at, id). */
interface Keyset {
  createdAt: string;
  id: number;
}

/** The period's next EXPORT_CHUNK_ROWS entries after `after` (from its start when null), oldest first. */
function chunkAfter(db: Kysely<Database>, driverId: number, scope: StatementScope, after: Keyset | null) {
  let query = db
    .selectFrom('ledger_entries')
    .select([
      'id',
      'account_id',
      'vpo_id',
      'vehicle_id',
      'cost_centre_id',
      'created_at',
      'amount_cents',
      'origin',
      'place_name',
      'is_third',
    ])
    .where('driver_id', '=', driverId)
    .where((eb) => inPeriod(eb, scope));
  if (after !== null) {
    query = query
      .where('created_at', '>=', after.createdAt)
      .where((eb) => eb.or([eb('created_at', '>', after.createdAt), eb('id', '>', after.id)]));
  }
  return query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(EXPORT_CHUNK_ROWS).execute();
}

/**
 * The plan's rows, oldest first, EXPORT_CHUNK_ROWS at a time: each chunk is one keyset query
 * ((created_at, id) after the last one read, over ledger_entries_statement_idx), so nothing but
 * the current chunk is in memory. Every entry of the period is read, whatever the kind, because the balance after a row counts all the entries
 * of its account; only the kind's rows are yielded. A chunk's reads are one `reads.read`, and change
 * nothing until they are all done: a chunk read again (on the primary, its replica gone) starts
 * clean (the names it read are kept: a name is the same on either). Returning the generator early
 * (a client that went away) stops the reading.
 */
export async function* exportRows(reads: StreamReads, driverId: number, plan: ExportPlan): AsyncGenerator<ExportRow[]> {
  const { kind, whose } = plan.scope;
  const kinds = await reads.read((db) => driverAccounts(db, driverId));
  const ids = new Set(whose?.ids);
  const column = whose?.scope === 'centre' ? 'cost_centre_id' : 'vehicle_id';
  // Saldo's and SaldoTerceiro's balances run from the period's opening; each VPO's from its first row.
  const balance = new Map<string, number>([
    ['own', plan.opening.own],
    ['third', plan.opening.third],
  ]);
  // Names read once an export: a chunk asks only for the VPOs, plates and centres not seen before.
  const vpoNames = new Map<number, VpoAccountName>();
  const vehicleNames: VehicleNames = { plates: new Map(), centres: new Map() };
  let after: Keyset | null = null;
  for (;;) {
    const chunk = await reads.read(async (db) => {
      const rows = await chunkAfter(db, driverId, plan.scope, after);
      const tail = rows[rows.length - 1];
      if (tail === undefined) return null;
      const [shippers, vehicles] = await Promise.all([
        vpoAccountNames(
          db,
          rows.flatMap((r) => (r.vpo_id === null ? [] : [r.vpo_id])),
          vpoNames,
        ),
        entryVehicles(db, rows, vehicleNames),
      ]);
      const openings = await firstSeenOpenings(db, driverId, kinds, rows, balance, plan.scope.from, shippers);
      return { rows, tail, shippers, vehicles, openings };
    });
    if (chunk === null) return;
    const { rows, tail, shippers, vehicles, openings } = chunk;
    for (const [key, cents] of openings) balance.set(key, cents);
    const out: ExportRow[] = [];
    for (const r of rows) {
      const third = r.is_third === 1;
      const amountCents = Number(r.amount_cents);
      const account = rowAccountOf(kinds, r);
      const key = accountKey(account);
      const balanceAfterCents = (balance.get(key) ?? 0) + amountCents;
      balance.set(key, balanceAfterCents);
      const rowKind = statementKindOf(r.origin, third);
      if (kind !== undefined && rowKind !== kind) continue;
      const ownerId = r[column];
      if (whose && (ownerId === null || !ids.has(ownerId))) continue;
      const vehicle = vehicles.get(r.id);
      out.push({
        createdAt: toIso(r.created_at),
        description: describeStatementEntry(r.origin, r.place_name, third).text,
        kind: rowKind,
        amountCents,
        third,
        account: nameOf(account, shippers),
        balanceAfterCents,
        plate: vehicle?.placa ?? null,
        costCentre: vehicle?.centroDeCusto ? `${vehicle.centroDeCusto.codigo} · ${vehicle.centroDeCusto.nome}` : null,
      });
    }
    after = { createdAt: toIso(tail.created_at), id: tail.id };
    yield out;
    if (rows.length < EXPORT_CHUNK_ROWS) return;
  }
}

/**
 * The balance before its first row in this chunk of each account the export has not met yet (not in `known`). A VPO's
 * first row in the export is its first entry in the period (every entry of the period is read, in
 * order), so what it held then is the sum of its entries before the period: nothing for the whole
 * history or for a VPO issued in the period, else one grouped statement a chunk for those issued
 * before it, reading only the months from the first of them was issued to the period. One balance
 * read per VPO made a carrier's export cost grow with its trips under way (517 VPOs in 11,378 rows of
 * the heaviest carrier at 1/5 of the year); reading every month before the period made it grow
 * with the months kept (141 of about 330 ms of its SQL at 1/5).
 */
async function firstSeenOpenings(
  db: Kysely<Database>,
  driverId: number,
  kinds: Map<number, AccountKind>,
  rows: Awaited<ReturnType<typeof chunkAfter>>,
  known: ReadonlyMap<string, number>,
  from: string | null,
  names: ReadonlyMap<number, VpoAccountName>,
): Promise<Map<string, number>> {
  const openings = new Map<string, number>();
  const first = new Map<string, (typeof rows)[number]>();
  const vpos = new Map<number, number>();
  for (const r of rows) {
    const account = rowAccountOf(kinds, r);
    const key = accountKey(account);
    if (known.has(key) || first.has(key) || openings.has(key)) continue;
    if (account.kind === 'vpo' && account.vpoId !== null) {
      vpos.set(account.vpoId, r.account_id);
      openings.set(key, 0);
    } else first.set(key, r);
  }
  if (from !== null && vpos.size > 0) {
    for (const [vpoId, cents] of await vposHeldBefore(db, vpos, from, names)) openings.set(accountKey({ kind: 'vpo', vpoId }), cents);
  }
  if (first.size === 0) return openings;
  const through = await balancesThrough(
    db,
    driverId,
    [...first.values()].map((r) => ({ ...rowAccountOf(kinds, r), accountId: r.account_id, createdAt: toIso(r.created_at), id: r.id })),
  );
  [...first].forEach(([key, r], i) => openings.set(key, (through[i] ?? 0) - Number(r.amount_cents)));
  return openings;
}

/**
 * What each VPO (id to its account) held before `from`: the sum of its entries from its first money
 * (`moneyFrom`, read with its name) to `from`, for those issued before it; the others held nothing.
 */
async function vposHeldBefore(
  db: Kysely<Database>,
  vpos: ReadonlyMap<number, number>,
  from: string,
  names: ReadonlyMap<number, VpoAccountName>,
): Promise<Map<number, number>> {
  const fromMs = Date.parse(from);
  // A VPO missing from the names (never: every VPO of the chunk is named) is summed over its whole history.
  const issued = [...vpos.keys()].flatMap((id) => {
    const moneyFrom = names.get(id)?.moneyFrom ?? Number.NEGATIVE_INFINITY;
    return moneyFrom < fromMs ? [{ id, moneyFrom }] : [];
  });
  const held = new Map<number, number>();
  if (issued.length === 0) return held;
  const ids = issued.map((v) => v.id);
  const earliest = Math.min(...issued.map((v) => v.moneyFrom));
  const rows = await db
    .selectFrom('ledger_entries')
    .select((eb) => ['vpo_id', eb.fn.sum<number | string>('amount_cents').as('cents')])
    .where('vpo_id', 'in', ids)
    .where('account_id', 'in', [...new Set(ids.map((id) => vpos.get(id) ?? 0))])
    .$if(Number.isFinite(earliest), (q) => q.where('created_at', '>=', new Date(earliest).toISOString()))
    .where('created_at', '<', from)
    .groupBy('vpo_id')
    .execute();
  for (const r of rows) if (r.vpo_id !== null) held.set(r.vpo_id, Number(r.cents));
  return held;
}
