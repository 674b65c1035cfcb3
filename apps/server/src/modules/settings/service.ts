import { DEFAULT_BALANCE_ALERT_CENTS } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The level a driver's stored choice stands for: theirs, or the default until they choose (migration 011). */
export function effectiveAlertCents(stored: number | null | undefined): number {
  return stored === null || stored === undefined ? DEFAULT_BALANCE_ALERT_CENTS : Number(stored);
}

/** The driver's balance alert level in centavos. */
async function balanceAlertCents(db: Kysely<Database>, driverId: number): Promise<number> {
  const row = await db.selectFrom('drivers').select('balance_alert_cents').where('id', '=', driverId).executeTakeFirst();
  return effectiveAlertCents(row?.balance_alert_cents);
}

/** Saves the level (already validated by the contract): saving the same value twice changes nothing. */
async function saveBalanceAlertCents(db: Kysely<Database>, driverId: number, cents: number): Promise<void> {
  await db.updateTable('drivers').set({ balance_alert_cents: cents }).where('id', '=', driverId).execute();
}

/** The driver's preferences: the balance alert level (built once in services.ts). */
export class SettingsService {
  constructor(private readonly db: Kysely<Database>) {}

  alertCents(driverId: number): Promise<number> {
    return balanceAlertCents(this.db, driverId);
  }

  saveAlertCents(driverId: number, cents: number): Promise<void> {
    return saveBalanceAlertCents(this.db, driverId, cents);
  }
}
