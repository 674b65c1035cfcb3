import { STATEMENT_ACCOUNT_OF_KIND, STATEMENT_KIND_ORIGINS, STATEMENT_LISTED_VPO_TOTALS, vpoAccountRoute } from '@portal/domain';
import type { StatementAccount, StatementKind } from '@portal/domain';
import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { toIso } from '../../db/connection.js';
import { COUNTER_CENTS } from '../../db/migrations/020-statement-account-sums.js';
import type { AccountKind, Database } from '../../db/schema.js';
import { bucketsOf } from '../ledger/ledger.js';
import { countersOf, entryCondition, entryMonths, entrySpan, inPeriod, kindCondition, ofWhose, withinSpan } from './queries.js';
import type { EntryMonth, EntrySpan, StatementScope, WhoseEntries } from './queries.js';

/**
 * Issue 33 (decision 63): whose money a statement row moved. Saldo and SaldoTerceiro are the
 * driver's accounts; the VPOs' account holds several shippers' money, so each VPO is an account of
 * its own in the statement (its entries name it: ledger_entries.vpo_id, decision 52).
 */
export interface RowAccount {
  kind: AccountKind;
  /** The VPO whose money moved (kind 'vpo'); null otherwise. */
  vpoId: number | null;
}

/** The statement's key of an account: 'own', 'third' or 'vpo:<id>'. */
export const accountKey = (a: RowAccount): string => (a.kind === 'vpo' ? `vpo:${a.vpoId ?? ''}` : a.kind);

export const statementAccountOf = (a: RowAccount): StatementAccount => STATEMENT_ACCOUNT_OF_KIND[a.kind];

/** The driver's three ledger accounts by id (one read, three rows). */
export async function driverAccounts(db: Kysely<Database>, driverId: number): Promise<Map<number, AccountKind>> {
  const rows = await db.selectFrom('accounts').select(['id', 'kind']).where('driver_id', '=', driverId).execute();
  return new Map(rows.map((r) => [r.id, r.kind]));
}

/** An entry's account: its ledger account's kind, and its VPO when that account is the VPOs'. */
export function rowAccountOf(kinds: Map<number, AccountKind>, entry: { account_id: number; vpo_id: number | null }): RowAccount {
  const kind = kinds.get(entry.account_id) ?? 'own';
  return { kind, vpoId: kind === 'vpo' ? entry.vpo_id : null };
}

/** A point of the statement: an entry's place (created_at, id) and the account it moved. */
export interface BalancePoint extends RowAccount {
  accountId: number;
  createdAt: string;
  id: number;
  /** A VPO's first money (VpoAccountName.moneyFrom, ms): none of its entries is dated before it. */
  moneyFrom?: number | undefined;
}

/**
 * An account's balance at an instant, as a scalar SQL expression: what the account
 * moved in the driver's counters of the months before the instant's month, the days of its month
 * before its day, the hours of its day before its hour (migration 020), plus the account's entries
 * of its hour before the instant, or through the entry (instant, id) when `through` is given: a
 * few counter rows and one hour, whatever the length of the history.
 */
function counterBalance(
  driverId: number,
  accountId: number,
  kind: AccountKind,
  instant: string,
  through?: number,
  whose: WhoseEntries | null = null,
): RawBuilder<number> {
  const column = sql.ref(`c.${COUNTER_CENTS[kind]}`);
  const { month, day, hour } = bucketsOf(instant);
  const { table, where } = countersOf(driverId, whose);
  const sum = (unit: 'month' | 'day' | 'hour', range: RawBuilder<unknown>) =>
    sql`(select coalesce(sum(${column}), 0) from ${table} where ${where} and c.unit = ${sql.lit(unit)}${range})`;
  // The row comparison alone does not bound created_at for PostgreSQL's planner (it scanned the
  // table for a deep page's rows): the instant bounds it beside it.
  const upTo =
    through === undefined
      ? sql`e.created_at < ${instant}`
      : sql`e.created_at <= ${instant} and (e.created_at, e.id) <= (${instant}, ${through})`;
  return sql<number>`(
    ${sum('month', sql` and c.bucket < ${month}`)}
    + ${sum('day', sql` and c.bucket >= ${month} and c.bucket < ${day}`)}
    + ${sum('hour', sql` and c.bucket >= ${day} and c.bucket < ${hour}`)}
    + (select coalesce(sum(e.amount_cents), 0) from ledger_entries e
       where ${entryCondition(driverId, whose)} and e.created_at >= ${hour} and e.account_id = ${accountId} and ${upTo}))`;
}

