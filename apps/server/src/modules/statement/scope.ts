import { STATEMENT_KIND_ORIGINS, STATEMENT_ORIGINS, statementRange } from '@portal/domain';
import type { StatementKind, StatementRange } from '@portal/domain';
import type { StatementFilters } from '@portal/contract';
import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * What the statement filters select, as the ledger indexes it: a period is the driver_seq range
 * [lo, hi] (driver_seq follows created_at, migration 008); a kind is a condition on origin and
 * is_third (ledger_entries_kind_idx, migration 010).
 */
export interface StatementScope {
  /** The driver's number of entries (the highest driver_seq). */
  entryCount: number;
  /** First and last driver_seq of the period; lo > hi when the period has no entries. */
  lo: number;
  hi: number;
  kind: StatementKind | undefined;
  range: StatementRange;
}

export async function statementScope(
  db: Kysely<Database>,
  driverId: number,
  filters: StatementFilters,
  now: Date,
): Promise<StatementScope> {
  const range = statementRange(filters, now);
  const counter = await db.selectFrom('driver_ledger_counters').select('entry_count').where('driver_id', '=', driverId).executeTakeFirst();
  const entryCount = Number(counter?.entry_count ?? 0);
  const lo = range.from ? await firstPlaceFrom(db, driverId, entryCount, range.from) : 1;
  const hi = range.to && lo <= entryCount ? (await firstPlaceFrom(db, driverId, entryCount, range.to)) - 1 : entryCount;
  return { entryCount, lo, hi, kind: filters.tipo, range };
}

/**
 * The first place (driver_seq) dated at or after `instant`, entryCount + 1 when none is: since
 * driver_seq follows created_at, a binary search of point lookups in (driver_id, driver_seq),
 * about 17 for 100,000 entries, run inside the database as one recursive query (one round trip,
 * one snapshot; the same SQL on SQLite and PostgreSQL). No index on created_at is needed.
 */
async function firstPlaceFrom(db: Kysely<Database>, driverId: number, entryCount: number, instant: Date): Promise<number> {
  const at = instant.toISOString();
  const createdAtOfMid = sql`(select e.created_at from ledger_entries e where e.driver_id = ${driverId} and e.driver_seq = (s.lo + s.hi) / 2 limit 1)`;
  const { rows } = await sql<{ lo: number }>`
    with recursive search(lo, hi) as (
      select cast(1 as integer), cast(${entryCount + 1} as integer)
      union all
      select
        case when ${createdAtOfMid} >= ${at} then s.lo else (s.lo + s.hi) / 2 + 1 end,
        case when ${createdAtOfMid} >= ${at} then (s.lo + s.hi) / 2 else s.hi end
      from search s
      where s.lo < s.hi
    )
    select lo from search where lo >= hi`.execute(db);
  return Number(rows[0]?.lo ?? entryCount + 1);
}

const THIRD_PARTY_ORIGINS = [STATEMENT_ORIGINS.thirdPartyDebit, STATEMENT_ORIGINS.thirdPartyCredit];

/** The SQL twin of domain statementKindOf(origin, is_third) === kind. */
export function kindCondition(eb: ExpressionBuilder<Database, 'ledger_entries'>, kind: StatementKind): Expression<SqlBool> {
  if (kind === 'terceiros') return eb.or([eb('is_third', '=', 1), eb('origin', 'in', THIRD_PARTY_ORIGINS)]);
  return eb.and([eb('origin', 'in', [...STATEMENT_KIND_ORIGINS[kind]]), eb('is_third', '=', 0)]);
}
