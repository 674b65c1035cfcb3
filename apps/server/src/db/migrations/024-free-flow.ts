import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../connection.js';
import type { ColumnTypes } from './types.js';

/**
 * Decision 76, free flow: a concessionaire (a new partner kind) sends the tolls a plate owes on a
 * highway with no barrier. Only the plates a driver opted in (vehicles.free_flow_consent_at) keep
 * them; each is paid once through the ledger (free_flow_payments, as passage_payments), may be
 * withdrawn by the concessionaire (given back when paid) and contested like a passage (contests.toll_id).
 */
export function freeFlow(t: ColumnTypes, dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await widenChecks(db, dialect);

      await db.schema.alterTable('vehicles').addColumn('free_flow_consent_at', t.timestamp).execute();
      await db.schema
        .alterTable('vehicles')
        .addColumn('free_flow_auto_pay', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // One vehicle in the whole portal receives a plate's tolls: the one that opted in.
      await sql`create unique index vehicles_free_flow_plate on vehicles (license_plate) where deleted_at is null and free_flow_consent_at is not null`.execute(
        db,
      );

      await db.schema
        .createTable('free_flow_tolls')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('partner_id', 'integer', (c) => c.notNull().references('partners.id'))
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
        .addColumn('plate', 'text', (c) => c.notNull())
        .addColumn('gantry', 'text', (c) => c.notNull())
        .addColumn('highway', 'text', (c) => c.notNull())
        // km in thousandths (km 231,4 is 231400): exact on both dialects.
        .addColumn('km_milli', 'integer', (c) => c.notNull())
        .addColumn('direction', 'text', (c) => c.notNull())
        .addColumn('axles', 'integer', (c) => c.notNull())
        .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
        .addColumn('occurred_at', t.timestamp, (c) => c.notNull())
        // 'AAAA-MM-DD', São Paulo's calendar: the last day to pay.
        .addColumn('due_day', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('paid_at', t.timestamp)
        .addColumn('paid_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        // The payment's authentication, printed on its receipt.
        .addColumn('authentication', 'text', (c) => c.unique())
        .addColumn('cancelled_at', t.timestamp)
        // TAG_ATIVA or TAG_PAGOU: the tag was active with money, or paid this gantry within minutes.
        .addColumn('flag', 'text', (c) => c.check(sql`flag is null or flag in ('TAG_ATIVA', 'TAG_PAGOU')`))
        .addColumn('flag_passage_id', 'integer', (c) => c.references('passages.id'))
        // Automatic payment found Saldo short: paid as soon as money arrives.
        .addColumn('awaiting_balance', 'integer', (c) => c.notNull().defaultTo(0))
        // The deadline notices sent: 'five', 'one', 'overdue' (comma-separated, each once).
        .addColumn('notices', 'text', (c) => c.notNull().defaultTo(''))
        .addUniqueConstraint('free_flow_tolls_partner_external_unique', ['partner_id', 'external_id'])
        .addCheckConstraint('free_flow_tolls_paid_range', sql`paid_cents >= 0 and paid_cents <= amount_cents`)
        .execute();
      await db.schema.createIndex('free_flow_tolls_driver_idx').on('free_flow_tolls').columns(['driver_id', 'occurred_at', 'id']).execute();
      await db.schema
        .createIndex('free_flow_tolls_driver_plate_idx')
        .on('free_flow_tolls')
        .columns(['driver_id', 'plate', 'occurred_at', 'id'])
        .execute();
      // The daily deadline notices read only the open tolls.
      await sql`create index free_flow_tolls_open_idx on free_flow_tolls (due_day, id) where paid_at is null and cancelled_at is null`.execute(
        db,
      );
      // A driver's open tolls by deadline: the list's 'Em aberto' and 'Vencido', the overdue count, the nearest deadline.
      await sql`create index free_flow_tolls_driver_open_idx on free_flow_tolls (driver_id, due_day, id) where paid_at is null and cancelled_at is null`.execute(
        db,
      );
      // The same by plate: a plate's few open tolls, not the driver's many.
      await sql`create index free_flow_tolls_plate_open_idx on free_flow_tolls (driver_id, plate, due_day, id) where paid_at is null and cancelled_at is null`.execute(
        db,
      );
      await sql`create index free_flow_tolls_driver_paid_idx on free_flow_tolls (driver_id, occurred_at, id) where paid_at is not null and cancelled_at is null`.execute(
        db,
      );
      await sql`create index free_flow_tolls_driver_cancelled_idx on free_flow_tolls (driver_id, occurred_at, id) where cancelled_at is not null`.execute(
        db,
      );
      // What each driver has: the list's page count and the summary without reading the tolls.
      await db.schema
        .createTable('free_flow_driver_totals')
        .addColumn('driver_id', 'integer', (c) => c.primaryKey().references('drivers.id'))
        .addColumn('tolls', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('open_tolls', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('open_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('open_flagged', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create index free_flow_tolls_awaiting_idx on free_flow_tolls (driver_id, id) where awaiting_balance = 1`.execute(db);
      await db.schema.createIndex('free_flow_tolls_paid_idx').on('free_flow_tolls').columns(['partner_id', 'paid_at', 'id']).execute();

      await db.schema
        .createTable('free_flow_payments')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('toll_id', 'integer', (c) => c.notNull().references('free_flow_tolls.id'))
        .addColumn('entry_id', 'integer', (c) => c.notNull().unique().references('ledger_entries.id'))
        .addColumn('account', 'text', (c) => c.notNull().check(sql`account in ('own', 'vpo')`))
        .addColumn('vpo_id', 'integer', (c) => c.references('vpos.id'))
        .addColumn('paid_cents', 'bigint', (c) => c.notNull().check(sql`paid_cents > 0`))
        .addColumn('refunded_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addCheckConstraint('free_flow_payments_refund_range', sql`refunded_cents >= 0 and refunded_cents <= paid_cents`)
        .execute();
      await db.schema.createIndex('free_flow_payments_toll_idx').on('free_flow_payments').columns(['toll_id', 'id']).execute();

      // The portal's own signing key (one row per use, made on first need): proofs' verification codes.
      await db.schema
        .createTable('signing_keys')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .alterTable('contests')
        .addColumn('toll_id', 'integer', (c) => c.references('free_flow_tolls.id'))
        .execute();
      await sql`create unique index contests_one_open_toll_idx on contests (toll_id) where state = 'ABERTA'`.execute(db);
      await db.schema.createIndex('contests_toll_idx').on('contests').columns(['toll_id', 'id']).execute();
    },
  };
}

/** Each check's values before this migration, and the ones it adds. */
const CHECKS = [
  { table: 'partners', column: 'kind', before: ['shipper', 'operator', 'platform'], added: ['concessionaire'] },
  { table: 'partner_pushes', column: 'kind', before: ['vpo', 'passage', 'movement'], added: ['toll'] },
  {
    table: 'contests',
    column: 'reason',
    before: ['DUPLICADA', 'CATEGORIA', 'NAO_PASSOU', 'VPO_E_SALDO', 'OUTRO'],
    added: ['TAG_PAGOU', 'NAO_PASSOU_PORTICO', 'PLACA_ERRADA'],
  },
] as const;

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * The checks that name partner kinds, push kinds and contest reasons take the new ones, and a
 * contest names a passage or a toll. PostgreSQL alters them; SQLite cannot, so each table is
 * rebuilt from its own CREATE text as SQLite's documentation prescribes (foreign keys off outside
 * any transaction, copy, drop, rename, its indexes again, check, on again), as migration 014 did.
 */
async function widenChecks(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    for (const { table, column, before, added } of CHECKS) {
      const name = `${table}_${column}_check`;
      await sql.raw(`alter table ${table} drop constraint ${name}`).execute(db);
      await sql.raw(`alter table ${table} add constraint ${name} check (${column} in (${quoted([...before, ...added])}))`).execute(db);
    }
    await sql`alter table contests alter column passage_id drop not null`.execute(db);
    return;
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    for (const { table, before, added } of CHECKS) {
      await rebuildSqliteTable(db, table, (create) => {
        let rebuilt = replaceOnce(create, `${quoted(before)})`, `${quoted([...before, ...added])})`, table);
        if (table === 'contests') rebuilt = replaceOnce(rebuilt, '"passage_id" integer not null', '"passage_id" integer', table);
        return rebuilt;
      });
    }
    const broken = await sql`pragma foreign_key_check`.execute(db);
    if (broken.rows.length > 0) throw new Error(`migration 024: chaves estrangeiras quebradas: ${JSON.stringify(broken.rows)}`);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

function replaceOnce(text: string, from: string, to: string, table: string): string {
  if (!text.includes(from)) throw new Error(`migration 024: ${table} sem o trecho esperado ${from}`);
  return text.replace(from, to);
}

/** SQLite: the table again from its CREATE text changed by `change`, its rows and its indexes kept. */
async function rebuildSqliteTable(db: Kysely<unknown>, table: string, change: (create: string) => string): Promise<void> {
  const objects = await sql<{ type: string; sql: string | null }>`select type, sql from sqlite_master where tbl_name = ${table}`.execute(
    db,
  );
  const create = objects.rows.find((o) => o.type === 'table')?.sql;
  if (!create) throw new Error(`migration 024: tabela ${table} não encontrada`);
  const indexes = objects.rows.filter((o) => o.type === 'index' && o.sql !== null).map((o) => o.sql ?? '');
  const rebuilt = `${table}_rebuilt`;
  const changed = change(create).replace(/^create table\s+"?\w+"?/i, `create table "${rebuilt}"`);
  await sql.raw(changed).execute(db);
  await sql.raw(`insert into "${rebuilt}" select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${rebuilt}" rename to "${table}"`).execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
}