/** What a filter's entries (decision 79) moved in an account kind over their whole history: their month counters. */
function countedAll(driverId: number, kind: AccountKind, whose: WhoseEntries): RawBuilder<number> {
  const { table, where } = countersOf(driverId, whose);
  return sql<number>`(select coalesce(sum(${sql.ref(`c.${COUNTER_CENTS[kind]}`)}), 0) from ${table} where ${where} and c.unit = 'month')`;
}

/**
 * The account's balance right after the entry (created_at, id), as a scalar SQL expression: Saldo
 * and SaldoTerceiro from the counters (counterBalance); a VPO from its own entries through it (a
 * trip's few, by ledger_entries_vpo_idx).
 */
function balanceThrough(driverId: number, p: BalancePoint): RawBuilder<number> {
  if (p.kind !== 'vpo') return counterBalance(driverId, p.accountId, p.kind, p.createdAt, p.id);
  const vpo = p.vpoId === null ? sql`e.vpo_id is null` : sql`e.vpo_id = ${p.vpoId}`;
  // Decision 90: the instants bound the months read (the row comparison alone does not).
  const since = p.moneyFrom === undefined ? sql`` : sql` and e.created_at >= ${new Date(p.moneyFrom).toISOString()}`;
  return sql<number>`(select coalesce(sum(e.amount_cents), 0) from ledger_entries e
    where ${vpo} and e.account_id = ${p.accountId} and e.created_at <= ${p.createdAt}${since} and (e.created_at, e.id) <= (${p.createdAt}, ${p.id}))`;
}

/** Each point's account balance right after it, in centavos: one SQL statement for them all. */
export async function balancesThrough(db: Kysely<Database>, driverId: number, points: readonly BalancePoint[]): Promise<number[]> {
  if (points.length === 0) return [];
  const columns = points.map((p, i) => sql`${balanceThrough(driverId, { ...p, createdAt: toIso(p.createdAt) })} as ${sql.ref(`b${i}`)}`);
  const { rows } = await sql<Record<string, number | string>>`select ${sql.join(columns)}`.execute(db);
  const row = rows[0] ?? {};
  return points.map((_, i) => Number(row[`b${i}`] ?? 0));
}

/** Each of the driver's accounts' balance at an instant (entries dated before it), by kind: one statement of counter rows and one hour. */
export async function balancesAt(db: Kysely<Database>, driverId: number, instant: string): Promise<Record<AccountKind, number>> {
  const kinds = await driverAccounts(db, driverId);
  const accounts = [...kinds];
  const balances: Record<AccountKind, number> = { own: 0, third: 0, vpo: 0 };
  if (accounts.length === 0) return balances;
  const columns = accounts.map(([id, kind], i) => sql`${counterBalance(driverId, id, kind, instant)} as ${sql.ref(`b${i}`)}`);
  const { rows } = await sql<Record<string, number | string>>`select ${sql.join(columns)}`.execute(db);
  accounts.forEach(([, kind], i) => (balances[kind] += Number(rows[0]?.[`b${i}`] ?? 0)));
  return balances;
}

/** One account's net movement in a period (centavos). */
export interface AccountTotal extends RowAccount {
  cents: number;
  /** Decision 83: the net of the period's VPOs past the ones named (kind 'vpo', vpoId null). */
  others: boolean;
}

/** Which VPOs the totals name: every one that moved (the exports), or the last few and one line for the rest (the screen). */
export type VpoTotals = 'every' | 'latest';

