import { STATEMENT_ORIGINS, VPO_OPEN_STATUSES } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import { toIso } from '../../db/connection.js';
import { accountId, post, postGuardedDebit } from '../ledger/ledger.js';

/** One account's part of a passage: the ledger entry that paid it (decision 56 gives back from these). */
export interface PassagePart {
  entryId: number;
  account: 'own' | 'third' | 'vpo';
  /** The VPO that paid this part; null for Saldo's (or SaldoTerceiro's). */
  vpoId: number | null;
  cents: number;
  duplicate: boolean;
}

/** An open VPO (decision 52: EMITIDO or EM_VIAGEM, with a trip window) and the money it has left. */
export interface OpenVpo {
  id: number;
  serial: string;
  driverId: number;
  left: number;
  /** Its window, [start, end], in milliseconds. */
  start: number;
  end: number;
}

/**
 * The open VPOs of the serials, oldest first (the order they pay in), with or without money left
 * (an empty one still names the shortfall). A VPO from before migration 014 has no window: none.
 */
export async function openVposOf(trx: Trx, serials: readonly string[]): Promise<OpenVpo[]> {
  if (serials.length === 0) return [];
  const rows = await trx
    .selectFrom('vpos')
    .select(['id', 'serial_number', 'driver_id', 'left_cents', 'trip_start', 'trip_end'])
    .where('serial_number', 'in', [...new Set(serials)])
    .where('status', 'in', [...VPO_OPEN_STATUSES])
    .where('trip_start', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    serial: r.serial_number,
    driverId: r.driver_id,
    left: Number(r.left_cents),
    start: Date.parse(toIso(r.trip_start ?? '')),
    end: Date.parse(toIso(r.trip_end ?? '')),
  }));
}

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
  });
  if (debit.status !== 'posted') throw new Error(`Devolução do VPO ${vpo.id}: ${debit.status}`);
  return left;
}
