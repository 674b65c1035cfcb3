import { messages, refuse } from '@portal/domain';
import type { StatementFilters } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { WhoseEntries } from './queries.js';

/**
 * Decision 79: the statement's plate, cost centre or driver, as the vehicles or the centre whose
 * entries it keeps, each looked up on the account itself (another company's centre or member is
 * 'not found' on its field, never a statement of theirs). A plate is every vehicle of the account
 * with it (one removed and registered again); a driver is the trucks assigned to them now.
 */
export async function whoseEntries(db: Kysely<Database>, accountId: number, filters: StatementFilters): Promise<WhoseEntries | null> {
  if (filters.placa !== undefined) {
    const plate = filters.placa;
    const vehicles = await db
      .selectFrom('vehicles')
      .select('id')
      .where('driver_id', '=', accountId)
      .where('license_plate', '=', plate)
      .execute();
    if (vehicles.length === 0) throw refuse.invalid(messages.statement.plateNotFound, 'placa');
    return { scope: 'vehicle', ids: vehicles.map((v) => v.id), label: `Placa ${plate}` };
  }
  if (filters.centro !== undefined) {
    const centre = await db
      .selectFrom('cost_centres')
      .select(['id', 'code', 'name'])
      .where('id', '=', filters.centro)
      .where('company_id', '=', accountId)
      .executeTakeFirst();
    if (!centre) throw refuse.invalid(messages.statement.centreNotFound, 'centro');
    return { scope: 'centre', ids: [centre.id], label: `Centro de custo ${centre.code} · ${centre.name}` };
  }
  if (filters.motorista !== undefined) {
    const member = await db
      .selectFrom('company_members as m')
      .leftJoin('drivers as p', 'p.id', 'm.person_id')
      .select(['m.id', 'p.name'])
      .where('m.id', '=', filters.motorista)
      .where('m.company_id', '=', accountId)
      .where('m.person_id', 'is not', null)
      .executeTakeFirst();
    if (!member) throw refuse.invalid(messages.statement.memberNotFound, 'motorista');
    const vehicles = await db
      .selectFrom('vehicle_drivers as d')
      .innerJoin('vehicles as v', 'v.id', 'd.vehicle_id')
      .select('v.id')
      .where('d.member_id', '=', member.id)
      .where('v.driver_id', '=', accountId)
      .orderBy('v.id')
      .execute();
    return { scope: 'vehicle', ids: vehicles.map((v) => v.id), label: `Motorista ${member.name ?? ''}`.trim() };
  }
  return null;
}