/**
 * The period's total per account, in the statement's order of accounts (Saldo, SaldoTerceiro, then
 * the VPOs by id): never summed across accounts. Without a kind, Saldo is always there (when the
 * period has entries), SaldoTerceiro when it moved in the period, and the VPOs that moved: every one
 * (`vpos` 'every'), or the last few and their others' net in one line ('latest', decision 83); with
 * a kind, the accounts of that kind's entries (the VPO kind's VPOs as without one). Saldo's, SaldoTerceiro's and the other VPOs' totals
 * come from the counters (the balance at the period's end less the balance at its start), so a long
 * period costs what a short one does; a named VPO's from its entries in the period.
 */
export async function periodTotals(
  db: Kysely<Database>,
  driverId: number,
  scope: StatementScope,
  hasEntries: boolean,
  vpos: VpoTotals = 'every',
  /** The driver's (or the filter's) months, when the caller read them already. */
  months?: readonly EntryMonth[],
): Promise<AccountTotal[]> {
  if (!hasEntries) return [];
  const kinds = await driverAccounts(db, driverId);
  const { whose } = scope;
  // Decision 90: the months that hold the driver's entries, so that the reads below skip the others.
  const span = entrySpan(months ?? (await entryMonths(db, driverId, whose)));
  if (span === null) return [];
  const byAccount = (kind: StatementKind) =>
    db
      .selectFrom('ledger_entries')
      .select((eb) => ['account_id', 'vpo_id', eb.fn.sum<number | string>('amount_cents').as('cents')])
      .where('driver_id', '=', driverId)
      .where((eb) => inPeriod(eb, scope))
      .where((eb) => inPeriod(eb, span))
      .$if(whose !== null, (q) => q.where((eb) => ofWhose(eb, whose, kind === 'vpo' || kind === 'terceiros' ? 'rare' : 'common')))
      .where((eb) => kindCondition(eb, kind))
      .groupBy(['account_id', 'vpo_id'])
      .execute();
  const idOf = (kind: AccountKind) => [...kinds].find(([, k]) => k === kind)?.[0] ?? 0;
  const moved = (kind: AccountKind) => {
    const end =
      scope.to !== null
        ? counterBalance(driverId, idOf(kind), kind, scope.to, undefined, whose)
        : whose === null
          ? sql`(select balance_cents from accounts where id = ${idOf(kind)})`
          : countedAll(driverId, kind, whose);
    return scope.from === null ? end : sql`${end} - ${counterBalance(driverId, idOf(kind), kind, scope.from, undefined, whose)}`;
  };
  // The VPO kind's entries are the VPO account's: its totals are the same lines.
  if (scope.kind === 'vpo' && vpos === 'latest')
    return ordered(await latestVpoTotals(db, driverId, scope, span, idOf('vpo'), moved('vpo')));
  if (scope.kind !== undefined) return ordered(gather(kinds, await byAccount(scope.kind)));
  const periodOf = sql`${scope.from === null ? sql`` : sql` and e.created_at >= ${scope.from}`}${scope.to === null ? sql`` : sql` and e.created_at < ${scope.to}`} and ${withinSpan(span)}`;
  const { rows } = await sql<{ own: number | string; third: number | string; third_moved: number | string }>`select
    ${moved('own')} as own, ${moved('third')} as third,
    (select count(*) from (select 1 from ledger_entries e where e.account_id = ${idOf('third')} and ${entryCondition(driverId, whose, 'rare')}${periodOf} limit 1) t) as third_moved`.execute(
    db,
  );
  const row = rows[0];
  const totals: AccountTotal[] = [{ kind: 'own', vpoId: null, cents: Number(row?.own ?? 0), others: false }];
  if (Number(row?.third_moved ?? 0) > 0) totals.push({ kind: 'third', vpoId: null, cents: Number(row?.third ?? 0), others: false });
  const latest = vpos === 'latest' ? await latestVpoTotals(db, driverId, scope, span, idOf('vpo'), moved('vpo')) : null;
  return ordered([...totals, ...(latest ?? gather(kinds, await byAccount('vpo')))]);
}

/** Entries of each VPO origin read, newest first, to find the VPOs that moved last. */
const LATEST_VPO_ENTRIES = 200;

