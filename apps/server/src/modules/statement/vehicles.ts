import type { StatementTransaction } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Decision 79: the vehicle of a statement row and the cost centre the entry was posted to. */
export type EntryVehicle = NonNullable<StatementTransaction['veiculo']>;

/** Plates and cost centres already read, by id: an export reads each once, not once a chunk. */
export interface VehicleNames {
  /** null: a vehicle or centre deleted since, not asked for again. */
  plates: Map<number, string | null>;
  centres: Map<number, { codigo: string; nome: string } | null>;
}

/**
 * The plate and cost centre of each entry that names a vehicle, by entry id: one read of the
 * entries' vehicles and one of their centres, but those in `known` (which it fills). A centre
 * removed since the entry leaves it without one.
 */
export async function entryVehicles(
  db: Kysely<Database>,
  entries: readonly { id: number; vehicle_id: number | null; cost_centre_id: number | null }[],
  known: VehicleNames = { plates: new Map(), centres: new Map() },
): Promise<Map<number, EntryVehicle>> {
  const unknown = (ids: (number | null)[], read: Map<number, unknown>) =>
    [...new Set(ids)].filter((id): id is number => id !== null && !read.has(id));
  const vehicleIds = unknown(
    entries.map((e) => e.vehicle_id),
    known.plates,
  );
  const centreIds = unknown(
    entries.map((e) => (e.vehicle_id === null ? null : e.cost_centre_id)),
    known.centres,
  );
  const [vehicles, centres] = await Promise.all([
    vehicleIds.length === 0 ? [] : db.selectFrom('vehicles').select(['id', 'license_plate']).where('id', 'in', vehicleIds).execute(),
    centreIds.length === 0 ? [] : db.selectFrom('cost_centres').select(['id', 'code', 'name']).where('id', 'in', centreIds).execute(),
  ]);
  for (const id of vehicleIds) known.plates.set(id, null);
  for (const id of centreIds) known.centres.set(id, null);
  for (const v of vehicles) known.plates.set(v.id, v.license_plate);
  for (const c of centres) known.centres.set(c.id, { codigo: c.code, nome: c.name });
  const result = new Map<number, EntryVehicle>();
  for (const e of entries) {
    const plate = e.vehicle_id === null ? null : (known.plates.get(e.vehicle_id) ?? null);
    if (plate === null) continue;
    result.set(e.id, { placa: plate, centroDeCusto: e.cost_centre_id === null ? null : (known.centres.get(e.cost_centre_id) ?? null) });
  }
  return result;
}
