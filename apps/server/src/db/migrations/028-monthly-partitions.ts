import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { MONTHS_AHEAD, PARTITIONED_TABLES, createMonthPartitions, monthsBetween, startOfUtcMonth } from '../partitions.js';
import type { PartitionedTable } from '../partitions.js';
import type { ColumnTypes } from './types.js';

/**
 * Decision 80: the ledger's entries and the partners' passages grow by time; on PostgreSQL each is
 * partitioned by the UTC month of created_at (declarative partitioning), so that a month past its
 * legal retention is detached and archived whole, and every read bounded by time touches its months
 * only. A partitioned table's unique constraints must name the partition column, so the two
 * uniquenesses that must hold across months (an entry's idempotency key, a partner's passage id)
 * move to key tables of their own, on both engines (one code path): ledger_entry_keys and
 * passage_keys, claimed before the row is written, each with the row's created_at to find it in its
 * month. References into the partitioned tables (a passage's payments, a contest's passage) cannot
 * be foreign keys on PostgreSQL any more: the writers keep them in the same transaction. SQLite keeps
 * its single tables.
 */
export function monthlyPartitions(t: ColumnTypes, dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ledger_entry_keys')
        .addColumn('idempotency_key', 'text', (c) => c.primaryKey())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      await db.schema
        .createTable('passage_keys')
        .addColumn('partner_id', 'integer', (c) => c.notNull())
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('passage_keys_pk', ['partner_id', 'external_id'])
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      // An archived month's keys leave with it (partitions.ts archiveMonth).
      await sql`create index ledger_entry_keys_created_idx on ledger_entry_keys (created_at)`.execute(db);
      await sql`create index passage_keys_created_idx on passage_keys (created_at)`.execute(db);
      await fillKeyTables(db);
      // Decision 81: when a driver's money last moved; their reads of that last minute stay on the primary.
      await db.schema.alterTable('accounts').addColumn('moved_at', t.timestamp).execute();
      if (dialect === 'postgres') {
        for (const table of PARTITIONED_TABLES) await partitionByMonth(db, table);
        // What the retention job archived: the month's file and checksum (modules/retention/month-archive.ts).
        await db.schema
          .createTable('partition_archives')
          .addColumn('partition_name', 'text', (c) => c.primaryKey())
          .addColumn('table_name', 'text', (c) => c.notNull())
          .addColumn('month', t.timestamp, (c) => c.notNull())
          .addColumn('file', 'text', (c) => c.notNull())
          .addColumn('rows', 'bigint', (c) => c.notNull())
          .addColumn('sha256', 'text', (c) => c.notNull())
          .addColumn('archived_at', t.timestamp, (c) => c.notNull())
          .execute();
      }
    },
    /**
     * Back to single tables (an operator's way back, and the test that the migration is exact):
     * refused once a month was archived, which only db:months:restore brings back.
     */
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        const { rows } = await sql<{ n: number }>`select count(*) as n from partition_archives`.execute(db);
        if (Number(rows[0]?.n) > 0)
          throw new Error('Há meses arquivados (db:months): restaure-os com db:months:restore antes de desfazer a migração 028.');
        await db.schema.dropTable('partition_archives').execute();
        for (const table of PARTITIONED_TABLES) await singleTable(db, table);
      }
      await db.schema.alterTable('accounts').dropColumn('moved_at').execute();
      await db.schema.dropTable('passage_keys').execute();
      await db.schema.dropTable('ledger_entry_keys').execute();
    },
  };
}

/** The partitioned table made one table again, with the constraints and indexes it had before migration 028. */
async function singleTable<DB>(db: Kysely<DB>, spec: PartitionedTable): Promise<void> {
  const { table, sequence, referencedBy, foreignKeys, indexes, unique } = spec;
  const old = `${table}_partitioned`;
  await sql`alter table ${sql.ref(table)} rename to ${sql.ref(old)}`.execute(db);
  await sql`alter sequence ${sql.ref(sequence)} owned by none`.execute(db);
  const { rows: constraints } = await sql<{ name: string }>`
    select conname as name from pg_constraint where conrelid = ${old}::regclass and contype in ('p', 'f') order by contype = 'f' desc`.execute(
    db,
  );
  for (const { name } of constraints) await sql`alter table ${sql.ref(old)} drop constraint ${sql.ref(name)}`.execute(db);
  for (const index of [...indexes, { name: unique.monthIndex }]) await sql`drop index if exists ${sql.ref(index.name)}`.execute(db);
  await sql`create table ${sql.ref(table)} (like ${sql.ref(old)} including defaults including constraints)`.execute(db);
  await sql`insert into ${sql.ref(table)} select * from ${sql.ref(old)}`.execute(db);
  await sql`drop table ${sql.ref(old)}`.execute(db);
  await sql`alter sequence ${sql.ref(sequence)} owned by ${sql.ref(`${table}.id`)}`.execute(db);
  await sql`alter table ${sql.ref(table)} add constraint ${sql.ref(`${table}_pkey`)} primary key (id)`.execute(db);
  await sql.raw(`alter table ${table} add constraint ${unique.constraint} unique ${unique.columns}`).execute(db);
  for (const fk of foreignKeys) await sql.raw(`alter table ${table} add constraint ${fk.name} foreign key ${fk.definition}`).execute(db);
  for (const index of indexes) await sql.raw(`create index ${index.name} on ${table} ${index.definition}`).execute(db);
  for (const r of referencedBy)
    await sql.raw(`alter table ${r.table} add constraint ${r.constraint} foreign key (${r.column}) references ${table}(id)`).execute(db);
}

