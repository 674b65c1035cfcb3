import type { StatementTransaction } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Decision 79: the vehicle of a statement row and the cost centre the entry was posted to. */
export type EntryVehicle = NonNullable<StatementTransaction['veiculo']>;

/**
 * The plate and cost centre of each entry that names a vehicle, by entry id: one read of the
 * page's vehicles and one of their centres. A centre removed since the entry leaves it without one.
 */
export async function entryVehicles(
  db: Kysely<Database>,
  entries: readonly { id: number; vehicle_id: number | null; cost_centre_id: number | null }[],
): Promise<Map<number, EntryVehicle>> {
  const vehicleIds = [...new Set(entries.flatMap((e) => (e.vehicle_id === null ? [] : [e.vehicle_id])))];
  if (vehicleIds.length === 0) return new Map();
  const centreIds = [...new Set(entries.flatMap((e) => (e.cost_centre_id === null ? [] : [e.cost_centre_id])))];
  const [vehicles, centres] = await Promise.all([
    db.selectFrom('vehicles').select(['id', 'license_plate']).where('id', 'in', vehicleIds).execute(),
    centreIds.length === 0
      ? Promise.resolve([])
      : db.selectFrom('cost_centres').select(['id', 'code', 'name']).where('id', 'in', centreIds).execute(),
  ]);
  const plates = new Map(vehicles.map((v) => [v.id, v.license_plate]));
  const named = new Map(centres.map((c) => [c.id, { codigo: c.code, nome: c.name }]));
  const result = new Map<number, EntryVehicle>();
  for (const e of entries) {
    const plate = e.vehicle_id === null ? undefined : plates.get(e.vehicle_id);
    if (plate === undefined) continue;
    result.set(e.id, { placa: plate, centroDeCusto: e.cost_centre_id === null ? null : (named.get(e.cost_centre_id) ?? null) });
  }
  return result;
}
