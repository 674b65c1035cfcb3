import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import { nowIso } from '../connection.js';
import type { ColumnTypes } from './types.js';

/**
 * Issue 8, partners scoped and serials that cannot be burnt (founding decision 24):
 * - partners.operator_cnpj: the one operator whose tags an operator key may charge (null for
 *   other kinds; an operator key still null is refused until `partner:scope` sets it);
 * - tags.released_at: a registration cancelled before it was ever activated gave its serial back
 *   to the operator; it stays in its driver's list but no longer holds the serial, so the unique
 *   index on live serials skips it;
 * - partner_pushes: per partner, kind and externalId, the hash of the request and the first
 *   answer, written in the transaction of the effect (same request -> that answer, another -> 409).
 */
export function partnerScope(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('partners').addColumn('operator_cnpj', 'text').execute();

      await db.schema.alterTable('tags').addColumn('released_at', t.timestamp).execute();
      await sql`drop index tags_serial_live`.execute(db);
      await sql`create unique index tags_serial_live on tags (serial_number) where deleted_at is null and released_at is null`.execute(db);
      // Serials burnt before this migration: a driver's cancellation (300) of a tag never activated
      // releases it, and the operator forgets it unless some registration of it was once active.
      await sql`update tags set released_at = ${nowIso()} where activated_at is null and status_code = 300`.execute(db);
      await sql`
        delete from operator_tags
        where status_code = 300
          and serial_number in (select serial_number from tags where released_at is not null)
          and serial_number not in (select serial_number from tags where activated_at is not null)
      `.execute(db);

      await db.schema
        .createTable('partner_pushes')
        .addColumn('partner_id', 'integer', (c) => c.notNull().references('partners.id').onDelete('restrict'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('vpo', 'passage', 'movement')`))
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('partner_pushes_pk', ['partner_id', 'kind', 'external_id'])
        .execute();
    },
  };
}
