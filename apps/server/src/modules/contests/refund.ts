import type { PassagePayment } from '@portal/domain';
import { refundOutOfRange, refuse, splitRefund, STATEMENT_ORIGINS, isVpoOpenStatus, refundableCents } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import { accountId, post, postGuardedDebit } from '../ledger/ledger.js';
import { paymentsOf } from '../passages/queries.js';
import { giveBackPayment } from '../passages/records.js';
import { CONTEST_REFERENCE } from './queries.js';

interface Refunded {
  contestId: number;
  driverId: number;
  passageId: number;
  placeName: string;
  cents: number;
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
    if (row.account === 'vpo' && row.vpo_id !== null) await backToVpo(trx, refund, row.vpo_id, share.cents, key);
    else await backToBalance(trx, refund, row.account === 'third', share.cents, key);
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
  });
}

async function backToVpo(trx: Trx, refund: Refunded, vpoId: number, cents: number, key: string) {
  const vpo = await trx
    .selectFrom('vpos')
    .innerJoin('partners', 'partners.id', 'vpos.partner_id')
    .select(['vpos.status', 'partners.name'])
    .where('vpos.id', '=', vpoId)
    .executeTakeFirstOrThrow();
  const open = isVpoOpenStatus(vpo.status);
  const moved = await trx
    .updateTable('vpos')
    .set((eb) =>
      open
        ? { used_cents: eb('used_cents', '-', cents), left_cents: eb('left_cents', '+', cents), updated_at: nowIso() }
        : { used_cents: eb('used_cents', '-', cents), refunded_cents: eb('refunded_cents', '+', cents), updated_at: nowIso() },
    )
    .where('id', '=', vpoId)
    .where('used_cents', '>=', cents)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new Error(`VPO ${vpoId} usou menos do que a devolução`);
  const vpoAccount = await accountId(trx, refund.driverId, 'vpo');
  await post(trx, {
    accountId: vpoAccount,
    amountCents: cents,
    origin: STATEMENT_ORIGINS.vpoPassageRefund,
    placeName: refund.placeName,
    reference: `${CONTEST_REFERENCE}${refund.contestId}`,
    idempotencyKey: key,
    vpoId,
  });
  if (open) return;
  const onward = await postGuardedDebit(trx, {
    accountId: vpoAccount,
    amountCents: -cents,
    origin: STATEMENT_ORIGINS.vpoRefund,
    placeName: vpo.name,
    reference: `${CONTEST_REFERENCE}${refund.contestId}`,
    idempotencyKey: `${key}:shipper`,
    vpoId,
  });
  if (onward.status === 'insufficient') throw new Error(`Conta de VPOs do motorista ${refund.driverId} sem a devolução do VPO ${vpoId}`);
}
