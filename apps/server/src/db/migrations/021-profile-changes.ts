import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from './types.js';

/**
 * Issue 35 (LGPD art. 18, III): a driver corrects their name and phone. Each correction is recorded
 * by which fields changed and when (not the values before: the record shows a change a thief made,
 * and keeps no personal data that is no longer true), for the dashboard's notice and the driver's
 * own export.
 */
export function profileChanges(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('profile_changes')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('drivers.id'))
        // The fields changed, in PROFILE_FIELDS order, separated by commas: 'nome', 'telefone', 'nome,telefone'.
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('changed_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('profile_changes_driver_idx').on('profile_changes').columns(['driver_id', 'changed_at']).execute();
    },
  };
}
