import type { Trx } from '../../../db/connection.js';

/** What changes in a driver's free-flow totals: tolls kept, and the open ones' count, sum and flagged. */
export interface TotalsChange {
  driverId: number;
  tolls?: number;
  openTolls?: number;
  openCents?: number;
  openFlagged?: number;
}

/**
 * Decision 76: each driver's totals move in the transaction that changes their tolls (kept,
 * paid, withdrawn, forgotten), so the list's page count and the summary read one row instead of
 * every toll. One upsert per driver, in driver order (the order every lock is taken in).
 */
export async function moveTotals(trx: Trx, changes: readonly TotalsChange[]): Promise<void> {
  const sums = new Map<number, Required<TotalsChange>>();
  for (const c of changes) {
    const sum = sums.get(c.driverId) ?? { driverId: c.driverId, tolls: 0, openTolls: 0, openCents: 0, openFlagged: 0 };
    sum.tolls += c.tolls ?? 0;
    sum.openTolls += c.openTolls ?? 0;
    sum.openCents += c.openCents ?? 0;
    sum.openFlagged += c.openFlagged ?? 0;
    sums.set(c.driverId, sum);
  }
  for (const s of [...sums.values()].sort((a, b) => a.driverId - b.driverId)) {
    if (s.tolls === 0 && s.openTolls === 0 && s.openCents === 0 && s.openFlagged === 0) continue;
    await trx
      .insertInto('free_flow_driver_totals')
      .values({ driver_id: s.driverId, tolls: s.tolls, open_tolls: s.openTolls, open_cents: s.openCents, open_flagged: s.openFlagged })
      .onConflict((oc) =>
        oc.column('driver_id').doUpdateSet((eb) => ({
          tolls: eb('free_flow_driver_totals.tolls', '+', s.tolls),
          open_tolls: eb('free_flow_driver_totals.open_tolls', '+', s.openTolls),
          open_cents: eb('free_flow_driver_totals.open_cents', '+', s.openCents),
          open_flagged: eb('free_flow_driver_totals.open_flagged', '+', s.openFlagged),
        })),
      )
      .execute();
  }
}

/** An open toll leaving the open ones (paid or withdrawn). */
export function closedOpen(toll: { driver_id: number; amount_cents: number; flag: string | null }): TotalsChange {
  return { driverId: toll.driver_id, openTolls: -1, openCents: -Number(toll.amount_cents), openFlagged: toll.flag === null ? 0 : -1 };
}
