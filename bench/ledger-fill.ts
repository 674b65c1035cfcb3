import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Dialect } from '../apps/server/src/db/connection.js';
import type { Database } from '../apps/server/src/db/schema.js';
import { bucketOf } from '../apps/server/src/db/migrations/015-statement-buckets.js';
import { COUNTER_CENTS } from '../apps/server/src/db/migrations/020-statement-account-sums.js';
import { ENTRY_SCOPES } from '../apps/server/src/db/migrations/027-entry-vehicles.js';
import type { EntryScope } from '../apps/server/src/db/migrations/027-entry-vehicles.js';

/**
 * What the benches write straight to the database when they need a long history: rows made by the
 * database itself from a run of numbers (one INSERT … SELECT, never row by row from Node), then
 * what the ledger keeps beside its entries, made again from them.
 */

/**
 * `select` over the numbers 1 to `count`, each named `i` (`joins` follow the FROM): a recursive CTE
 * on SQLite, generate_series on PostgreSQL. The tail of an INSERT … SELECT.
 */
export function overNumbers(
  dialect: Dialect,
  count: number,
  select: RawBuilder<unknown>,
  joins: RawBuilder<unknown> = sql``,
): RawBuilder<unknown> {
  return dialect === 'sqlite'
    ? sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count}) ${select} from n ${joins}`
    : sql`${select} from generate_series(1, ${count}) as n(i) ${joins}`;
}

/** The instant `ms` (milliseconds since the epoch, an SQL expression) in created_at's form: ISO text on SQLite, a timestamptz on PostgreSQL. */
export function instantAt(dialect: Dialect, ms: RawBuilder<unknown>): RawBuilder<string> {
  return dialect === 'sqlite'
    ? sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`
    : sql<string>`to_timestamp((${ms}) / 1000.0)`;
}

/** An integer parameter as a 64-bit SQL value (PostgreSQL would type a bare parameter beside an integer column as int4). */
export const bigint = (value: number): RawBuilder<number> => sql<number>`cast(${value} as bigint)`;

/** The entries' column each scope of ledger_scope_counts counts by (migration 027). */
const SCOPE_COLUMNS: Record<EntryScope, 'vehicle_id' | 'cost_centre_id'> = { vehicle: 'vehicle_id', centre: 'cost_centre_id' };

/**
 * The driver's counters made again from their entries: ledger_entry_counts (migrations 015 and
 * 020: entries and what each account kind moved, per UTC month, day and hour) and
 * ledger_scope_counts (migration 027: the same per vehicle and per cost centre), one grouped
 * INSERT … SELECT each, the migrations' sums over bucketOf.
 */
export async function recountEntries(db: Kysely<Database>, dialect: Dialect, driverId: number): Promise<void> {
  const cents = sql.join(Object.values(COUNTER_CENTS).map((c) => sql.ref(c)));
  const sums = sql.join(
    Object.entries(COUNTER_CENTS).map(
      ([kind, column]) => sql`coalesce(sum(case when a.kind = ${sql.lit(kind)} then e.amount_cents end), 0) as ${sql.ref(column)}`,
    ),
  );
  await sql`delete from ledger_entry_counts where driver_id = ${driverId}`.execute(db);
  await sql`delete from ledger_scope_counts where driver_id = ${driverId}`.execute(db);
  for (const unit of ['month', 'day', 'hour'] as const) {
    await sql`insert into ledger_entry_counts (driver_id, unit, bucket, entries, ${cents})
      select e.driver_id, ${sql.lit(unit)}, ${bucketOf(unit, dialect)}, count(*), ${sums}
      from ledger_entries e join accounts a on a.id = e.account_id
      where e.driver_id = ${driverId}
      group by e.driver_id, 3`.execute(db);
    for (const scope of ENTRY_SCOPES) {
      const column = sql.ref(`e.${SCOPE_COLUMNS[scope]}`);
      await sql`insert into ledger_scope_counts (driver_id, scope, scope_id, unit, bucket, entries, ${cents})
        select e.driver_id, ${sql.lit(scope)}, ${column}, ${sql.lit(unit)}, ${bucketOf(unit, dialect)}, count(*), ${sums}
        from ledger_entries e join accounts a on a.id = e.account_id
        where e.driver_id = ${driverId} and ${column} is not null
        group by e.driver_id, ${column}, 5`.execute(db);
    }
  }
}

/** The driver's accounts' balances set to the sum of their entries: the ledger's invariant (cli/db.ts checks it). */
export async function rebalance(db: Kysely<Database>, driverId: number): Promise<void> {
  await sql`update accounts set balance_cents = coalesce((select sum(e.amount_cents) from ledger_entries e where e.account_id = accounts.id), 0)
    where driver_id = ${driverId}`.execute(db);
}

/**
 * What the ledger promises of the driver, checked after a fill: every account's balance is the sum
 * of its entries, and the counters count every entry (the driver's) and every entry with a vehicle
 * or a cost centre (the scopes'), per unit. Throws on the first difference.
 */
export async function checkLedger(db: Kysely<Database>, driverId: number): Promise<void> {
  const { rows: wrong } = await sql<{ n: number | string }>`select count(*) as n from accounts a where a.driver_id = ${driverId}
    and a.balance_cents <> coalesce((select sum(e.amount_cents) from ledger_entries e where e.account_id = a.id), 0)`.execute(db);
  if (Number(wrong[0]?.n ?? 0) > 0) throw new Error(`${String(wrong[0]?.n)} conta(s) com saldo diferente da soma dos lançamentos`);
  const { rows } = await sql<{ entries: number | string; vehicle: number | string; centre: number | string }>`select
    (select count(*) from ledger_entries where driver_id = ${driverId}) as entries,
    (select count(*) from ledger_entries where driver_id = ${driverId} and vehicle_id is not null) as vehicle,
    (select count(*) from ledger_entries where driver_id = ${driverId} and cost_centre_id is not null) as centre`.execute(db);
  const want = rows[0];
  for (const unit of ['month', 'day', 'hour'] as const) {
    const { rows: counted } = await sql<{ scope: string; entries: number | string }>`
      select 'driver' as scope, coalesce(sum(entries), 0) as entries from ledger_entry_counts where driver_id = ${driverId} and unit = ${unit}
      union all
      select scope, coalesce(sum(entries), 0) from ledger_scope_counts where driver_id = ${driverId} and unit = ${unit} group by scope`.execute(
      db,
    );
    for (const [scope, expected] of [
      ['driver', want?.entries],
      ['vehicle', want?.vehicle],
      ['centre', want?.centre],
    ] as const) {
      const got = Number(counted.find((c) => c.scope === scope)?.entries ?? 0);
      if (got !== Number(expected ?? 0))
        throw new Error(`contadores (${scope}, ${unit}): ${got} lançamentos, ${String(expected)} na tabela`);
    }
  }
}
