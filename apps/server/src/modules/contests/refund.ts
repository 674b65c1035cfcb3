import type { PassagePayment } from '@portal/domain';
import { refundOutOfRange, refuse, splitRefund, STATEMENT_ORIGINS, refundableCents } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import { accountId, post } from '../ledger/ledger.js';
import { paymentsOf } from '../passages/queries.js';
import { giveBackPayment } from '../passages/records.js';
import { giveBackToVpo } from '../passages/vpo-shares.js';
import { CONTEST_REFERENCE } from './queries.js';

interface Refunded {
  contestId: number;
  driverId: number;
  passageId: number;
  placeName: string;
  cents: number;
  /** Decision 79: the passage's vehicle. */
  vehicleId: number | null;
}

/**
 * Decision 56: an accepted contest gives `cents` back, once, to the accounts that paid the passage,
 * in the reverse of the order they paid (domain splitRefund): Saldo or SaldoTerceiro first, then
 * the VPOs. A VPO still open gets its share back to spend on the trip; a closed one sends it on to
 * the shipper (a credit and the same value out as 'devolucao-vpo', its refunded money grows). Every
 * entry is keyed by the contest and the payment, and every share moves by a conditional UPDATE, so
 * a retry or a twin answer moves nothing twice. The caller holds the driver's lock.
 */
export async function refundPassage(trx: Trx, refund: Refunded): Promise<void> {
  const rows = await paymentsOf(trx, refund.passageId);
  const payments: PassagePayment[] = rows.map((r) => ({
    account: r.account,
    vpoId: r.vpo_id,
    paidCents: Number(r.paid_cents),
    refundedCents: Number(r.refunded_cents),
  }));
  const shares = splitRefund(refund.cents, payments);
  if (!shares) throw refuse.invalid(refundOutOfRange(refundableCents(payments)), 'valor');
  for (const share of shares) {
    const row = rows[share.index];
    if (!row) continue;
    await giveBackPayment(trx, row.id, share.cents);
    const key = `${CONTEST_REFERENCE}${refund.contestId}:refund:${row.id}`;
    if (row.account === 'vpo' && row.vpo_id !== null) {
      await giveBackToVpo(trx, {
        driverId: refund.driverId,
        vpoId: row.vpo_id,
        cents: share.cents,
        key,
        reference: `${CONTEST_REFERENCE}${refund.contestId}`,
        placeName: refund.placeName,
        origin: STATEMENT_ORIGINS.vpoPassageRefund,
        vehicleId: refund.vehicleId,
      });
    } else await backToBalance(trx, refund, row.account === 'third', share.cents, key);
  }
}

async function backToBalance(trx: Trx, refund: Refunded, isThird: boolean, cents: number, key: string) {
  await post(trx, {
    accountId: await accountId(trx, refund.driverId, isThird ? 'third' : 'own'),
    amountCents: cents,
    origin: STATEMENT_ORIGINS.passageRefund,
    placeName: refund.placeName,
    isThird,
    reference: `${CONTEST_REFERENCE}${refund.contestId}`,
    idempotencyKey: key,
    vehicleId: refund.vehicleId,
  });
}
