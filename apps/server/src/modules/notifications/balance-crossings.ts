import type { Trx } from '../../db/connection.js';
import { effectiveAlertCents } from '../settings/service.js';
import type { NotificationOf } from './outbox.js';
import { enqueueNotifications } from './outbox.js';

/** A debit of the driver's own balance (Saldo) just posted: what it took and its ledger entry. */
export interface OwnBalanceDebit {
  driverId: number;
  cents: number;
  entryId: number;
}

/**
 * Decision 57: each driver whose Saldo fell below their alert level (or below zero) with these
 * debits, told once per crossing; in the debits' transaction, after them. Passages and monthly fees
 * (modules/tags/fees.ts) both cross it.
 */
export async function enqueueBalanceCrossings(trx: Trx, debits: readonly OwnBalanceDebit[]): Promise<void> {
  const notices = await crossingNotices(trx, debits);
  if (notices.length > 0) await enqueueNotifications(trx, notices);
}

/** The crossings' notices, for a caller that sends them with its own in one INSERT. */
export async function crossingNotices(trx: Trx, ownDebits: readonly OwnBalanceDebit[]): Promise<NotificationOf[]> {
  const debits = new Map<number, { cents: number; entryId: number }>();
  for (const d of ownDebits) {
    const before = debits.get(d.driverId);
    debits.set(d.driverId, { cents: (before?.cents ?? 0) + d.cents, entryId: Math.max(before?.entryId ?? 0, d.entryId) });
  }
  if (debits.size === 0) return [];
  const rows = await trx
    .selectFrom('accounts')
    .innerJoin('drivers', 'drivers.id', 'accounts.driver_id')
    .select(['accounts.driver_id', 'accounts.balance_cents', 'drivers.balance_alert_cents'])
    .where('accounts.driver_id', 'in', [...debits.keys()])
    .where('accounts.kind', '=', 'own')
    .execute();
  const notices: NotificationOf[] = [];
  for (const row of rows) {
    const debit = debits.get(row.driver_id);
    if (!debit) continue;
    const after = Number(row.balance_cents);
    const before = after + debit.cents;
    const alert = effectiveAlertCents(row.balance_alert_cents);
    const crossed = (before >= alert && after < alert) || (before >= 0 && after < 0);
    if (crossed) {
      notices.push({
        driverId: row.driver_id,
        notification: { kind: 'balanceBelowAlert', entryId: debit.entryId, balanceCents: after, alertCents: alert },
      });
    }
  }
  return notices;
}
