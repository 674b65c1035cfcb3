import type { Trx } from '../../db/connection.js';

/** Who hears of a company's vehicle budgets: its Gestores (and its own login), and each vehicle's Motoristas. */
export interface CompanyPeople {
  gestores(companyId: number): number[];
  motoristas(vehicleId: number): number[];
}

/** The companies' own logins and active Gestores, and the vehicles' assigned active Motoristas: two reads. */
export async function companyPeople(trx: Trx, companyIds: readonly number[], vehicleIds: readonly number[]): Promise<CompanyPeople> {
  const gestores = new Map<number, number[]>(companyIds.map((id) => [id, [id]]));
  if (companyIds.length > 0) {
    const rows = await trx
      .selectFrom('company_members')
      .select(['company_id', 'person_id'])
      .where('company_id', 'in', [...companyIds])
      .where('state', '=', 'ativo')
      .where('role', '=', 'gestor')
      .execute();
    for (const r of rows) if (r.person_id !== null) gestores.get(r.company_id)?.push(r.person_id);
  }
  const motoristas = new Map<number, number[]>();
  if (vehicleIds.length > 0) {
    const rows = await trx
      .selectFrom('vehicle_drivers as d')
      .innerJoin('company_members as m', 'm.id', 'd.member_id')
      .select(['d.vehicle_id', 'm.person_id'])
      .where('d.vehicle_id', 'in', [...vehicleIds])
      .where('m.state', '=', 'ativo')
      .where('m.role', '=', 'motorista')
      .execute();
    for (const r of rows) {
      if (r.person_id === null) continue;
      motoristas.set(r.vehicle_id, [...(motoristas.get(r.vehicle_id) ?? []), r.person_id]);
    }
  }
  return {
    gestores: (companyId) => gestores.get(companyId) ?? [],
    motoristas: (vehicleId) => motoristas.get(vehicleId) ?? [],
  };
}