/**
 * Decision 83: the VPOs that moved last in the period, at most STATEMENT_LISTED_VPO_TOTALS, each
 * with its net in the period, and, when more moved, one line with the others' net: the VPO account's
 * counters less the named ones. The cost is a few trips' entries whatever the history.
 */
async function latestVpoTotals(
  db: Kysely<Database>,
  driverId: number,
  scope: StatementScope,
  span: EntrySpan,
  vpoAccount: number,
  vpoMoved: RawBuilder<unknown>,
): Promise<AccountTotal[]> {
  // A VPO's money is the driver's own VPOs' (decision 52): a driver who never had one has none to find.
  const anyVpo = await db.selectFrom('vpos').select('id').where('driver_id', '=', driverId).limit(1).executeTakeFirst();
  if (anyVpo === undefined) return [];
  const last = (await lastMovedFromNewest(db, driverId, scope, span)) ?? (await lastMovedGrouped(db, driverId, scope, span, vpoAccount));
  const named = last.slice(0, STATEMENT_LISTED_VPO_TOTALS);
  if (named.length === 0) return [];
  const sums = await db
    .selectFrom('ledger_entries')
    .select((eb) => ['vpo_id', eb.fn.sum<number | string>('amount_cents').as('cents')])
    .where('vpo_id', 'in', named)
    .where('account_id', '=', vpoAccount)
    .where((eb) => inPeriod(eb, scope))
    .where((eb) => inPeriod(eb, span))
    .$if(scope.whose !== null, (q) => q.where((eb) => ofWhose(eb, scope.whose, 'rare')))
    .groupBy('vpo_id')
    .execute();
  const totals = sums.map((r): AccountTotal => ({ kind: 'vpo', vpoId: r.vpo_id, cents: Number(r.cents), others: false }));
  if (last.length <= STATEMENT_LISTED_VPO_TOTALS) return totals;
  const { rows } = await sql<{ cents: number | string }>`select ${vpoMoved} as cents`.execute(db);
  const namedCents = totals.reduce((sum, t) => sum + t.cents, 0);
  return [...totals, { kind: 'vpo', vpoId: null, cents: Number(rows[0]?.cents ?? 0) - namedCents, others: true }];
}

/** How many distinct VPOs the search gathers: one past those named tells that others moved. */
const GATHERED_VPOS = STATEMENT_LISTED_VPO_TOTALS + 1;

/**
 * The VPOs that moved last in the period, newest first, up to GATHERED_VPOS, from each VPO origin's
 * newest entries (ledger_entries_kind_idx). Null when those entries are not enough to know (a VPO
 * with hundreds of entries in the period).
 */
async function lastMovedFromNewest(
  db: Kysely<Database>,
  driverId: number,
  scope: StatementScope,
  span: EntrySpan,
): Promise<number[] | null> {
  const newest = (origin: string) =>
    db
      .selectFrom('ledger_entries')
      .select(['vpo_id', 'created_at', 'id', 'origin'])
      .where('driver_id', '=', driverId)
      .where('origin', '=', origin)
      .where('is_third', '=', 0)
      .where((eb) => inPeriod(eb, scope))
      .where((eb) => inPeriod(eb, span))
      .$if(scope.whose !== null, (q) => q.where((eb) => ofWhose(eb, scope.whose, 'rare')))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(LATEST_VPO_ENTRIES);
  const branches = STATEMENT_KIND_ORIGINS.vpo.map((origin, i) => sql`select * from (${newest(origin)}) ${sql.ref(`n${i}`)}`);
  const { rows } = await sql<{ vpo_id: number | null; created_at: Date | string; id: number; origin: string }>`${sql.join(
    branches,
    sql` union all `,
  )}`.execute(db);
  const entries = rows.map((r) => ({ ...r, at: toIso(r.created_at) }));
  const newer = (a: { at: string; id: number }, b: { at: string; id: number }) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1);
  entries.sort(newer);
  // Past the oldest entry read of an origin that had more, an entry of that origin may be missing.
  const cut = STATEMENT_KIND_ORIGINS.vpo
    .map((origin) => entries.filter((e) => e.origin === origin))
    .filter((read) => read.length === LATEST_VPO_ENTRIES)
    .map((read) => read[read.length - 1]!)
    .sort(newer)[0];
  const found: number[] = [];
  for (const entry of entries) {
    if (found.length === GATHERED_VPOS) break;
    if (cut !== undefined && newer(entry, cut) > 0) return null;
    if (entry.vpo_id !== null && !found.includes(entry.vpo_id)) found.push(entry.vpo_id);
  }
  return found;
}

