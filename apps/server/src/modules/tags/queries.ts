/** Reads of tags and vehicles that the tag, vehicle and partner modules share. */
import type { VehicleTag } from '@portal/contract';
import { messages, refuse } from '@portal/domain';
import type { Dialect, Trx } from '../../db/connection.js';
import { forUpdate } from '../../db/lock.js';
import type { TagRowDb, VehicleRow } from '../../db/schema.js';

export function wireTag(t: Pick<TagRowDb, 'serial_number' | 'operator_cnpj' | 'status_code' | 'ownership_type'>): VehicleTag {
  return { serialNumber: t.serial_number, Operadora: t.operator_cnpj, statusCode: t.status_code, ownershipType: t.ownership_type };
}

/** The driver's vehicle, locked (PostgreSQL); another driver's or a deleted one is 404. */
export async function ownVehicle(trx: Trx, dialect: Dialect, driverId: number, vehicleId: number): Promise<VehicleRow> {
  const vehicle = await trx
    .selectFrom('vehicles')
    .selectAll()
    .where('id', '=', vehicleId)
    .where('driver_id', '=', driverId)
    .where('deleted_at', 'is', null)
    .$call(forUpdate(dialect))
    .executeTakeFirst();
  if (!vehicle) throw refuse.echoed('not-found', messages.vehicle.notFound);
  return vehicle;
}

/** The vehicle's tag that is not deleted, locked (PostgreSQL). */
export function liveTagOfVehicle(trx: Trx, dialect: Dialect, vehicleId: number): Promise<TagRowDb | undefined> {
  return trx
    .selectFrom('tags')
    .selectAll()
    .where('vehicle_id', '=', vehicleId)
    .where('deleted_at', 'is', null)
    .$call(forUpdate(dialect))
    .executeTakeFirst();
}

export interface SerialHolder {
  tagId: number;
  driverId: number;
  vehicleId: number;
  operatorCnpj: string;
  status: number | null;
  plate: string;
  /** The RNTRC registered on the tag's vehicle. */
  rntrc: string;
}

/** The registration that holds the serial (live and not released), with its vehicle's plate. */
export async function serialHolder(trx: Trx, serial: string): Promise<SerialHolder | null> {
  return (await serialHolders(trx, [serial])).get(serial) ?? null;
}

/** serialHolder for many serials at once (a chunk of passages), by serial. */
export async function serialHolders(trx: Trx, serials: readonly string[]): Promise<Map<string, SerialHolder>> {
  if (serials.length === 0) return new Map();
  const rows = await trx
    .selectFrom('tags')
    .innerJoin('vehicles', 'vehicles.id', 'tags.vehicle_id')
    .select([
      'tags.id',
      'tags.serial_number',
      'tags.driver_id',
      'tags.vehicle_id',
      'tags.operator_cnpj',
      'tags.status_code',
      'vehicles.license_plate',
      'vehicles.rntrc_antt',
    ])
    .where('tags.serial_number', 'in', [...new Set(serials)])
    .where('tags.deleted_at', 'is', null)
    .where('tags.released_at', 'is', null)
    .execute();
  return new Map(
    rows.map((row) => [
      row.serial_number,
      {
        tagId: row.id,
        driverId: row.driver_id,
        vehicleId: row.vehicle_id,
        operatorCnpj: row.operator_cnpj,
        status: row.status_code,
        plate: row.license_plate,
        rntrc: row.rntrc_antt,
      },
    ]),
  );
}
