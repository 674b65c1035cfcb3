import { billingPeriod, budgetCrossings } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import type { NotificationOf } from '../notifications/outbox.js';
import { enqueueNotifications } from '../notifications/outbox.js';
import { companyPeople } from './people.js';

/** What one paid passage took from the company's own balances for a vehicle (a VPO's part excluded). */
export interface VehicleSpend {
  vehicleId: number;
  /** ISO instant of the passage: its São Paulo month is the one it counts in. */
  at: string;
  cents: number;
}

/**
 * Decision 78, in the passages' transaction and under their locks (the drivers' rows): each
 * vehicle's month gets what its passages took (one upsert, every vehicle, so that a budget set in
 * the middle of a month starts from what the month already spent); a vehicle with a budget that
 * crossed 80 % or 100 % of it is told to the company's Gestores, once a month each level; at 100 %,
 * where the company chose it, the vehicle's tags are queued to be blocked through their operator
 * (blocks.ts, outside this transaction: a passage is never refused nor held for it).
 */
export async function countVehicleSpend(trx: Trx, spends: readonly VehicleSpend[], now: Date = new Date()): Promise<void> {
  const sums = new Map<string, { vehicle_id: number; period: string; spent_cents: number }>();
  for (const s of spends) {
    if (s.cents <= 0) continue;
    const period = billingPeriod(new Date(s.at));
    const id = `${s.vehicleId}|${period}`;
    const sum = sums.get(id) ?? { vehicle_id: s.vehicleId, period, spent_cents: 0 };
    sum.spent_cents += s.cents;
    sums.set(id, sum);
  }
  if (sums.size === 0) return;
  const current = billingPeriod(now);
  const budgets = await budgetedBefore(trx, [...new Set([...sums.values()].map((s) => s.vehicle_id))], current);
  await trx
    .insertInto('vehicle_month_spend')
    .values([...sums.values()])
    .onConflict((oc) =>
      oc.columns(['vehicle_id', 'period']).doUpdateSet((eb) => ({
        spent_cents: eb('vehicle_month_spend.spent_cents', '+', eb.ref('excluded.spent_cents')),
      })),
    )
    .execute();
  if (budgets.length === 0) return;

  const reached: { budget: Budgeted; percent: 80 | 100; after: number }[] = [];
  for (const budget of budgets) {
    const added = sums.get(`${budget.vehicleId}|${current}`)?.spent_cents ?? 0;
    const after = budget.spentCents + added;
    for (const percent of budgetCrossings(budget.budgetCents, budget.spentCents, after)) reached.push({ budget, percent, after });
  }
  if (reached.length === 0) return;
  const iso = now.toISOString();
  const fresh = await trx
    .insertInto('vehicle_budget_alerts')
    .values(
      reached.map((r) => ({
        vehicle_id: r.budget.vehicleId,
        period: current,
        percent: r.percent,
        spent_cents: r.after,
        budget_cents: r.budget.budgetCents,
        created_at: iso,
      })),
    )
    .onConflict((oc) => oc.columns(['vehicle_id', 'period', 'percent']).doNothing())
    .returning(['vehicle_id', 'percent'])
    .execute();
  if (fresh.length === 0) return;
  const people = await companyPeople(trx, [...new Set(budgets.map((b) => b.companyId))], []);
  const notices: NotificationOf[] = [];
  for (const { vehicle_id: vehicleId, percent } of fresh) {
    const r = reached.find((x) => x.budget.vehicleId === vehicleId && x.percent === percent);
    if (!r) continue;
    for (const driverId of people.gestores(r.budget.companyId)) {
      notices.push({
        driverId,
        notification: {
          kind: 'vehicleBudgetReached',
          vehicleId,
          plate: r.budget.plate,
          period: current,
          percent: r.percent,
          spentCents: r.after,
          budgetCents: r.budget.budgetCents,
        },
      });
    }
  }
  await enqueueNotifications(trx, notices, now);
  await queueBlocks(
    trx,
    fresh.filter((f) => f.percent === 100 && budgets.some((b) => b.vehicleId === f.vehicle_id && b.blockAtLimit)).map((f) => f.vehicle_id),
    current,
    iso,
  );
}

interface Budgeted {
  vehicleId: number;
  companyId: number;
  plate: string;
  budgetCents: number;
  blockAtLimit: boolean;
  /** The current month's spending before these passages. */
  spentCents: number;
}

async function budgetedBefore(trx: Trx, vehicleIds: number[], period: string): Promise<Budgeted[]> {
  const rows = await trx
    .selectFrom('vehicle_budgets as b')
    .innerJoin('vehicles as v', 'v.id', 'b.vehicle_id')
    .leftJoin('vehicle_month_spend as s', (join) => join.onRef('s.vehicle_id', '=', 'b.vehicle_id').on('s.period', '=', period))
    .select(['b.vehicle_id', 'b.company_id', 'b.monthly_cents', 'b.block_at_limit', 'v.license_plate', 's.spent_cents'])
    .where('b.vehicle_id', 'in', vehicleIds)
    .execute();
  return rows.map((r) => ({
    vehicleId: r.vehicle_id,
    companyId: r.company_id,
    plate: r.license_plate,
    budgetCents: Number(r.monthly_cents),
    blockAtLimit: r.block_at_limit === 1,
    spentCents: Number(r.spent_cents ?? 0),
  }));
}

/** The vehicles' live active tags, to be blocked by the budget (blocks.ts), once a month each. */
async function queueBlocks(trx: Trx, vehicleIds: number[], period: string, iso: string): Promise<void> {
  if (vehicleIds.length === 0) return;
  const tags = await trx
    .selectFrom('tags')
    .select(['id', 'vehicle_id'])
    .where('vehicle_id', 'in', vehicleIds)
    .where('deleted_at', 'is', null)
    .where('released_at', 'is', null)
    .execute();
  if (tags.length === 0) return;
  await trx
    .insertInto('budget_blocks')
    .values(tags.map((t) => ({ vehicle_id: t.vehicle_id, tag_id: t.id, period, state: 'pendente' as const, created_at: iso })))
    .onConflict((oc) => oc.columns(['tag_id', 'period']).doNothing())
    .execute();
}

/** Of these tags, the ones blocked now by their vehicle's budget (budget_blocks_live_idx). */
export async function budgetBlockedTags(trx: Trx, tagIds: readonly number[]): Promise<Set<number>> {
  if (tagIds.length === 0) return new Set();
  const rows = await trx
    .selectFrom('budget_blocks')
    .select('tag_id')
    .where('tag_id', 'in', [...tagIds])
    .where('state', '=', 'bloqueada')
    .execute();
  return new Set(rows.map((r) => r.tag_id));
}
