import { costCentreMessages, refuse } from '@portal/domain';
import type { CostCentre, FleetVehicle } from '@portal/contract';
import { isUniqueViolation, nowIso } from '../../db/connection.js';
import { historyOn } from '../../db/read-replica.js';
import type { ReadRouter } from '../../db/read-replica.js';
import type { Db } from '../../db/connection.js';
import type { AuditLog } from './audit.js';
import type { Origin } from './members.js';
import { costCentreMonth } from './report.js';
import type { CostCentreReport } from './report.js';

/**
 * Decision 77: a company's cost centres (a name and a code, the code unique in the company), each
 * vehicle in one at most. Changes are recorded on the trail with their before and after.
 */
export class CostCentres {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    /** Decision 81: the monthly report may read a replica (none: the primary). */
    private readonly reads: Pick<ReadRouter, 'history'> = historyOn(db.kysely),
  ) {}

  /** The company's centres by code (one of them when `id` is given), each with its live vehicles counted. */
  async list(companyId: number, id?: number): Promise<CostCentre[]> {
    let query = this.db.kysely
      .selectFrom('cost_centres as c')
      .select((eb) => [
        'c.id',
        'c.name',
        'c.code',
        eb
          .selectFrom('vehicles as v')
          .select((v) => v.fn.countAll<number>().as('n'))
          .whereRef('v.cost_centre_id', '=', 'c.id')
          .where('v.deleted_at', 'is', null)
          .as('vehicles'),
      ])
      .where('c.company_id', '=', companyId)
      .orderBy('c.code');
    if (id !== undefined) query = query.where('c.id', '=', id);
    const rows = await query.execute();
    return rows.map((r) => ({ id: r.id, nome: r.name, codigo: r.code, veiculos: Number(r.vehicles ?? 0) }));
  }

  async one(companyId: number, id: number): Promise<CostCentre> {
    const [found] = await this.list(companyId, id);
    if (!found) throw refuse.notFound(costCentreMessages.notFound);
    return found;
  }

  async create(companyId: number, origin: Origin, input: { nome: string; codigo: string }): Promise<CostCentre> {
    const id = await this.unique(async () =>
      this.db.kysely.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('cost_centres')
          .values({ company_id: companyId, name: input.nome, code: input.codigo, created_at: nowIso() })
          .returning('id')
          .executeTakeFirstOrThrow();
        await this.audit.record(
          companyId,
          origin.acting,
          { action: 'Criou um centro de custo', outcome: 'ok', address: origin.address, after: input },
          trx,
        );
        return row.id;
      }),
    );
    return this.one(companyId, id);
  }

  async update(companyId: number, origin: Origin, id: number, input: { nome: string; codigo: string }): Promise<CostCentre> {
    const before = await this.one(companyId, id);
    await this.unique(async () =>
      this.db.kysely.transaction().execute(async (trx) => {
        await trx
          .updateTable('cost_centres')
          .set({ name: input.nome, code: input.codigo })
          .where('id', '=', id)
          .where('company_id', '=', companyId)
          .execute();
        await this.audit.record(
          companyId,
          origin.acting,
          {
            action: 'Alterou um centro de custo',
            outcome: 'ok',
            address: origin.address,
            before: { nome: before.nome, codigo: before.codigo },
            after: input,
          },
          trx,
        );
      }),
    );
    return this.one(companyId, id);
  }

  async remove(companyId: number, origin: Origin, id: number): Promise<void> {
    const before = await this.one(companyId, id);
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('vehicles')
        .set({ cost_centre_id: null })
        .where('cost_centre_id', '=', id)
        .where('driver_id', '=', companyId)
        .execute();
      await trx.deleteFrom('cost_centres').where('id', '=', id).where('company_id', '=', companyId).execute();
      await this.audit.record(
        companyId,
        origin.acting,
        {
          action: 'Excluiu um centro de custo',
          outcome: 'ok',
          address: origin.address,
          before: { nome: before.nome, codigo: before.codigo, veiculos: before.veiculos },
        },
        trx,
      );
    });
  }

  /** Puts a live vehicle of the company in a centre of the company, or in none. */
  async setVehicle(
    companyId: number,
    origin: Origin,
    vehicleId: number,
    centreId: number | null,
  ): Promise<{ vehicle: Pick<FleetVehicle, 'id' | 'placa'>; message: string }> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const vehicle = await trx
        .selectFrom('vehicles as v')
        .leftJoin('cost_centres as c', 'c.id', 'v.cost_centre_id')
        .select(['v.id', 'v.license_plate', 'c.code as before'])
        .where('v.id', '=', vehicleId)
        .where('v.driver_id', '=', companyId)
        .where('v.deleted_at', 'is', null)
        .executeTakeFirst();
      if (!vehicle) throw refuse.notFound(costCentreMessages.vehicleNotFound);
      const centre =
        centreId === null
          ? null
          : await trx
              .selectFrom('cost_centres')
              .select(['id', 'code', 'name'])
              .where('id', '=', centreId)
              .where('company_id', '=', companyId)
              .executeTakeFirst();
      if (centreId !== null && !centre) throw refuse.invalid(costCentreMessages.notFound, 'centroDeCusto');
      await trx.updateTable('vehicles').set({ cost_centre_id: centreId }).where('id', '=', vehicleId).execute();
      await this.audit.record(
        companyId,
        origin.acting,
        {
          action: 'Mudou o centro de custo de um veículo',
          outcome: 'ok',
          address: origin.address,
          before: { placa: vehicle.license_plate, centro: vehicle.before },
          after: { placa: vehicle.license_plate, centro: centre?.code ?? null },
        },
        trx,
      );
      return {
        vehicle: { id: vehicle.id, placa: vehicle.license_plate },
        message: costCentreMessages.vehicleMoved(vehicle.license_plate, centre ? `${centre.code} (${centre.name})` : null),
      };
    });
  }

  /** The centre's month by plate for the accountant (report.ts); null when it is not the company's. */
  report(companyId: number, id: number, month: string): Promise<CostCentreReport | null> {
    return this.reads.history(companyId, (db) => costCentreMonth(db, companyId, id, month));
  }

  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw refuse.invalid(costCentreMessages.codeTaken, 'codigo');
      throw error;
    }
  }
}
