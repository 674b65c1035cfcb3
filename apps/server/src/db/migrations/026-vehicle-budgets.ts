import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Decision 78: a company's monthly toll budget per vehicle, what each vehicle's month spent (kept
 * as passages are paid, in their transaction), the notices sent at 80 % and 100 % (once each a
 * month), and the tags blocked at 100 % through their operator (only a Gestor releases them).
 */
export function vehicleBudgets(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('vehicle_budgets')
        .addColumn('vehicle_id', 'integer', (c) => c.primaryKey().references('vehicles.id'))
        .addColumn('company_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('monthly_cents', 'bigint', (c) => c.notNull().check(sql`monthly_cents > 0`))
        .addColumn('block_at_limit', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('vehicle_budgets_company_idx').on('vehicle_budgets').columns(['company_id', 'vehicle_id']).execute();

      // What the company's balances paid for the vehicle's passages in a São Paulo month ('AAAA-MM').
      await db.schema
        .createTable('vehicle_month_spend')
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('spent_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('vehicle_month_spend_pk', ['vehicle_id', 'period'])
        .execute();

      await db.schema
        .createTable('vehicle_budget_alerts')
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('percent', 'integer', (c) => c.notNull())
        .addColumn('spent_cents', 'bigint', (c) => c.notNull())
        .addColumn('budget_cents', 'bigint', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('vehicle_budget_alerts_pk', ['vehicle_id', 'period', 'percent'])
        .execute();

      await db.schema
        .createTable('budget_blocks')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id'))
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pendente', 'bloqueada', 'liberada', 'ignorada')`))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('blocked_at', t.timestamp)
        .addColumn('released_at', t.timestamp)
        .addColumn('released_by', 'integer', (c) => c.references('drivers.id'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addUniqueConstraint('budget_blocks_tag_period_unique', ['tag_id', 'period'])
        .execute();
      await sql`create index budget_blocks_pending_idx on budget_blocks (id) where state = 'pendente'`.execute(db);
      await sql`create index budget_blocks_live_idx on budget_blocks (tag_id) where state = 'bloqueada'`.execute(db);
    },
  };
}
