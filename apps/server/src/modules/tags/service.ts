import type { TagRegistration, TagRow, VehicleUpdate } from '@portal/contract';
import {
  canActivate,
  canBlock,
  canCancel,
  canEdit,
  canManage,
  canRelease,
  canRemove,
  canReplace,
  INVOICE_GROUP_CODE,
  isGreenpassSerial,
  messages,
  PAGE_SIZE,
  refuse,
  serverMessages,
  TAG_STATUS,
} from '@portal/domain';
import type { Refusal } from '@portal/domain';
import type { Db, Trx } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import { forUpdate } from '../../db/lock.js';
import type { TagOwnership, TagRowDb } from '../../db/schema.js';
import { OperatorRefusal } from '../../adapters/operators/port.js';
import type { TagOperatorGateway } from '../../adapters/operators/port.js';
import type { Catalogue } from './catalogue.js';
import type { LiveIndex } from './conflicts.js';
import { brokenIndex } from './conflicts.js';
import type { TagFees } from './fees.js';
import type { VehicleScope } from '../../db/vehicle-scope.js';
import { withinScope } from '../../db/vehicle-scope.js';
import { liveTagOfVehicle, ownVehicle, wireTag } from './queries.js';

export interface TagDriver {
  id: number;
  cpfCnpj: string;
}

/** Whoever holds the serial, or whatever made it unavailable, the answer is this one. */
const serialUnavailable = (field: string) => refuse.echoed('conflict', serverMessages.tag.serialUnavailable, field);

/**
 * A write that lost a race breaks a unique index: the answer is the one the driver would have
 * read had the other request come first (a plate race is about the plate, not the serial).
 */
type RaceAnswers = Partial<Record<LiveIndex, () => Refusal>>;

const serialRace = (field: string): RaceAnswers => ({
  tags_serial_live: () => serialUnavailable(field),
  operator_tags_pkey: () => serialUnavailable(field),
});

export interface Page<T> {
  rows: T[];
  totalPages: number;
}

/**
 * The tag lifecycle of spec §4 and 5 on the server: every call sees only the signed-in driver's
 * rows (another driver's serial or vehicle id is 404, and nothing changes). Each action is one
 * transaction that locks the tag row (PostgreSQL), asks the operator gateway, stores the new
 * status and, for activation and release, pays the monthly fee: all of it or nothing.
 */
export class TagService {
  constructor(
    private readonly db: Db,
    private readonly gateway: TagOperatorGateway,
    private readonly catalogue: Catalogue,
    private readonly fees: TagFees,
  ) {}

  // ---- reads --------------------------------------------------------------------------------

  /** The account's live tags within the scope (a Motorista's vehicles' ones, decision 77), newest first. */
  async listTags(driverId: number, page: number, scope: VehicleScope = null): Promise<Page<TagRow>> {
    const total = await this.db.kysely
      .selectFrom('tags')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('driver_id', '=', driverId)
      .where('deleted_at', 'is', null)
      .where(withinScope(scope, 'vehicle_id'))
      .executeTakeFirstOrThrow();
    const rows = await this.db.kysely
      .selectFrom('tags')
      .innerJoin('vehicles', 'vehicles.id', 'tags.vehicle_id')
      .select(['tags.serial_number', 'tags.operator_cnpj', 'tags.status_code', 'tags.ownership_type', 'vehicles.license_plate'])
      .where('tags.driver_id', '=', driverId)
      .where('tags.deleted_at', 'is', null)
      .where(withinScope(scope, 'tags.vehicle_id'))
      .orderBy('tags.id', 'desc')
      .limit(PAGE_SIZE)
      .offset(PAGE_SIZE * (page - 1))
      .execute();
    return {
      totalPages: Math.ceil(total.n / PAGE_SIZE),
      rows: rows.map((r) => ({ ...wireTag(r), vehicle: { LicensePlate: r.license_plate } })),
    };
  }

  // ---- register and edit ----------------------------------------------------------------------

