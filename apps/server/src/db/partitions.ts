import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/** A table partitioned by the UTC month of created_at on PostgreSQL (migration 028, decision 80). */
export interface PartitionedTable {
  table: 'ledger_entries' | 'passages';
  /** The id's sequence, kept across the migration. */
  sequence: string;
  /** The key table that holds its uniqueness across months, rows with the same created_at. */
  keys: 'ledger_entry_keys' | 'passage_keys';
  /** Foreign keys into it that a partitioned table cannot keep (its key includes created_at). */
  referencedBy: readonly { table: string; constraint: string; column: string }[];
  foreignKeys: readonly { name: string; definition: string }[];
  indexes: readonly { name: string; definition: string }[];
  /** The single table's unique constraint that the key table replaces, and the index that stands for it in each month. */
  unique: { constraint: string; columns: string; monthIndex: string };
}

export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  {
    table: 'ledger_entries',
    sequence: 'ledger_entries_id_seq',
    keys: 'ledger_entry_keys',
    referencedBy: [
      { table: 'passage_payments', constraint: 'passage_payments_entry_id_fkey', column: 'entry_id' },
      { table: 'free_flow_payments', constraint: 'free_flow_payments_entry_id_fkey', column: 'entry_id' },
    ],
    unique: {
      constraint: 'ledger_entries_idempotency_key_key',
      columns: '(idempotency_key)',
      monthIndex: 'ledger_entries_idempotency_idx',
    },
    foreignKeys: [
      { name: 'ledger_entries_account_id_fkey', definition: '(account_id) references accounts(id) on delete restrict' },
      { name: 'ledger_entries_driver_id_fkey', definition: '(driver_id) references drivers(id) on delete restrict' },
      { name: 'ledger_entries_vehicle_id_fkey', definition: '(vehicle_id) references vehicles(id)' },
      { name: 'ledger_entries_vpo_id_fkey', definition: '(vpo_id) references vpos(id)' },
    ],
    indexes: [
      { name: 'ledger_entries_account_idx', definition: '(account_id)' },
      { name: 'ledger_entries_statement_idx', definition: '(driver_id, created_at, id)' },
      { name: 'ledger_entries_kind_idx', definition: '(driver_id, origin, is_third, created_at, id)' },
      { name: 'ledger_entries_vehicle_idx', definition: '(driver_id, vehicle_id, created_at, id) where vehicle_id is not null' },
      { name: 'ledger_entries_centre_idx', definition: '(driver_id, cost_centre_id, created_at, id) where cost_centre_id is not null' },
      { name: 'ledger_entries_vpo_idx', definition: '(vpo_id, id)' },
    ],
  },
  {
    table: 'passages',
    sequence: 'passages_id_seq',
    keys: 'passage_keys',
    referencedBy: [
      { table: 'passage_payments', constraint: 'passage_payments_passage_id_fkey', column: 'passage_id' },
      { table: 'contests', constraint: 'contests_passage_id_fkey', column: 'passage_id' },
      { table: 'free_flow_tolls', constraint: 'free_flow_tolls_flag_passage_id_fkey', column: 'flag_passage_id' },
      { table: 'passages', constraint: 'passages_duplicate_of_fkey', column: 'duplicate_of' },
    ],
    unique: {
      constraint: 'passages_partner_external_unique',
      columns: '(partner_id, external_id)',
      monthIndex: 'passages_partner_external_idx',
    },
    foreignKeys: [
      { name: 'passages_driver_id_fkey', definition: '(driver_id) references drivers(id)' },
      { name: 'passages_partner_id_fkey', definition: '(partner_id) references partners(id)' },
      { name: 'passages_tag_id_fkey', definition: '(tag_id) references tags(id)' },
    ],
    indexes: [
      { name: 'passages_driver_idx', definition: '(driver_id, id)' },
      { name: 'passages_driver_duplicate_idx', definition: '(driver_id, id) where duplicate_of is not null' },
      { name: 'passages_tag_place_idx', definition: '(tag_id, place_name, occurred_at)' },
    ],
  },
];

