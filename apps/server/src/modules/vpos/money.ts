import { STATEMENT_ORIGINS } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import { accountId, post, postGuardedDebit } from '../ledger/ledger.js';

/**
 * Issuing: the VPO's value enters the driver's VPO account (never Saldo), as a credit tagged with
 * the VPO, dated when issued, or at the trip's start when that was earlier: the passages it pays
 * are never dated before the money that paid them.
 */
export async function holdVpoMoney(
  trx: Trx,
  vpo: { id: number; driverId: number; valueCents: number; shipperName: string; tripStart: Date },
): Promise<void> {
  const now = new Date();
  await post(trx, {
    createdAt: (vpo.tripStart < now ? vpo.tripStart : now).toISOString(),
    accountId: await accountId(trx, vpo.driverId, 'vpo'),
    amountCents: vpo.valueCents,
    origin: STATEMENT_ORIGINS.vpoIssued,
    placeName: vpo.shipperName,
    reference: `vpo:${vpo.id}`,
    idempotencyKey: `vpo:${vpo.id}:issued`,
    vpoId: vpo.id,
    vehicleId: await vehicleOfVpo(trx, vpo.id),
  });
}

/**
 * Closing or cancelling: what is left goes back to the shipper, a recorded movement out of the
 * VPO account (never to Saldo); the VPO's share drops to zero in the same statement. Runs under
 * the driver's lock, in the transaction that moves the status.
 */
export async function refundVpoMoney(trx: Trx, vpo: { id: number; driverId: number; shipperName: string }): Promise<number> {
  const row = await trx.selectFrom('vpos').select('left_cents').where('id', '=', vpo.id).executeTakeFirstOrThrow();
  const left = Number(row.left_cents);
  if (left === 0) return 0;
  const moved = await trx
    .updateTable('vpos')
    .set((eb) => ({ left_cents: 0, refunded_cents: eb('refunded_cents', '+', left) }))
    .where('id', '=', vpo.id)
    .where('left_cents', '=', left)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new Error(`VPO ${vpo.id} mudou sob a trava do motorista`);
  const debit = await postGuardedDebit(trx, {
    accountId: await accountId(trx, vpo.driverId, 'vpo'),
    amountCents: -left,
    origin: STATEMENT_ORIGINS.vpoRefund,
    placeName: vpo.shipperName,
    reference: `vpo:${vpo.id}`,
    idempotencyKey: `vpo:${vpo.id}:refund`,
    vpoId: vpo.id,
    vehicleId: await vehicleOfVpo(trx, vpo.id),
  });
  if (debit.status !== 'posted') throw new Error(`Devolução do VPO ${vpo.id}: ${debit.status}`);
  return left;
}

/**
 * Decision 79: the trip's vehicle, the driver's newest vehicle of the VPO's plate (its money is for
 * that vehicle's trip); null when the plate is not registered on the account.
 */
async function vehicleOfVpo(trx: Trx, vpoId: number): Promise<number | null> {
  const row = await trx
    .selectFrom('vpos as o')
    .innerJoin('vehicles as v', (join) => join.onRef('v.driver_id', '=', 'o.driver_id').onRef('v.license_plate', '=', 'o.plate'))
    .select((eb) => eb.fn.max('v.id').as('id'))
    .where('o.id', '=', vpoId)
    .executeTakeFirst();
  return row?.id ?? null;
}