/** The key tables made from the entries and passages already there (the migration; the benches' fills). */
export async function fillKeyTables<DB>(db: Kysely<DB>): Promise<void> {
  await sql`insert into ledger_entry_keys (idempotency_key, created_at)
    select idempotency_key, created_at from ledger_entries
    where not exists (select 1 from ledger_entry_keys k where k.idempotency_key = ledger_entries.idempotency_key)`.execute(db);
  await sql`insert into passage_keys (partner_id, external_id, created_at)
    select partner_id, external_id, created_at from passages p
    where not exists (select 1 from passage_keys k where k.partner_id = p.partner_id and k.external_id = p.external_id)`.execute(db);
}

/**
 * Today's table becomes a partitioned one of the same name, columns, defaults and checks: the old
 * table is renamed, loses its indexes (their names are reused), the new one is made with its key
 * including created_at, its months from the oldest row's to MONTHS_AHEAD ahead and a default
 * partition for anything outside them, then the rows are copied and the old table dropped.
 */
async function partitionByMonth<DB>(db: Kysely<DB>, spec: PartitionedTable): Promise<void> {
  const { table, sequence, referencedBy, foreignKeys, indexes } = spec;
  const old = `${table}_unpartitioned`;
  for (const reference of referencedBy.filter((r) => r.table !== table))
    await sql`alter table ${sql.ref(reference.table)} drop constraint ${sql.ref(reference.constraint)}`.execute(db);
  await sql`alter table ${sql.ref(table)} rename to ${sql.ref(old)}`.execute(db);
  await sql`alter sequence ${sql.ref(sequence)} owned by none`.execute(db);
  const { rows: constraints } = await sql<{ name: string }>`
    select conname as name from pg_constraint
    where conrelid = ${old}::regclass and contype in ('p', 'u', 'f') order by contype = 'f' desc`.execute(db);
  for (const { name } of constraints) await sql`alter table ${sql.ref(old)} drop constraint ${sql.ref(name)}`.execute(db);
  const { rows: oldIndexes } = await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${old}`.execute(db);
  for (const { name } of oldIndexes) await sql`drop index ${sql.ref(name)}`.execute(db);

  await sql`create table ${sql.ref(table)} (like ${sql.ref(old)} including defaults including constraints) partition by range (created_at)`.execute(
    db,
  );
  await sql`alter sequence ${sql.ref(sequence)} owned by ${sql.ref(`${table}.id`)}`.execute(db);
  await sql`alter table ${sql.ref(table)} add constraint ${sql.ref(`${table}_pkey`)} primary key (id, created_at)`.execute(db);
  for (const fk of foreignKeys) await sql.raw(`alter table ${table} add constraint ${fk.name} foreign key ${fk.definition}`).execute(db);
  for (const index of indexes) await sql.raw(`create index ${index.name} on ${table} ${index.definition}`).execute(db);
  await sql.raw(`create index ${spec.unique.monthIndex} on ${table} ${spec.unique.columns}`).execute(db);
  await sql`create table ${sql.ref(`${table}_default`)} partition of ${sql.ref(table)} default`.execute(db);

  const { rows } = await sql<{ oldest: Date | null }>`select min(created_at) as oldest from ${sql.ref(old)}`.execute(db);
  const now = new Date();
  const first = startOfUtcMonth(rows[0]?.oldest ?? now);
  await createMonthPartitions(db, table, monthsBetween(first, addMonths(startOfUtcMonth(now), MONTHS_AHEAD)));
  await sql`insert into ${sql.ref(table)} select * from ${sql.ref(old)}`.execute(db);
  await sql`drop table ${sql.ref(old)}`.execute(db);
  await sql`analyze ${sql.ref(table)}`.execute(db);
}

function addMonths(month: Date, n: number): Date {
  return new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + n, 1));
}
