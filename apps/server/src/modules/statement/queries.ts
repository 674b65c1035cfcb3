import { STATEMENT_KIND_ORIGINS, STATEMENT_ORIGINS, statementRange } from '@portal/domain';
import type { StatementKind, StatementRange } from '@portal/domain';
import type { StatementFilters } from '@portal/contract';
import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, Kysely, RawBuilder, SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';
import { bucketsOf } from '../ledger/ledger.js';

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
}

export function statementScope(filters: StatementFilters, now: Date): StatementScope {
  const range = statementRange(filters, now);
  return { from: range.from?.toISOString() ?? null, to: range.to?.toISOString() ?? null, kind: filters.tipo, range };
}

/**
 * The number of the driver's entries dated before `instant` (its rank in the statement, oldest
 * first), from the counters alone but for one hour: the months before instant's month, the days
 * of its month before its day, the hours of its day before its hour (three ranges of
 * ledger_entry_counts' key), and the entries of its hour dated before it (an index range).
 * Without an instant, all the driver's entries. A scalar SQL expression, the same on both databases.
 */
export function entriesBefore(driverId: number, instant: string | null): RawBuilder<number> {
  const sum = (unit: 'month' | 'day' | 'hour', range: RawBuilder<unknown>) =>
    sql`(select coalesce(sum(c.entries), 0) from ledger_entry_counts c where c.driver_id = ${driverId} and c.unit = ${sql.lit(unit)}${range})`;
  if (instant === null) return sql<number>`cast(${sum('month', sql``)} as bigint)`;
  const { month, day, hour } = bucketsOf(instant);
  return sql<number>`cast(
    ${sum('month', sql` and c.bucket < ${month}`)}
    + ${sum('day', sql` and c.bucket >= ${month} and c.bucket < ${day}`)}
    + ${sum('hour', sql` and c.bucket >= ${day} and c.bucket < ${hour}`)}
    + (select count(*) from ledger_entries e where e.driver_id = ${driverId} and e.created_at >= ${hour} and e.created_at < ${instant})
    as bigint)`;
}

/**
 * The (created_at, id) of the driver's entry of rank `rank` (0 the oldest; `rank` a scalar SQL
 * expression), as a CTE body named by the caller: the month whose running count passes rank, then
 * the day inside that month (at most 31 counter rows), the hour inside that day (at most 24), and
 * the entry inside that hour by OFFSET over the statement index. No row when rank is outside
 * [0, entries). About 12 counter rows a year of history plus one hour's entries, whatever the rank.
 */
export function entryAtRank(driverId: number, rank: RawBuilder<number>): RawBuilder<unknown> {
  // Each step: the buckets of one unit from the first instant of the step before (`from`), their
  // running counts, and the one holding the wanted rank (`r`, counted from the bucket's start).
  const running = (unit: 'day' | 'hour', limit: number, outer: string) =>
    sql`select x.bucket, x.entries, cast(sum(x.entries) over (order by x.bucket rows between unbounded preceding and current row) as bigint) - x.entries as before
      from (select c.bucket, c.entries from ledger_entry_counts c
        where c.driver_id = ${driverId} and c.unit = ${sql.lit(unit)} and c.bucket >= (select bucket from ${sql.table(outer)})
        order by c.bucket limit ${sql.lit(limit)}) x`;
  return sql`select s.created_at, s.id from (
    with wanted as materialized (select ${rank} as r),
    months as materialized (
      select c.bucket, c.entries, cast(sum(c.entries) over (order by c.bucket rows between unbounded preceding and current row) as bigint) - c.entries as before
      from ledger_entry_counts c where c.driver_id = ${driverId} and c.unit = 'month'),
    in_month as materialized (select b.bucket, w.r - b.before as r from months b, wanted w where b.before <= w.r and w.r < b.before + b.entries),
    days as materialized (${running('day', 31, 'in_month')}),
    in_day as materialized (select b.bucket, o.r - b.before as r from days b, in_month o where b.before <= o.r and o.r < b.before + b.entries),
    hours as materialized (${running('hour', 24, 'in_day')}),
    in_hour as materialized (select b.bucket, o.r - b.before as r from hours b, in_day o where b.before <= o.r and o.r < b.before + b.entries)
    select e.created_at, e.id from ledger_entries e
    where e.driver_id = ${driverId} and e.created_at >= (select bucket from in_hour)
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

/** The period's bounds on created_at, for a Kysely query over ledger_entries. */
export function inPeriod(eb: ExpressionBuilder<Database, 'ledger_entries'>, { from, to }: StatementScope): Expression<SqlBool> {
  return eb.and([...(from === null ? [] : [eb('created_at', '>=', from)]), ...(to === null ? [] : [eb('created_at', '<', to)])]);
}

/** How many entries the driver has, and how many are dated before the period and before its end: one statement. */
export async function periodRanks(
  db: Kysely<Database>,
  driverId: number,
  { from, to }: StatementScope,
): Promise<{ entryCount: number; before: number; through: number }> {
  const total = entriesBefore(driverId, null);
  const { rows } = await sql<{ total: number | string; before: number | string; through: number | string }>`select
    ${total} as total,
    ${from === null ? sql`0` : entriesBefore(driverId, from)} as before,
    ${to === null ? total : entriesBefore(driverId, to)} as through`.execute(db);
  const row = rows[0];
  return { entryCount: Number(row?.total ?? 0), before: Number(row?.before ?? 0), through: Number(row?.through ?? 0) };
}
