import type { VehicleDetail, VehicleRow as VehicleListRow } from '@portal/contract';
import { canRemove, messages, PAGE_SIZE, refuse, serverMessages, TAG_STATUS } from '@portal/domain';
import type { Db } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import { liveTagOfVehicle, ownVehicle, wireTag } from '../tags/queries.js';
import type { Page, TagDriver, TagService } from '../tags/service.js';

/**
 * The driver's vehicles (founding decision 7 and spec §7's vehicle detail): only the signed-in driver's
 * rows; another driver's plate or vehicle id is 404, and nothing changes. A vehicle is created
 * and edited with its tag (TagService.register and update).
 */
export class VehicleService {
  constructor(
    private readonly db: Db,
    private readonly tags: TagService,
  ) {}

  async list(driverId: number, page: number): Promise<Page<VehicleListRow>> {
    const total = await this.db.kysely
      .selectFrom('vehicles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('driver_id', '=', driverId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    const vehicles = await this.db.kysely
      .selectFrom('vehicles')
      .select(['id', 'license_plate'])
      .where('driver_id', '=', driverId)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(PAGE_SIZE)
      .offset(PAGE_SIZE * (page - 1))
      .execute();
    const tags = vehicles.length
      ? await this.db.kysely
          .selectFrom('tags')
          .select(['vehicle_id', 'serial_number', 'operator_cnpj', 'status_code', 'ownership_type'])
          .where(
            'vehicle_id',
            'in',
            vehicles.map((v) => v.id),
          )
          .where('deleted_at', 'is', null)
          .execute()
      : [];
    const byVehicle = new Map(tags.map((t) => [t.vehicle_id, wireTag(t)]));
    return {
      totalPages: Math.ceil(total.n / PAGE_SIZE),
      rows: vehicles.map((v) => {
        const tag = byVehicle.get(v.id) ?? null;
        // Founding decision 7: Status is the tag's code (an inactive tag without code shows 201), null = 'Sem tag'.
        return { id: v.id, LicensePlate: v.license_plate, Status: tag ? (tag.statusCode ?? TAG_STATUS.inactive) : null, tag };
      }),
    };
  }

  async detail(driverId: number, plate: string): Promise<VehicleDetail> {
    const vehicle = await this.db.kysely
      .selectFrom('vehicles')
      .selectAll()
      .where('driver_id', '=', driverId)
      .where('license_plate', '=', plate)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!vehicle) throw refuse.echoed('not-found', messages.vehicle.notFound);
    const tag = await this.db.kysely
      .selectFrom('tags')
      .selectAll()
      .where('vehicle_id', '=', vehicle.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return {
      id: vehicle.id,
      LicensePlate: vehicle.license_plate,
      CpfCnpjAntt: vehicle.cpf_cnpj_antt,
      RntrcAntt: vehicle.rntrc_antt,
      Axles: vehicle.axles,
      vehicleType: vehicle.vehicle_type,
      modelo: vehicle.model_id,
      tag: tag ? wireTag(tag) : null,
    };
  }

  /** Founding decision 7: POST /api/veiculo/delete; refused while its tag is active or blocked, else the tag leaves with it. */
  async delete(driver: TagDriver, vehicleId: number): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const vehicle = await ownVehicle(trx, this.db.dialect, driver.id, vehicleId);
      const tag = await liveTagOfVehicle(trx, this.db.dialect, vehicle.id);
      if (tag) {
        if (!canRemove(tag.status_code)) throw refuse.echoed('conflict', serverMessages.vehicle.hasLiveTag);
        await this.tags.detach(trx, tag);
      }
      await trx.updateTable('vehicles').set({ deleted_at: nowIso() }).where('id', '=', vehicle.id).execute();
    });
  }
}
