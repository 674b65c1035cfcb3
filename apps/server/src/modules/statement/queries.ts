import { STATEMENT_KIND_ORIGINS, STATEMENT_ORIGINS, statementRange } from '@portal/domain';
import type { StatementKind, StatementRange } from '@portal/domain';
import type { StatementFilters } from '@portal/contract';
import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, Kysely, RawBuilder, SqlBool } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { EntryScope } from '../../db/migrations/027-entry-vehicles.js';
import { nextMonth } from '../../db/partitions.js';
import type { Database } from '../../db/schema.js';
import { bucketsOf } from '../ledger/ledger.js';

/**
 * Decision 79: the entries of some of the account's vehicles or cost centres (a plate, a cost
 * centre, the trucks assigned to a driver), counted per vehicle and per centre
 * (ledger_scope_counts) as the driver's entries are per driver.
 */
export interface WhoseEntries {
  scope: EntryScope;
  ids: readonly number[];
  /** The filter in the driver's words (the PDF's heading): 'Placa ABC1D23', 'Centro de custo N01 · Norte'. */
  label: string;
}

/**
 * What the statement filters select (decision 54): a period is the entries dated in [from, to),
 * an index range of (driver_id, created_at, id) (migration 015); a kind is a condition on origin
 * and is_third (ledger_entries_kind_idx, which ends in created_at, id).
 */
export interface StatementScope {
  /** The period's first instant and the instant after it, as the ledger writes dates; null: unbounded. */
  from: string | null;
  to: string | null;
  kind: StatementKind | undefined;
  range: StatementRange;
  /** Decision 79: only these vehicles' or cost centres' entries; null: all the driver's. */
  whose: WhoseEntries | null;
}

export function statementScope(filters: StatementFilters, now: Date, whose: WhoseEntries | null = null): StatementScope {
  const range = statementRange(filters, now);
  return { from: range.from?.toISOString() ?? null, to: range.to?.toISOString() ?? null, kind: filters.tipo, range, whose };
}

/**
 * How the filter's entries are many among the read's: 'common' (a page, a passage's kind) reads
 * them by the vehicle's or centre's index; 'rare' (SaldoTerceiro's, the VPOs': a few in a company's
 * million) keeps the planners off that index, whose range is the whole centre (SQLite took it and
 * read 98,000 entries for one), so the account's or the kind's index finds them.
 */
export type FilterShare = 'common' | 'rare';

const whoseColumn = (whose: WhoseEntries) => (whose.scope === 'vehicle' ? 'vehicle_id' : 'cost_centre_id');

/** The condition on an entry `e` of the driver's statement, for the filter. */
export function entryCondition(driverId: number, whose: WhoseEntries | null, share: FilterShare = 'common'): RawBuilder<SqlBool> {
  if (whose === null) return sql<SqlBool>`e.driver_id = ${driverId}`;
  if (whose.ids.length === 0) return sql<SqlBool>`1 = 0`;
  const column = sql.ref(`e.${whoseColumn(whose)}`);
  // Unary plus and '+ 0': the same values, no index of theirs (the caller's account index decides).
  if (share === 'rare') return sql<SqlBool>`+e.driver_id = ${driverId} and ${column} + 0 in (${sql.join(whose.ids)})`;
  return sql<SqlBool>`e.driver_id = ${driverId} and ${column} in (${sql.join(whose.ids)})`;
}

/** The counters (`c`) of the driver's entries, or of the filter's vehicles or centres: a FROM and its condition. */
export function countersOf(driverId: number, whose: WhoseEntries | null): { table: RawBuilder<unknown>; where: RawBuilder<SqlBool> } {
  if (whose === null) return { table: sql`ledger_entry_counts c`, where: sql<SqlBool>`c.driver_id = ${driverId}` };
  const ids = whose.ids.length === 0 ? sql`null` : sql.join(whose.ids);
  return {
    table: sql`ledger_scope_counts c`,
    where: sql<SqlBool>`c.driver_id = ${driverId} and c.scope = ${sql.lit(whose.scope)} and c.scope_id in (${ids})`,
  };
}

/**
 * The buckets of one unit, (bucket, entries), in bucket order, `range` a condition on c.bucket and
 * `limit` how many at most: a driver's or a vehicle's counter rows as they are, several vehicles'
 * or centres' added up by bucket.
 */
