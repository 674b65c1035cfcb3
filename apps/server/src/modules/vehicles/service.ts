import type { VehicleDetail, VehiclePassage, VehicleRow as VehicleListRow } from '@portal/contract';
import { canRemove, centsToReais, messages, PAGE_SIZE, refuse, serverMessages, TAG_STATUS } from '@portal/domain';
import type { Db } from '../../db/connection.js';
import { nowIso, toIso } from '../../db/connection.js';
import { liveTagOfVehicle, ownVehicle, wireTag } from '../tags/queries.js';
import type { VehicleScope } from '../../db/vehicle-scope.js';
import { withinScope } from '../../db/vehicle-scope.js';
import type { Page, TagDriver, TagService } from '../tags/service.js';

/**
 * The driver's vehicles (founding decision 7 and spec §7's vehicle detail): only the signed-in driver's
 * rows; another driver's plate or vehicle id is 404, and nothing changes. A vehicle is created
 * and edited with its tag (TagService.register and update).
 */
const PASSAGES_PAGE_SIZE = 20;

export class VehicleService {
  constructor(
    private readonly db: Db,
    private readonly tags: TagService,
  ) {}

  /**
   * Decision 77: the account's toll passages on the vehicles in the scope, newest first (by arrival:
   * passages_driver_idx), with each one's latest contest state.
   */
  async passages(driverId: number, page: number, scope: VehicleScope): Promise<Page<VehiclePassage>> {
    const base = this.db.kysely
      .selectFrom('passages as p')
      .innerJoin('tags as t', 't.id', 'p.tag_id')
      .where('p.driver_id', '=', driverId)
      .where(withinScope(scope, 't.vehicle_id'));
    const [total, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      base
        .innerJoin('vehicles as v', 'v.id', 't.vehicle_id')
        .select((eb) => [
          'p.id',
          'v.license_plate',
          'p.place_name',
          'p.occurred_at',
          'p.amount_cents',
          eb
            .selectFrom('contests as c')
            .select('c.state')
            .whereRef('c.passage_id', '=', 'p.id')
            .orderBy('c.id', 'desc')
            .limit(1)
            .as('contest'),
        ])
        .orderBy('p.id', 'desc')
        .limit(PASSAGES_PAGE_SIZE)
        .offset(PASSAGES_PAGE_SIZE * (page - 1))
        .execute(),
    ]);
    return {
      totalPages: Math.ceil(Number(total.n) / PASSAGES_PAGE_SIZE),
      rows: rows.map((r) => ({
        id: r.id,
        placa: r.license_plate,
        praca: r.place_name,
        em: toIso(r.occurred_at),
        valor: centsToReais(Number(r.amount_cents)),
        contestacao: r.contest ?? null,
      })),
    };
  }

  /** The account's live vehicles within the scope (a Motorista's assigned ones, decision 77), newest first. */
  async list(driverId: number, page: number, scope: VehicleScope = null): Promise<Page<VehicleListRow>> {
    const total = await this.db.kysely
      .selectFrom('vehicles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('driver_id', '=', driverId)
      .where('deleted_at', 'is', null)
      .where(withinScope(scope, 'id'))
      .executeTakeFirstOrThrow();
    const vehicles = await this.db.kysely
      .selectFrom('vehicles')
      .select(['id', 'license_plate'])
      .where('driver_id', '=', driverId)
      .where('deleted_at', 'is', null)
      .where(withinScope(scope, 'id'))
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

  /** A vehicle of the account by plate; outside the scope, the same 404 as none. */
  async detail(driverId: number, plate: string, scope: VehicleScope = null): Promise<VehicleDetail> {
    const vehicle = await this.db.kysely
      .selectFrom('vehicles')
      .selectAll()
      .where('driver_id', '=', driverId)
      .where('license_plate', '=', plate)
      .where('deleted_at', 'is', null)
      .where(withinScope(scope, 'id'))
      .executeTakeFirst();
    if (!vehicle) throw refuse.echoed('not-found', messages.vehicle.notFound);
    const tag = await this.db.kysely
      .selectFrom('tags')
      .selectAll()
      .where('vehicle_id', '=', vehicle.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    // Decision 78: a tag the vehicle's budget blocked says so (its release is the Gestor's).
    const budgetBlocked =
      tag?.status_code === TAG_STATUS.blockedByDriver &&
      (await this.db.kysely
        .selectFrom('budget_blocks')
        .select('id')
        .where('tag_id', '=', tag.id)
        .where('state', '=', 'bloqueada')
        .executeTakeFirst()) !== undefined;
    return {
      id: vehicle.id,
      LicensePlate: vehicle.license_plate,
      CpfCnpjAntt: vehicle.cpf_cnpj_antt,
      RntrcAntt: vehicle.rntrc_antt,
      Axles: vehicle.axles,
      vehicleType: vehicle.vehicle_type,
      modelo: vehicle.model_id,
      tag: tag ? { ...wireTag(tag), ...(budgetBlocked ? { bloqueioOrcamento: true } : {}) } : null,
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
