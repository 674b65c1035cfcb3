import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../connection.js';
import type { ColumnTypes } from './types.js';

/**
 * Issue 27 (decision 54): a late entry no longer renumbers the driver's newer entries. The
 * statement runs by (created_at, id) over an index of its own; each driver's entries are counted
 * per UTC month, day and hour (ledger_entry_counts, keyed by the bucket's first instant, in the
 * same type and text form as created_at), so that a place in the statement is found by summing a
 * few counters. The counters are filled from the entries already there. driver_seq, its indexes
 * and the per-driver entry counter (driver_ledger_counters) had no other job and go.
 */
export function statementBuckets(t: ColumnTypes, dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ledger_entry_counts')
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('restrict'))
        .addColumn('unit', 'text', (c) => c.notNull().check(sql`unit in ('month', 'day', 'hour')`))
        .addColumn('bucket', t.timestamp, (c) => c.notNull())
        .addColumn('entries', 'bigint', (c) => c.notNull().check(sql`entries >= 0`))
        .addPrimaryKeyConstraint('ledger_entry_counts_pk', ['driver_id', 'unit', 'bucket'])
        // On SQLite the rows live in their key's order: a range of counters is one contiguous read.
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      for (const unit of ['month', 'day', 'hour'] as const) {
        await sql`
          insert into ledger_entry_counts (driver_id, unit, bucket, entries)
          select driver_id, ${sql.lit(unit)}, ${bucketOf(unit, dialect)}, count(*) from ledger_entries group by driver_id, 3`.execute(db);
      }

      await db.schema.dropIndex('ledger_entries_statement_idx').execute();
      await db.schema.dropIndex('ledger_entries_kind_idx').execute();
      await db.schema.createIndex('ledger_entries_statement_idx').on('ledger_entries').columns(['driver_id', 'created_at', 'id']).execute();
      await db.schema
        .createIndex('ledger_entries_kind_idx')
        .on('ledger_entries')
        .columns(['driver_id', 'origin', 'is_third', 'created_at', 'id'])
        .execute();
      await db.schema.alterTable('ledger_entries').dropColumn('driver_seq').execute();
      await db.schema.dropTable('driver_ledger_counters').execute();
    },
  };
}

/**
 * The first instant of an entry's bucket, as the ledger writes it (ledger.ts bucketsOf): on SQLite
 * the toISOString text of created_at's UTC month, day or hour; on PostgreSQL that instant.
 */
export function bucketOf(unit: 'month' | 'day' | 'hour', dialect: Dialect) {
  if (dialect === 'postgres') return sql`date_trunc(${sql.lit(unit)}, created_at, 'UTC')`;
  const format = { month: '%Y-%m-01T00:00:00.000Z', day: '%Y-%m-%dT00:00:00.000Z', hour: '%Y-%m-%dT%H:00:00.000Z' }[unit];
  return sql`strftime(${sql.lit(format)}, created_at)`;
}
