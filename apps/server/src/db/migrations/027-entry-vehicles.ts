import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { COUNTER_CENTS } from './020-statement-account-sums.js';
import { bucketOf } from './015-statement-buckets.js';
import type { ColumnTypes } from './types.js';

/** The scopes an entry is counted in besides its driver's: its vehicle and its cost centre. */
export const ENTRY_SCOPES = ['vehicle', 'centre'] as const;
export type EntryScope = (typeof ENTRY_SCOPES)[number];

/**
 * Decision 79: each entry names the vehicle it was for (a passage, a tag's fee, a free-flow toll, a
 * contest's refund, a trip's VPO money) and the cost centre that vehicle was in when it was posted;
 * a company's statement is filtered by plate, cost centre and driver, and a cost centre's month is
 * what was posted to it. Counters per vehicle and per centre (as ledger_entry_counts per driver:
 * month, day and hour) find a page's place in a filtered statement in a few rows. The entries
 * already there are given their vehicle from what they paid, then their vehicle's centre of today.
 */
export function entryVehicles(t: ColumnTypes, dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('ledger_entries')
        .addColumn('vehicle_id', 'integer', (c) => c.references('vehicles.id'))
        .execute();
      // No reference: a cost centre removed keeps its entries named (its report is of the past).
      await db.schema.alterTable('ledger_entries').addColumn('cost_centre_id', 'integer').execute();
      await sql`create index ledger_entries_vehicle_idx on ledger_entries (driver_id, vehicle_id, created_at, id) where vehicle_id is not null`.execute(
        db,
      );
      await sql`create index ledger_entries_centre_idx on ledger_entries (driver_id, cost_centre_id, created_at, id) where cost_centre_id is not null`.execute(
        db,
      );

      await db.schema
        .createTable('ledger_scope_counts')
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('vehicle', 'centre')`))
        .addColumn('scope_id', 'integer', (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull().check(sql`unit in ('month', 'day', 'hour')`))
        .addColumn('bucket', t.timestamp, (c) => c.notNull())
        .addColumn('entries', 'bigint', (c) => c.notNull().check(sql`entries >= 0`))
        .addColumn(COUNTER_CENTS.own, 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn(COUNTER_CENTS.third, 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn(COUNTER_CENTS.vpo, 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('ledger_scope_counts_pk', ['driver_id', 'scope', 'scope_id', 'unit', 'bucket'])
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      await nameEntryVehicles(db, dialect);
    },
  };
}

/**
 * The entries already there get their vehicle from what they paid (a passage's or a free-flow
 * toll's payments, a tag's fee by its reference, a contest's or a toll's refunds, a VPO's money by
 * its plate), then their vehicle's cost centre of now; their counters per vehicle and centre are
 * counted from them (the ledger keeps them from then on, ledger.ts countEntries).
 */
export async function nameEntryVehicles<DB>(db: Kysely<DB>, dialect: Dialect): Promise<void> {
  const named = (entries: ReturnType<typeof sql>) =>
    sql`update ledger_entries set vehicle_id = (select n.vehicle_id from (${entries}) n where n.entry_id = ledger_entries.id)
          where vehicle_id is null and id in (select n.entry_id from (${entries}) n)`.execute(db);
  // A passage's payments, a free-flow toll's payments.
  await named(
    sql`select pp.entry_id, t.vehicle_id from passage_payments pp join passages p on p.id = pp.passage_id join tags t on t.id = p.tag_id`,
  );
  await named(sql`select fp.entry_id, f.vehicle_id from free_flow_payments fp join free_flow_tolls f on f.id = fp.toll_id`);
  // A tag's fee and its waiver: reference '<tag id>:<AAAA-MM>'.
  const tagOfReference =
    dialect === 'postgres' ? sql`split_part(e.reference, ':', 1)` : sql`substr(e.reference, 1, instr(e.reference, ':') - 1)`;
  await named(sql`select e.id as entry_id, t.vehicle_id from ledger_entries e join tags t on cast(t.id as text) = ${tagOfReference}
        where e.origin in ('mensalidade-tag', 'devolucao-mensalidade-tag')`);
  // A contest's refunds (reference 'contest:<id>'), of a passage or of a free-flow toll.
  await named(sql`select e.id as entry_id, coalesce(t.vehicle_id, f.vehicle_id) as vehicle_id from ledger_entries e
        join contests c on 'contest:' || cast(c.id as text) = e.reference
        left join passages p on p.id = c.passage_id left join tags t on t.id = p.tag_id
        left join free_flow_tolls f on f.id = c.toll_id
        where e.reference like 'contest:%'`);
  // A free-flow toll given back (reference 'toll:<id>').
  await named(sql`select e.id as entry_id, f.vehicle_id from ledger_entries e join free_flow_tolls f on 'toll:' || cast(f.id as text) = e.reference
        where e.reference like 'toll:%'`);
  // A VPO's money: the trip's vehicle, the driver's newest of its plate (vpos/money.ts vehicleOfVpo).
  await named(sql`select e.id as entry_id, max(v.id) as vehicle_id from ledger_entries e join vpos o on o.id = e.vpo_id
        join vehicles v on v.driver_id = o.driver_id and v.license_plate = o.plate
        where e.origin in ('vpo-recebido', 'devolucao-vpo', 'estorno-passagem-vpo') group by e.id`);
  await sql`update ledger_entries set cost_centre_id = (select v.cost_centre_id from vehicles v where v.id = ledger_entries.vehicle_id)
        where vehicle_id is not null and cost_centre_id is null`.execute(db);

  for (const [scope, column] of [
    ['vehicle', 'vehicle_id'],
    ['centre', 'cost_centre_id'],
  ] as const) {
    for (const unit of ['month', 'day', 'hour'] as const) {
      const sums = Object.entries(COUNTER_CENTS).map(([kind, cents]) =>
        sql`coalesce(sum(case when a.kind = ${sql.lit(kind)} then e.amount_cents end), 0)`.as(cents),
      );
      await sql`insert into ledger_scope_counts (driver_id, scope, scope_id, unit, bucket, entries, own_cents, third_cents, vpo_cents)
            select e.driver_id, ${sql.lit(scope)}, e.${sql.ref(column)}, ${sql.lit(unit)}, ${bucketOf(unit, dialect)}, count(*), ${sql.join(sums)}
            from ledger_entries e join accounts a on a.id = e.account_id
            where e.${sql.ref(column)} is not null
            group by e.driver_id, e.${sql.ref(column)}, 5`.execute(db);
    }
  }
}
