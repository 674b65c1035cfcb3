import type { Trx } from '../../db/connection.js';
import { crossingNotices } from '../notifications/balance-crossings.js';
import type { NotificationOf } from '../notifications/outbox.js';
import { enqueueNotifications } from '../notifications/outbox.js';

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
 * Decision 57: passages' notifications, in their transaction and in one INSERT: each passage that
 * took money from a balance (a passage wholly paid by a VPO is not news), each VPO that ran short
 * (once per VPO), and each driver whose Saldo fell below their alert level or below zero with these
 * passages (once per crossing, not once per passage). Read after the debits: what the balance is
 * now, and what it was before them.
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
