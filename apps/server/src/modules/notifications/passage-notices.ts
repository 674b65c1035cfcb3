import type { Trx } from '../../db/connection.js';
import { effectiveAlertCents } from '../settings/service.js';
import type { NotificationOf } from './outbox.js';
import { enqueueNotifications } from './outbox.js';

/** A passage recorded now, with what it took from the driver's balances (not from a VPO). */
export interface DebitedPassage {
  driverId: number;
  passageId: number;
  place: string;
  /** ISO instant of the passage. */
  at: string;
  /** Taken from Saldo (own) and SaldoTerceiro (third). */
  ownCents: number;
  thirdCents: number;
  /** The ledger entry of the Saldo part (null when none): the one that may cross the alert level. */
  ownEntryId: number | null;
  /** The VPO that ran short for it (decision 52), and what Saldo paid because of that. */
  shortVpoId: number | null;
}

/**
 * Decision 57: a chunk of passages' notifications, in the chunk's transaction and in one INSERT:
 * each passage that took money from a balance (a passage wholly paid by a VPO is not news), each
 * VPO that ran short (once per VPO), and each driver whose Saldo fell below their alert level or
 * below zero with this chunk (once per crossing, not once per passage). Read after the chunk's
 * debits: what the balance is now, and what it was before them.
 */
export async function enqueuePassageNotices(trx: Trx, passages: readonly DebitedPassage[]): Promise<void> {
  const notices: NotificationOf[] = [];
  for (const p of passages) {
    const cents = p.ownCents + p.thirdCents;
    if (cents <= 0) continue;
    notices.push({
      driverId: p.driverId,
      notification: { kind: 'passageDebited', passageId: p.passageId, place: p.place, amountCents: cents, at: p.at },
    });
  }
  const debits = passages.flatMap((p) =>
    p.ownCents > 0 && p.ownEntryId !== null ? [{ driverId: p.driverId, cents: p.ownCents, entryId: p.ownEntryId }] : [],
  );
  notices.push(...(await shortVpoNotices(trx, passages)), ...(await crossingNotices(trx, debits)));
  await enqueueNotifications(trx, notices);
}

/** A debit of Saldo just posted: what it took and its ledger entry. */
export interface SaldoDebit {
  driverId: number;
  cents: number;
  entryId: number;
}

/**
 * Decision 57: each driver whose Saldo fell below their alert level (or below zero) with these
 * debits, told once per crossing; in the debits' transaction, after them. Passages and monthly fees
 * (modules/tags/fees.ts) both cross it.
 */
export async function enqueueBalanceCrossings(trx: Trx, debits: readonly SaldoDebit[]): Promise<void> {
  const notices = await crossingNotices(trx, debits);
  if (notices.length > 0) await enqueueNotifications(trx, notices);
}

async function shortVpoNotices(trx: Trx, passages: readonly DebitedPassage[]): Promise<NotificationOf[]> {
  const short = new Map<number, number>();
  for (const p of passages) {
    if (p.shortVpoId !== null && p.ownCents + p.thirdCents > 0)
      short.set(p.shortVpoId, (short.get(p.shortVpoId) ?? 0) + p.ownCents + p.thirdCents);
  }
  if (short.size === 0) return [];
  const vpos = await trx
    .selectFrom('vpos')
    .innerJoin('partners', 'partners.id', 'vpos.partner_id')
    .select(['vpos.id', 'vpos.driver_id', 'partners.name'])
    .where('vpos.id', 'in', [...short.keys()])
    .execute();
  return vpos.map((v) => ({
    driverId: v.driver_id,
    notification: { kind: 'vpoRunningShort', vpoId: v.id, shipper: v.name, paidFromBalanceCents: short.get(v.id) ?? 0 },
  }));
}

async function crossingNotices(trx: Trx, saldoDebits: readonly SaldoDebit[]): Promise<NotificationOf[]> {
  const debits = new Map<number, { cents: number; entryId: number }>();
  for (const d of saldoDebits) {
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
