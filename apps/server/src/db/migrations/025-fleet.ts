import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../connection.js';
import type { ColumnTypes } from './types.js';

/**
 * Decision 77, fleets: the people (CPF) a company (CNPJ) invites, each with a role; the vehicles
 * assigned to its Motoristas; and the append-only record of every action on the company's account.
 */
export function fleet(t: ColumnTypes, dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('company_members')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('drivers.id'))
        // The CPF invited: the invitation waits for whoever registers with it.
        .addColumn('cpf', 'text', (c) => c.notNull())
        // Set when the invitation is accepted.
        .addColumn('person_id', 'integer', (c) => c.references('drivers.id'))
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('gestor', 'financeiro', 'motorista')`))
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('convidado', 'ativo', 'recusado', 'removido')`))
        .addColumn('invited_by', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('invited_at', t.timestamp, (c) => c.notNull())
        .addColumn('accepted_at', t.timestamp)
        .addColumn('ended_at', t.timestamp)
        .addCheckConstraint('company_members_active_has_person', sql`state <> 'ativo' or person_id is not null`)
        .execute();
      // One live invitation or membership per CPF and company; the ended ones stay for the record.
      await sql`create unique index company_members_live_idx on company_members (company_id, cpf) where state in ('convidado', 'ativo')`.execute(
        db,
      );
      // The acting check of every call on a company: (person, company) -> role.
      await sql`create index company_members_person_idx on company_members (person_id, company_id) where state = 'ativo'`.execute(db);
      await sql`create index company_members_invited_idx on company_members (cpf) where state = 'convidado'`.execute(db);
      await db.schema.createIndex('company_members_company_idx').on('company_members').columns(['company_id', 'id']).execute();

      // Cost centres (a name and a code), each vehicle of the company in one at most.
      await db.schema
        .createTable('cost_centres')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('cost_centres_company_code_unique', ['company_id', 'code'])
        .execute();
      await db.schema
        .alterTable('vehicles')
        .addColumn('cost_centre_id', 'integer', (c) => c.references('cost_centres.id'))
        .execute();
      await sql`create index vehicles_cost_centre_idx on vehicles (cost_centre_id) where cost_centre_id is not null`.execute(db);

      await db.schema
        .createTable('vehicle_drivers')
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('company_members.id'))
        .addPrimaryKeyConstraint('vehicle_drivers_pk', ['vehicle_id', 'member_id'])
        .execute();
      await db.schema.createIndex('vehicle_drivers_member_idx').on('vehicle_drivers').columns(['member_id', 'vehicle_id']).execute();

      await db.schema
        .createTable('audit_events')
        .addColumn('id', t.bigId, t.idConstraints)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('drivers.id'))
        // The person who acted (the company's own login when it acted itself), and how they were then:
        // their name and masked document stay readable after they leave or close their account.
        .addColumn('actor_id', 'integer', (c) => c.notNull())
        .addColumn('actor_member_id', 'integer')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('actor_document', 'text', (c) => c.notNull())
        .addColumn('actor_role', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('ok', 'negado')`))
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('before_json', 'text')
        .addColumn('after_json', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_events_company_idx').on('audit_events').columns(['company_id', 'id']).execute();
      await db.schema.createIndex('audit_events_actor_idx').on('audit_events').columns(['company_id', 'actor_member_id', 'id']).execute();

      // Dual control: a company's withdrawals above its threshold wait for a second Gestor.
      await db.schema
        .createTable('approval_thresholds')
        .addColumn('company_id', 'integer', (c) => c.primaryKey().references('drivers.id'))
        // null: off. A raise (or turning it off) waits 24 hours, as a withdrawal limit's raise.
        .addColumn('value_cents', 'bigint')
        .addColumn('pending_cents', 'bigint')
        .addColumn('pending_off', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('pending_at', t.timestamp)
        .execute();
      await db.schema
        .createTable('withdrawal_approvals')
        .addColumn('id', t.id, t.idConstraints)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('requested_by', 'integer', (c) => c.notNull().references('drivers.id'))
        .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
        .addColumn('pix_key_type', 'text', (c) => c.notNull())
        .addColumn('pix_key', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('PENDENTE', 'APROVADO', 'RECUSADO')`))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('decided_by', 'integer', (c) => c.references('drivers.id'))
        .addColumn('decided_at', t.timestamp)
        .addColumn('withdrawal_id', 'text', (c) => c.references('withdrawals.id'))
        .addCheckConstraint('withdrawal_approvals_other_person', sql`decided_by is null or decided_by <> requested_by`)
        .execute();
      await db.schema.createIndex('withdrawal_approvals_company_idx').on('withdrawal_approvals').columns(['company_id', 'id']).execute();

      // Append-only: the database itself refuses to change or erase a record.
      if (dialect === 'postgres') {
        await sql`create function audit_events_append_only() returns trigger language plpgsql as $$
          begin raise exception 'audit_events é somente inclusão'; end $$`.execute(db);
        await sql`create trigger audit_events_no_update before update or delete on audit_events
          for each row execute function audit_events_append_only()`.execute(db);
      } else {
        await sql`create trigger audit_events_no_update before update on audit_events
          begin select raise(abort, 'audit_events é somente inclusão'); end`.execute(db);
        await sql`create trigger audit_events_no_delete before delete on audit_events
          begin select raise(abort, 'audit_events é somente inclusão'); end`.execute(db);
      }
    },
  };
}