  /**
   * POST /api/tag/cadastrar-tag: the vehicle (created, or an existing one of the driver without a
   * live tag, updated) and its tag, registered at the operator. `ownership` 'operator' is for tags
   * the operator assigns (demo data); the driver's own registrations are 'own'.
   */
  async register(driver: TagDriver, input: TagRegistration, ownership: TagOwnership = 'own'): Promise<void> {
    if (input.cnpj !== driver.cpfCnpj) throw refuse.echoed('forbidden', serverMessages.tag.documentMismatch);
    if (ownership === 'own' && isGreenpassSerial(input.serialNumber)) {
      throw refuse.echoed('invalid', messages.tag.greenpassRefused, 'serialNumber');
    }
    if (!this.catalogue.operator(input.Operadora)) throw refuse.echoed('invalid', serverMessages.tag.operatorUnknown, 'Operadora');
    if (!this.catalogue.hasModel(input.modelo)) throw refuse.echoed('invalid', serverMessages.tag.modelUnknown, 'modelo');
    if (input.invoiceGroupCode !== INVOICE_GROUP_CODE) throw refuse.echoed('invalid', messages.tag.invoiceGroupInvalid, 'invoiceGroupCode');
    const plateHasTag = () => refuse.echoed('conflict', serverMessages.tag.plateHasTag, 'licensePlate');
    await this.transaction(
      async (trx) => {
        await this.claimSerial(trx, driver.id, input.serialNumber, 'serialNumber');
        const existing = await trx
          .selectFrom('vehicles')
          .selectAll()
          .where('driver_id', '=', driver.id)
          .where('license_plate', '=', input.licensePlate)
          .where('deleted_at', 'is', null)
          .$call(forUpdate(this.db.dialect))
          .executeTakeFirst();
        const fields = {
          cpf_cnpj_antt: input.CpfCnpjAntt,
          rntrc_antt: input.RntrcAntt,
          axles: input.axles,
          vehicle_type: input.vehicleType,
          model_id: input.modelo,
        };
        let vehicleId: number;
        if (existing) {
          if (await liveTagOfVehicle(trx, this.db.dialect, existing.id)) throw plateHasTag();
          await trx.updateTable('vehicles').set(fields).where('id', '=', existing.id).execute();
          vehicleId = existing.id;
        } else {
          const row = await trx
            .insertInto('vehicles')
            .values({ driver_id: driver.id, license_plate: input.licensePlate, ...fields, created_at: nowIso(), deleted_at: null })
            .returning('id')
            .executeTakeFirstOrThrow();
          vehicleId = row.id;
        }
        const status = await this.operator(() =>
          this.gateway.register(
            { trx },
            {
              serialNumber: input.serialNumber,
              operatorCnpj: input.Operadora,
              licensePlate: input.licensePlate,
              holderDocument: driver.cpfCnpj,
              axles: input.axles,
              vehicleType: input.vehicleType,
              invoiceGroupCode: input.invoiceGroupCode,
              ownership,
            },
          ),
        );
        await trx
          .insertInto('tags')
          .values({
            driver_id: driver.id,
            vehicle_id: vehicleId,
            serial_number: input.serialNumber,
            operator_cnpj: input.Operadora,
            ownership_type: ownership,
            status_code: status,
            activated_at: null,
            paid_through: null,
            created_at: nowIso(),
            deleted_at: null,
          })
          .execute();
      },
      { ...serialRace('serialNumber'), vehicles_driver_plate_live: plateHasTag, tags_vehicle_live: plateHasTag },
    );
  }