function bucketRows(
  driverId: number,
  whose: WhoseEntries | null,
  unit: 'month' | 'day' | 'hour',
  range: RawBuilder<unknown>,
  limit?: number,
) {
  const { table, where } = countersOf(driverId, whose);
  const tail = limit === undefined ? sql`order by c.bucket` : sql`order by c.bucket limit ${sql.lit(limit)}`;
  if (whose !== null && whose.ids.length > 1) {
    return sql`select c.bucket, sum(c.entries) as entries from ${table} where ${where} and c.unit = ${sql.lit(unit)}${range} group by c.bucket ${tail}`;
  }
  return sql`select c.bucket, c.entries from ${table} where ${where} and c.unit = ${sql.lit(unit)}${range} ${tail}`;
}

/** A UTC month of the driver's (or the filter's) entries, as its counters hold it: its first instant and how many. */
export interface EntryMonth {
  month: string;
  entries: number;
}

/**
 * Decision 90: the months that hold the driver's entries (or the filter's), oldest first, from the
 * counters alone (a few rows a year). An archived month counts none (retention/month-archive.ts).
 */
export async function entryMonths(db: Kysely<Database>, driverId: number, whose: WhoseEntries | null): Promise<EntryMonth[]> {
  const { rows } = await sql<{ bucket: Date | string; entries: number | string }>`${bucketRows(driverId, whose, 'month', sql``)}`.execute(
    db,
  );
  return rows.filter((r) => Number(r.entries) > 0).map((r) => ({ month: toIso(r.bucket), entries: Number(r.entries) }));
}

/** Where entries can lie: [from, to) of created_at, months' starts; what a read of them needs no partition outside of. */
export interface EntrySpan {
  from: string;
  to: string;
}

/** From the first month holding entries to the start of the month after the last; null when none. */
export function entrySpan(months: readonly EntryMonth[]): EntrySpan | null {
  const first = months[0];
  const last = months.at(-1);
  if (!first || !last) return null;
  return { from: first.month, to: nextMonth(new Date(last.month)).toISOString() };
}

/**
 * Within `span` (the months' own), the newest `count` entries dated before `before` (null: all):
 * from the oldest month that must be read to hold them. A month wholly before `before` counts all
 * its entries; the month `before` falls in counts none (some of them may be after it), so the
 * span never misses one.
 */
export function newestSpan(months: readonly EntryMonth[], span: EntrySpan, count: number, before: string | null): EntrySpan {
  let held = 0;
  for (let i = months.length - 1; i >= 0; i--) {
    const month = months[i]!;
    if (before === null || nextMonth(new Date(month.month)).toISOString() <= before) held += month.entries;
    if (held >= count) return { from: month.month, to: span.to };
  }
  return span;
}

/** The span as a condition on `e.created_at`, to go beside the statement's own: the partitions outside it are not read. */
export function withinSpan(span: EntrySpan): RawBuilder<SqlBool> {
  return sql<SqlBool>`e.created_at >= ${span.from} and e.created_at < ${span.to}`;
}

/**
 * The number of the driver's entries dated before `instant` (its rank in the statement, oldest
 * first), from the counters alone but for one hour: the months before instant's month, the days
 * of its month before its day, the hours of its day before its hour (three ranges of
 * ledger_entry_counts' key), and the entries of its hour dated before it (an index range).
 * Without an instant, all the driver's entries. A scalar SQL expression, the same on both databases.
 */
export function entriesBefore(driverId: number, instant: string | null, whose: WhoseEntries | null = null): RawBuilder<number> {
  const { table, where } = countersOf(driverId, whose);
  const sum = (unit: 'month' | 'day' | 'hour', range: RawBuilder<unknown>) =>
    sql`(select coalesce(sum(c.entries), 0) from ${table} where ${where} and c.unit = ${sql.lit(unit)}${range})`;
  if (instant === null) return sql<number>`cast(${sum('month', sql``)} as bigint)`;
  const { month, day, hour } = bucketsOf(instant);
  return sql<number>`cast(
    ${sum('month', sql` and c.bucket < ${month}`)}
    + ${sum('day', sql` and c.bucket >= ${month} and c.bucket < ${day}`)}
    + ${sum('hour', sql` and c.bucket >= ${day} and c.bucket < ${hour}`)}
    + (select count(*) from ledger_entries e where ${entryCondition(driverId, whose)} and e.created_at >= ${hour} and e.created_at < ${instant})
    as bigint)`;
}