export function partitionedTable(name: string): PartitionedTable {
  const spec = PARTITIONED_TABLES.find((t) => t.table === name);
  if (!spec) throw new Error(`Tabela ${name} não é particionada por mês`);
  return spec;
}

export function startOfUtcMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function nextMonth(month: Date): Date {
  return new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
}

/** Every month from `first` through `last`, both month starts. */
export function monthsBetween(first: Date, last: Date): Date[] {
  const months: Date[] = [];
  for (let m = startOfUtcMonth(first); m <= last; m = nextMonth(m)) months.push(m);
  return months;
}

/** ledger_entries_p202611: the month's partition. */
export function partitionName(table: string, month: Date): string {
  return `${table}_p${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

const PARTITION_NAME = /_p(\d{4})(\d{2})$/;

export function monthOfPartition(name: string): Date | null {
  const match = PARTITION_NAME.exec(name);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) : null;
}

/** The month partitions attached to `table` now, oldest first. */
export async function attachedMonths<DB>(db: Kysely<DB>, table: string): Promise<{ name: string; month: Date }[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent
    where p.relname = ${table}`.execute(db);
  return rows
    .flatMap((r) => {
      const month = monthOfPartition(r.name);
      return month && r.name === partitionName(table, month) ? [{ name: r.name, month }] : [];
    })
    .sort((a, b) => a.month.getTime() - b.month.getTime());
}

/**
 * Each month's partition that does not exist yet. A month's rows already in the default partition
 * (a date no partition covered when it was written) move into it in the same transaction, so
 * creating it never fails and never loses a row. The new table is attached, which takes a lock
 * that lets the table's readers and writers on (ATTACH PARTITION).
 */
export async function createMonthPartitions<DB>(db: Kysely<DB>, table: string, months: readonly Date[]): Promise<string[]> {
  // A month detached by an archive run that has not finished is not made again.
  const { rows: tables } = await sql<{
    name: string;
  }>`select relname as name from pg_class where relkind = 'r' and relname like ${`${table}_p%`}`.execute(db);
  const existing = new Set([...(await attachedMonths(db, table)).map((p) => p.name), ...tables.map((t) => t.name)]);
  const created: string[] = [];
  for (const month of months) {
    const name = partitionName(table, month);
    if (existing.has(name)) continue;
    await inTransaction(db, async (trx) => {
      const from = month.toISOString();
      const to = nextMonth(month).toISOString();
      const defaults = sql.ref(`${table}_default`);
      await sql`create table ${sql.ref(name)} (like ${sql.ref(table)} including defaults including constraints)`.execute(trx);
      await sql`with moved as (delete from ${defaults} where created_at >= ${from} and created_at < ${to} returning *)
        insert into ${sql.ref(name)} select * from moved`.execute(trx);
      await sql`alter table ${sql.ref(table)} attach partition ${sql.ref(name)} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
        trx,
      );
    });
    created.push(name);
  }
  return created;
}

/** Months kept created ahead of now by the scheduled job (and the migration). */
export const MONTHS_AHEAD = 3;

/** Decision 80: this month's and the next MONTHS_AHEAD months' partitions of every partitioned table (PostgreSQL). */
export async function createMonthsAhead<DB>(db: Kysely<DB>, now: Date): Promise<string[]> {
  const first = startOfUtcMonth(now);
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + MONTHS_AHEAD, 1));
  const created: string[] = [];
  for (const { table } of PARTITIONED_TABLES) created.push(...(await createMonthPartitions(db, table, monthsBetween(first, last))));
  return created;
}

/** `run` inside the caller's transaction, or a new one. */
async function inTransaction<DB, T>(db: Kysely<DB>, run: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return run(db);
  return db.transaction().execute(run);
}
