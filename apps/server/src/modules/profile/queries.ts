import type { DriverProfile } from '@portal/contract';
import type { ProfileField } from '@portal/domain';
import { PROFILE_FIELDS, phoneDigits } from '@portal/domain';
import type { Kysely } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';

/** A recorded correction: which fields, when (migration 021). */
export interface ProfileChange {
  id: number;
  fields: ProfileField[];
  changedAt: string;
}

const fieldsOf = (stored: string): ProfileField[] => {
  const named = stored.split(',');
  return PROFILE_FIELDS.filter((f) => named.includes(f));
};

/** The driver's name, CPF/CNPJ and phone (its 11 national digits), and when they were last corrected. */
export async function readProfile(db: Kysely<Database>, driverId: number): Promise<DriverProfile> {
  const row = await db
    .selectFrom('drivers')
    .select((eb) => [
      'name',
      'cpf_cnpj',
      'phone_number',
      eb
        .selectFrom('profile_changes')
        .select((sub) => sub.fn.max('changed_at').as('last'))
        .whereRef('profile_changes.driver_id', '=', 'drivers.id')
        .as('last_change'),
    ])
    .where('id', '=', driverId)
    .executeTakeFirstOrThrow();
  return {
    nome: row.name,
    cpfCnpj: row.cpf_cnpj,
    telefone: phoneDigits(row.phone_number),
    alteradoEm: row.last_change === null || row.last_change === undefined ? null : toIso(row.last_change),
  };
}

/** The driver's corrections since `since`, newest first (the dashboard's notice; profile_changes_driver_idx). */
export async function profileChangesSince(db: Kysely<Database>, driverId: number, since: Date): Promise<ProfileChange[]> {
  const rows = await db
    .selectFrom('profile_changes')
    .select(['id', 'fields', 'changed_at'])
    .where('driver_id', '=', driverId)
    .where('changed_at', '>=', since.toISOString())
    .orderBy('changed_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), fields: fieldsOf(r.fields), changedAt: toIso(r.changed_at) }));
}
