import type { Db } from '../../src/db/connection.js';
import { accountId, post } from '../../src/modules/ledger/ledger.js';
import type { Registered } from './app.js';

/** A ledger entry of a test's history, at a moment it chooses (ISO with its offset). */
export interface Movement {
  at: string;
  cents: number;
  origin: string;
  place: string;
  third?: boolean;
  reference?: string;
  /** Decision 79: the vehicle the movement was for. */
  vehicle?: number;
}

/**
 * Posts the movements to the driver's own (or third-party) account through the ledger, in one
 * transaction; `prefix` keeps their idempotency keys apart from another call's.
 */
export async function recordMovements(db: Db, driver: Registered, movements: readonly Movement[], prefix: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const own = await accountId(trx, driver.id, 'own');
    const third = await accountId(trx, driver.id, 'third');
    for (const [i, m] of movements.entries()) {
      await post(trx, {
        accountId: m.third ? third : own,
        amountCents: m.cents,
        origin: m.origin,
        placeName: m.place,
        isThird: m.third ?? false,
        reference: m.reference ?? null,
        idempotencyKey: `${prefix}-${driver.id}-${i}`,
        createdAt: m.at,
        vehicleId: m.vehicle ?? null,
      });
    }
  });
}