  /** POST /api/veiculo/update: spec §5 'Edit tag'; only while the tag is inactive and not cancelled. */
  async update(driver: TagDriver, input: VehicleUpdate): Promise<void> {
    if (!this.catalogue.operator(input.Operadora)) throw refuse.echoed('invalid', serverMessages.tag.operatorUnknown, 'Operadora');
    const plateTaken = () => refuse.echoed('conflict', serverMessages.vehicle.plateTaken, 'LicensePlate');
    await this.transaction(
      async (trx) => {
        const vehicle = await ownVehicle(trx, this.db.dialect, driver.id, input.vehicle_id);
        const tag = await liveTagOfVehicle(trx, this.db.dialect, vehicle.id);
        if (!tag) throw refuse.echoed('not-found', serverMessages.tag.notFound);
        this.assertManageable(tag);
        if (!canEdit(tag.status_code)) throw refuse.echoed('conflict', serverMessages.tag.cannotEdit);
        if (input.LicensePlate !== vehicle.license_plate) {
          const clash = await trx
            .selectFrom('vehicles')
            .select('id')
            .where('driver_id', '=', driver.id)
            .where('license_plate', '=', input.LicensePlate)
            .where('deleted_at', 'is', null)
            .executeTakeFirst();
          if (clash) throw plateTaken();
        }
        const serialChanged = input.serialNumber !== tag.serial_number;
        const operatorChanged = input.Operadora !== tag.operator_cnpj;
        if (serialChanged) {
          if (isGreenpassSerial(input.serialNumber)) throw refuse.echoed('invalid', messages.tag.greenpassRefused, 'serialNumber');
          await this.claimSerial(trx, driver.id, input.serialNumber, 'serialNumber');
        }
        await trx
          .updateTable('vehicles')
          .set({
            license_plate: input.LicensePlate,
            cpf_cnpj_antt: input.CpfCnpjAntt,
            rntrc_antt: input.RntrcAntt,
            axles: input.Axles,
            vehicle_type: input.vehicleType,
          })
          .where('id', '=', vehicle.id)
          .execute();
        // The operator learns the new data as a fresh registration of the (inactive) tag.
        await this.operator(() => this.gateway.remove({ trx }, tag.serial_number));
        const status = await this.operator(() =>
          this.gateway.register(
            { trx },
            {
              serialNumber: input.serialNumber,
              operatorCnpj: input.Operadora,
              licensePlate: input.LicensePlate,
              holderDocument: driver.cpfCnpj,
              axles: input.Axles,
              vehicleType: input.vehicleType,
              invoiceGroupCode: INVOICE_GROUP_CODE,
              ownership: tag.ownership_type,
            },
          ),
        );
        if (serialChanged || operatorChanged || status !== tag.status_code) {
          await trx
            .updateTable('tags')
            .set({ serial_number: input.serialNumber, operator_cnpj: input.Operadora, status_code: status })
            .where('id', '=', tag.id)
            .execute();
        }
      },
      { ...serialRace('serialNumber'), vehicles_driver_plate_live: plateTaken },
    );
  }

  // ---- status changes -----------------------------------------------------------------------

  async block(driver: TagDriver, serial: string): Promise<void> {
    await this.onTag(driver, serial, async (trx, tag) => {
      if (!canBlock(tag.status_code)) throw refuse.echoed('conflict', messages.tag.cannotBlock);
      const status = await this.operator(() => this.gateway.block({ trx }, tag.serial_number, TAG_STATUS.blockedByDriver));
      await this.setStatus(trx, tag.id, status);
    });
  }

  /**
   * From 200 or 204; the fee of the current month (and any unpaid one, 204) is paid first. A block
   * of the vehicle's budget (decision 78; releasing is the Gestor's, as the capability says) ends
   * with it, and `personId` is recorded as who released it.
   */
  async release(driver: TagDriver, serial: string, personId: number = driver.id): Promise<void> {
    await this.onTag(driver, serial, async (trx, tag) => {
      if (!canRelease(tag.status_code)) throw refuse.echoed('conflict', messages.tag.cannotRelease);
      if ((await this.fees.payOwed(trx, tag)) === 'insufficient')
        throw refuse.echoed('invalid', serverMessages.tag.insufficientBalanceRelease);
      const status = await this.operator(() => this.gateway.release({ trx }, tag.serial_number));
      await this.setStatus(trx, tag.id, status);
      await trx
        .updateTable('budget_blocks')
        .set({ state: 'liberada', released_at: nowIso(), released_by: personId })
        .where('tag_id', '=', tag.id)
        .where('state', '=', 'bloqueada')
        .execute();
    });
  }