/**
 * The (created_at, id) of the driver's entry of rank `rank` (0 the oldest; `rank` a scalar SQL
 * expression), as a CTE body named by the caller: the month whose running count passes rank, then
 * the day inside that month (at most 31 counter rows), the hour inside that day (at most 24), and
 * the entry inside that hour by OFFSET over the statement index. No row when rank is outside
 * [0, entries). About 12 counter rows a year of history plus one hour's entries, whatever the rank.
 * With a filter (decision 79), the same over the vehicles' or centres' counters and entries.
 */
export function entryAtRank(driverId: number, rank: RawBuilder<number>, whose: WhoseEntries | null = null): RawBuilder<unknown> {
  const runningCount = sql`cast(sum(x.entries) over (order by x.bucket rows between unbounded preceding and current row) as bigint) - x.entries`;
  // Each step: the buckets of one unit from the first instant of the step before (`outer`), their
  // running counts, and the one holding the wanted rank (`r`, counted from the bucket's start).
  const running = (unit: 'day' | 'hour', limit: number, outer: string) =>
    sql`select x.bucket, x.entries, ${runningCount} as before
      from (${bucketRows(driverId, whose, unit, sql` and c.bucket >= (select bucket from ${sql.table(outer)})`, limit)}) x`;
  return sql`select s.created_at, s.id from (
    with wanted as materialized (select ${rank} as r),
    months as materialized (select x.bucket, x.entries, ${runningCount} as before from (${bucketRows(driverId, whose, 'month', sql``)}) x),
    in_month as materialized (select b.bucket, w.r - b.before as r from months b, wanted w where b.before <= w.r and w.r < b.before + b.entries),
    days as materialized (${running('day', 31, 'in_month')}),
    in_day as materialized (select b.bucket, o.r - b.before as r from days b, in_month o where b.before <= o.r and o.r < b.before + b.entries),
    hours as materialized (${running('hour', 24, 'in_day')}),
    in_hour as materialized (select b.bucket, o.r - b.before as r from hours b, in_day o where b.before <= o.r and o.r < b.before + b.entries)
    select e.created_at, e.id from ledger_entries e
    where ${entryCondition(driverId, whose)} and e.created_at >= (select bucket from in_hour)
    order by e.created_at, e.id
    limit 1 offset cast(coalesce((select r from in_hour), 0) as bigint)
  ) s`;
}

const THIRD_PARTY_ORIGINS = [STATEMENT_ORIGINS.thirdPartyDebit, STATEMENT_ORIGINS.thirdPartyCredit];

/** The SQL twin of domain statementKindOf(origin, is_third) === kind. */
export function kindCondition(eb: ExpressionBuilder<Database, 'ledger_entries'>, kind: StatementKind): Expression<SqlBool> {
  if (kind === 'terceiros') return eb.or([eb('is_third', '=', 1), eb('origin', 'in', THIRD_PARTY_ORIGINS)]);
  return eb.and([eb('origin', 'in', [...STATEMENT_KIND_ORIGINS[kind]]), eb('is_third', '=', 0)]);
}

/** The filter's vehicles or cost centres (decision 79), for a Kysely query over ledger_entries. */
export function ofWhose(
  eb: ExpressionBuilder<Database, 'ledger_entries'>,
  whose: WhoseEntries | null,
  share: FilterShare = 'common',
): Expression<SqlBool> {
  if (whose === null) return eb.lit(true);
  if (whose.ids.length === 0) return eb.lit(false);
  const column = whoseColumn(whose);
  return eb(share === 'rare' ? eb(column, '+', 0) : eb.ref(column), 'in', [...whose.ids]);
}

/** The period's (or a span's) bounds on created_at, for a Kysely query over ledger_entries. */
export function inPeriod(
  eb: ExpressionBuilder<Database, 'ledger_entries'>,
  { from, to }: Pick<StatementScope, 'from' | 'to'>,
): Expression<SqlBool> {
  return eb.and([...(from === null ? [] : [eb('created_at', '>=', from)]), ...(to === null ? [] : [eb('created_at', '<', to)])]);
}
