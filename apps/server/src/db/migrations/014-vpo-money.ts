import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../connection.js';
import type { ColumnTypes } from './types.js';

/**
 * Issue 23 (decision 52): a VPO holds the shipper's money for its trip. Every driver gets a third
 * account, 'vpo', which holds the money of all their VPOs (never Saldo); each VPO keeps its own
 * share (left_cents, the guarded balance its passages draw on) and what it used, refunded and
 * could not pay. Ledger entries name the VPO they moved or that ran short. The trip's window and
 * fields. A month's passages per tag (paid by VPO or not) and a fee month waived because the tag
 * was used only through VPO (decision 53).
 */
export function vpoMoney(t: ColumnTypes, dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await allowVpoAccounts(db, t, dialect);
      await sql`insert into accounts (driver_id, kind, balance_cents) select id, 'vpo', 0 from drivers`.execute(db);

      const money = (name: string) => (c: ColumnDefinitionBuilder) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`${sql.ref(name)} >= 0`);
      for (const [name, type] of [
        ['trip_start', t.timestamp],
        ['trip_end', t.timestamp],
        ['closed_at', t.timestamp],
        ['antt_id', 'text'],
        ['rntrc', 'text'],
        ['axles', 'integer'],
      ] as const) {
        await db.schema.alterTable('vpos').addColumn(name, type).execute();
      }
      for (const name of ['held_cents', 'used_cents', 'left_cents', 'refunded_cents', 'short_cents']) {
        await db.schema.alterTable('vpos').addColumn(name, 'bigint', money(name)).execute();
      }
      // The open VPOs of a tag, oldest first: what a passage looks up.
      await db.schema.createIndex('vpos_serial_status_idx').on('vpos').columns(['serial_number', 'status', 'id']).execute();

      await db.schema
        .alterTable('ledger_entries')
        .addColumn('vpo_id', 'integer', (c) => c.references('vpos.id'))
        .execute();
      await db.schema.createIndex('ledger_entries_vpo_idx').on('ledger_entries').columns(['vpo_id', 'id']).execute();

      await db.schema.alterTable('tag_fee_charges').addColumn('waived_at', t.timestamp).execute();
      await db.schema
        .createTable('tag_month_usage')
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id'))
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('vpo_passages', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('other_passages', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('tag_month_usage_pk', ['tag_id', 'period'])
        .execute();
    },
  };
}

/**
 * accounts.kind was checked to be 'own' or 'third' (migration 001). PostgreSQL replaces the
 * check; SQLite cannot alter one, so the table is rebuilt as SQLite's documentation prescribes
 * (foreign keys off outside any transaction, copy, drop, rename, check, on again).
 */
async function allowVpoAccounts(db: Kysely<unknown>, t: ColumnTypes, dialect: Dialect): Promise<void> {
  const kinds = sql`kind in ('own', 'third', 'vpo')`;
  if (dialect === 'postgres') {
    await sql`alter table accounts drop constraint accounts_kind_check`.execute(db);
    await sql`alter table accounts add constraint accounts_kind_check check (${kinds})`.execute(db);
    return;
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.schema
      .createTable('accounts_rebuilt')
      .addColumn('id', t.id, t.idConstraints)
      .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id').onDelete('restrict'))
      .addColumn('kind', 'text', (c) => c.notNull().check(kinds))
      .addColumn('balance_cents', 'bigint', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('accounts_driver_kind_unique', ['driver_id', 'kind'])
      .execute();
    await sql`insert into accounts_rebuilt (id, driver_id, kind, balance_cents) select id, driver_id, kind, balance_cents from accounts`.execute(
      db,
    );
    await sql`drop table accounts`.execute(db);
    await sql`alter table accounts_rebuilt rename to accounts`.execute(db);
    const broken = await sql`pragma foreign_key_check`.execute(db);
    if (broken.rows.length > 0) throw new Error(`migration 014: chaves estrangeiras quebradas: ${JSON.stringify(broken.rows)}`);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
