import type { VehicleBudget } from '@portal/contract';
import {
  billingPeriod,
  budgetPercent,
  centsToReais,
  formatBrl,
  PAGE_SIZE,
  reaisToCents,
  refuse,
  TAG_STATUS,
  vehicleBudgetMessages,
} from '@portal/domain';
import type { Db, Trx } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';

/** A budget as the trail records it: the value in reais (null: none) and the block at 100 %. */
export interface BudgetState {
  placa: string;
  valor: number | null;
  bloquearNoLimite: boolean;
}

/** Records the change in its transaction (the company's audit trail, fleet/). */
export type BudgetChangeRecorder = (trx: Trx, before: BudgetState, after: BudgetState) => Promise<void>;

/**
 * Decision 78: a company's monthly toll budget per vehicle, and what each vehicle's month spent.
 * Setting a budget never touches a passage nor the money: the spending is counted as passages are
 * paid (spend.ts), and a budget lowered below what the month spent is reached on the next passage.
 */
export class VehicleBudgets {
  constructor(private readonly db: Db) {}

  /** The company's live vehicles by plate, a page at a time, with this São Paulo month's spending. */
  async list(companyId: number, page: number, now: Date = new Date()): Promise<{ month: string; rows: VehicleBudget[]; pages: number }> {
    const month = billingPeriod(now);
    const base = this.db.kysely.selectFrom('vehicles as v').where('v.driver_id', '=', companyId).where('v.deleted_at', 'is', null);
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      this.rows(companyId, month)
        .orderBy('v.license_plate')
        .orderBy('v.id')
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute(),
    ]);
    return { month, rows: rows.map(toBudget), pages: Math.ceil(Number(count?.n ?? 0) / PAGE_SIZE) };
  }

  async set(
    companyId: number,
    vehicleId: number,
    input: { valor: number | null; bloquearNoLimite: boolean },
    record: BudgetChangeRecorder,
    now: Date = new Date(),
  ): Promise<{ budget: VehicleBudget; message: string }> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const vehicle = await trx
        .selectFrom('vehicles as v')
        .leftJoin('vehicle_budgets as b', 'b.vehicle_id', 'v.id')
        .select(['v.id', 'v.license_plate', 'b.monthly_cents', 'b.block_at_limit'])
        .where('v.id', '=', vehicleId)
        .where('v.driver_id', '=', companyId)
        .where('v.deleted_at', 'is', null)
        .executeTakeFirst();
      if (!vehicle) throw refuse.notFound(vehicleBudgetMessages.vehicleNotFound);
      const before: BudgetState = {
        placa: vehicle.license_plate,
        valor: vehicle.monthly_cents === null ? null : centsToReais(Number(vehicle.monthly_cents)),
        bloquearNoLimite: vehicle.block_at_limit === 1,
      };
      if (input.valor === null) {
        await trx.deleteFrom('vehicle_budgets').where('vehicle_id', '=', vehicleId).execute();
      } else {
        const row = {
          vehicle_id: vehicleId,
          company_id: companyId,
          monthly_cents: reaisToCents(input.valor),
          block_at_limit: input.bloquearNoLimite ? (1 as const) : (0 as const),
          updated_at: nowIso(),
        };
        await trx
          .insertInto('vehicle_budgets')
          .values(row)
          .onConflict((oc) =>
            oc
              .column('vehicle_id')
              .doUpdateSet({ monthly_cents: row.monthly_cents, block_at_limit: row.block_at_limit, updated_at: row.updated_at }),
          )
          .execute();
      }
      const after: BudgetState = {
        placa: vehicle.license_plate,
        valor: input.valor,
        bloquearNoLimite: input.valor !== null && input.bloquearNoLimite,
      };
      await record(trx, before, after);
    });
    const row = await this.rows(companyId, billingPeriod(now)).where('v.id', '=', vehicleId).executeTakeFirstOrThrow();
    const budget = toBudget(row);
    const value = budget.orcamento === null ? null : formatBrl(reaisToCents(budget.orcamento));
    const message =
      value === null
        ? vehicleBudgetMessages.removed(budget.placa)
        : budget.bloquearNoLimite
          ? vehicleBudgetMessages.setWithBlock(budget.placa, value)
          : vehicleBudgetMessages.set(budget.placa, value);
    return { budget, message };
  }

  private rows(companyId: number, month: string) {
    return this.db.kysely
      .selectFrom('vehicles as v')
      .leftJoin('vehicle_budgets as b', 'b.vehicle_id', 'v.id')
      .leftJoin('vehicle_month_spend as s', (join) => join.onRef('s.vehicle_id', '=', 'v.id').on('s.period', '=', month))
      .select((eb) => [
        'v.id',
        'v.license_plate',
        'b.monthly_cents',
        'b.block_at_limit',
        's.spent_cents',
        eb
          .exists(
            eb
              .selectFrom('budget_blocks as k')
              .innerJoin('tags as t', 't.id', 'k.tag_id')
              .select('k.id')
              .whereRef('k.vehicle_id', '=', 'v.id')
              .where('k.state', '=', 'bloqueada')
              .where('t.status_code', '=', TAG_STATUS.blockedByDriver),
          )
          .as('blocked'),
      ])
      .where('v.driver_id', '=', companyId)
      .where('v.deleted_at', 'is', null);
  }
}

interface BudgetRow {
  id: number;
  license_plate: string;
  monthly_cents: number | null;
  block_at_limit: 0 | 1 | null;
  spent_cents: number | null;
  blocked: unknown;
}

function toBudget(r: BudgetRow): VehicleBudget {
  const budget = r.monthly_cents === null ? null : Number(r.monthly_cents);
  const spent = Number(r.spent_cents ?? 0);
  return {
    veiculoId: r.id,
    placa: r.license_plate,
    orcamento: budget === null ? null : centsToReais(budget),
    gasto: centsToReais(spent),
    percentual: budget === null ? 0 : budgetPercent(budget, spent),
    bloquearNoLimite: r.block_at_limit === 1,
    bloqueadaPeloOrcamento: Boolean(Number(r.blocked)),
  };
}