/** The same, from every VPO entry of the period: exact whatever the trips, as long as the period. */
async function lastMovedGrouped(
  db: Kysely<Database>,
  driverId: number,
  scope: StatementScope,
  span: EntrySpan,
  vpoAccount: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select((eb) => ['vpo_id', eb.fn.max('created_at').as('last_at'), eb.fn.max('id').as('last_id')])
    .where('driver_id', '=', driverId)
    .where('account_id', '=', vpoAccount)
    .where('vpo_id', 'is not', null)
    .where((eb) => inPeriod(eb, scope))
    .where((eb) => inPeriod(eb, span))
    .$if(scope.whose !== null, (q) => q.where((eb) => ofWhose(eb, scope.whose, 'rare')))
    .groupBy('vpo_id')
    .orderBy('last_at', 'desc')
    .orderBy('last_id', 'desc')
    .limit(GATHERED_VPOS)
    .execute();
  return rows.flatMap((r) => (r.vpo_id === null ? [] : [r.vpo_id]));
}

/** Sums by account of rows grouped by (account_id, vpo_id). */
function gather(
  kinds: Map<number, AccountKind>,
  rows: readonly { account_id: number; vpo_id: number | null; cents: number | string }[],
): AccountTotal[] {
  const byKey = new Map<string, AccountTotal>();
  for (const r of rows) {
    const account = rowAccountOf(kinds, r);
    const key = accountKey(account);
    const total = byKey.get(key) ?? { ...account, cents: 0, others: false };
    total.cents += Number(r.cents);
    byKey.set(key, total);
  }
  return [...byKey.values()];
}

const ORDER: Record<AccountKind, number> = { own: 0, third: 1, vpo: 2 };

function ordered(totals: AccountTotal[]): AccountTotal[] {
  return totals.sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || Number(a.others) - Number(b.others) || (a.vpoId ?? 0) - (b.vpoId ?? 0));
}

/** What names a VPO's account: its shipper, and its route (one shipper's VPOs told apart). */
export interface VpoAccountName {
  shipper: string;
  route: string | null;
  /**
   * Decision 86: the instant no entry of the VPO's money precedes (ms): its hold is dated when issued
   * or at the trip's start when earlier (vpos/money.ts), the row's created_at taken before it in the
   * same transaction; the passages it pays fall in its trip, the rest (free-flow tolls, give-backs,
   * the refund) is dated when it happens.
   */
  moneyFrom: number;
}

/** The names of these VPOs' accounts, by VPO id. */
export async function vpoAccountNames(
  db: Kysely<Database>,
  vpoIds: readonly number[],
  known: Map<number, VpoAccountName> = new Map(),
): Promise<Map<number, VpoAccountName>> {
  const ids = [...new Set(vpoIds)].filter((id) => !known.has(id));
  if (ids.length === 0) return known;
  const rows = await db
    .selectFrom('vpos')
    .innerJoin('partners', 'partners.id', 'vpos.partner_id')
    .select(['vpos.id', 'partners.name', 'vpos.origin', 'vpos.destination', 'vpos.created_at', 'vpos.trip_start'])
    .where('vpos.id', 'in', ids)
    .execute();
  for (const v of rows) {
    const created = Date.parse(toIso(v.created_at));
    const moneyFrom = v.trip_start === null ? created : Math.min(created, Date.parse(toIso(v.trip_start)));
    known.set(v.id, { shipper: v.name, route: vpoAccountRoute(v.origin, v.destination), moneyFrom });
  }
  return known;
}