  /**
   * A tag never activated gives its serial back (the operator forgets it, released_at is set): it
   * stays in the driver's list as cancelled but no longer keeps the real holder of the tag out.
   */
  async cancel(driver: TagDriver, serial: string): Promise<void> {
    await this.onTag(driver, serial, async (trx, tag) => {
      if (!canCancel(tag.status_code)) throw refuse.echoed('conflict', messages.tag.cannotCancel);
      await this.cancelAtOperator(trx, tag);
    });
  }

  /**
   * Decision 70: a closed account's tag (already out of its list, deleted_at set) cancelled at the
   * operator as 'Cancelar' does, whoever manages it; one already cancelled there is left as it is.
   * The operator's refusal or failure is thrown to the caller, which records it for a retry.
   */
  async cancelForClosedAccount(tagId: number): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const tag = await trx
        .selectFrom('tags')
        .selectAll()
        .where('id', '=', tagId)
        .$call(forUpdate(this.db.dialect))
        .executeTakeFirstOrThrow();
      if (tag.released_at !== null || !canCancel(tag.status_code)) return;
      await this.cancelAtOperator(trx, tag);
    });
  }

  /** The operator cancels the serial; a serial it forgot (never activated) is marked given back. */
  private async cancelAtOperator(trx: Trx, tag: TagRowDb): Promise<void> {
    const status = await this.operator(() => this.gateway.cancel({ trx }, tag.serial_number));
    const released = (await this.gateway.status({ trx }, tag.serial_number)) === undefined;
    await trx
      .updateTable('tags')
      .set({ status_code: status, ...(released ? { released_at: nowIso() } : {}) })
      .where('id', '=', tag.id)
      .execute();
  }

  /** POST /api/tag/ativar-tag-motorista: status 100 and the month's fee, in one transaction. */
  async activate(driver: TagDriver, input: { serialNumber: string; licensePlate: string; cnpj: string }): Promise<void> {
    if (input.cnpj !== driver.cpfCnpj) throw refuse.echoed('forbidden', serverMessages.tag.documentMismatch);
    await this.onTag(driver, input.serialNumber, async (trx, tag) => {
      const vehicle = await trx.selectFrom('vehicles').select('license_plate').where('id', '=', tag.vehicle_id).executeTakeFirstOrThrow();
      if (vehicle.license_plate !== input.licensePlate) throw refuse.echoed('invalid', serverMessages.tag.plateMismatch, 'licensePlate');
      if (!canActivate(tag.status_code)) throw refuse.echoed('conflict', messages.tag.cannotActivate);
      if ((await this.fees.payThisMonth(trx, tag)) === 'insufficient')
        throw refuse.echoed('invalid', serverMessages.tag.insufficientBalance);
      const status = await this.operator(() => this.gateway.activate({ trx }, tag.serial_number));
      await trx.updateTable('tags').set({ status_code: status, activated_at: nowIso() }).where('id', '=', tag.id).execute();
    });
  }

  /** POST /api/tag/substituir: the tag keeps its vehicle, status and paid months under the new serial. */
  async replace(driver: TagDriver, serial: string, newSerial: string): Promise<void> {
    await this.onTag(
      driver,
      serial,
      async (trx, tag) => {
        if (!canReplace(tag.status_code)) throw refuse.echoed('conflict', messages.tag.cannotReplace);
        if (newSerial === tag.serial_number) throw refuse.echoed('invalid', messages.tag.sameSerial, 'newSerialNumber');
        await this.claimSerial(trx, driver.id, newSerial, 'newSerialNumber');
        const status = await this.operator(() => this.gateway.replace({ trx }, tag.serial_number, newSerial));
        await trx.updateTable('tags').set({ serial_number: newSerial, status_code: status }).where('id', '=', tag.id).execute();
      },
      { races: serialRace('newSerialNumber') },
    );
  }

  /** POST /api/veiculo/delete-tag-vehicle: the tag leaves the vehicle (inactive or cancelled only). */
  async remove(driver: TagDriver, serial: string): Promise<void> {
    await this.onTag(
      driver,
      serial,
      async (trx, tag) => {
        if (!canRemove(tag.status_code)) throw refuse.echoed('conflict', messages.tag.cannotRemove);
        await this.detach(trx, tag);
      },
      { needsManagement: false },
    );
  }

  /**
   * The tag leaves its vehicle (inactive or cancelled: the caller checked), and the operator too,
   * unless its serial was already given back when it was cancelled.
   */
  async detach(trx: Trx, tag: TagRowDb): Promise<void> {
    if (tag.released_at === null) await this.operator(() => this.gateway.remove({ trx }, tag.serial_number));
    await trx.updateTable('tags').set({ deleted_at: nowIso() }).where('id', '=', tag.id).execute();
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** Runs fn in a transaction; a unique index broken by a concurrent twin gets the answer the caller gave for it. */
  private async transaction<T>(fn: (trx: Trx) => Promise<T>, races: RaceAnswers = {}): Promise<T> {
    try {
      return await this.db.kysely.transaction().execute(fn);
    } catch (error) {
      const index = brokenIndex(error);
      const answer = index ? races[index] : undefined;
      throw answer ? answer() : error;
    }
  }

  private async onTag(
    driver: TagDriver,
    serial: string,
    fn: (trx: Trx, tag: TagRowDb) => Promise<void>,
    { races = {}, needsManagement = true }: { races?: RaceAnswers; needsManagement?: boolean } = {},
  ): Promise<void> {
    await this.transaction(async (trx) => {
      const tag = await trx
        .selectFrom('tags')
        .selectAll()
        .where('driver_id', '=', driver.id)
        .where('serial_number', '=', serial)
        .where('deleted_at', 'is', null)
        .$call(forUpdate(this.db.dialect))
        .executeTakeFirst();
      if (!tag) throw refuse.echoed('not-found', serverMessages.tag.notFound);
      if (needsManagement) this.assertManageable(tag);
      await fn(trx, tag);
    }, races);
  }

  private assertManageable(tag: TagRowDb): void {
    const operatorName = this.catalogue.operator(tag.operator_cnpj)?.name ?? null;
    if (!canManage({ ownershipType: tag.ownership_type, serialNumber: tag.serial_number, operatorName })) {
      throw refuse.echoed('forbidden', messages.tag.notManageable);
    }
  }

  /**
   * The serial must be held by no live registration (a released one holds nothing) and unknown to
   * the operator. Another driver's tag and a serial cancelled for good get the very same answer,
   * which says nothing about them. The driver's own released registration of it is superseded
   * (deleted), so a driver never has two live rows with one serial.
   */
  private async claimSerial(trx: Trx, driverId: number, serial: string, field: string): Promise<void> {
    const holder = await trx
      .selectFrom('tags')
      .select('driver_id')
      .where('serial_number', '=', serial)
      .where('deleted_at', 'is', null)
      .where('released_at', 'is', null)
      .executeTakeFirst();
    if (holder)
      throw holder.driver_id === driverId ? refuse.echoed('conflict', serverMessages.tag.serialYours, field) : serialUnavailable(field);
    if ((await this.gateway.status({ trx }, serial)) !== undefined) throw serialUnavailable(field);
    await trx
      .updateTable('tags')
      .set({ deleted_at: nowIso() })
      .where('driver_id', '=', driverId)
      .where('serial_number', '=', serial)
      .where('deleted_at', 'is', null)
      .where('released_at', 'is not', null)
      .execute();
  }

  private async setStatus(trx: Trx, tagId: number, status: number | null): Promise<void> {
    await trx.updateTable('tags').set({ status_code: status }).where('id', '=', tagId).execute();
  }

  private async operator<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof OperatorRefusal) throw refuse.echoed(error.kind, error.message);
      throw error;
    }
  }
}
