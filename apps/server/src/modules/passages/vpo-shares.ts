import { isVpoOpenStatus, STATEMENT_ORIGINS, VPO_OPEN_STATUSES } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import { nowIso, toIso } from '../../db/connection.js';
import { accountId, post, postGuardedDebit } from '../ledger/ledger.js';

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

/** What each VPO pays of the passages, by a guarded UPDATE: none goes below zero whatever ran before. */
export async function takeFromVpos(trx: Trx, shares: readonly { vpoId: number; cents: number }[]): Promise<void> {
  for (const [id, cents] of [...sumByVpo(shares)].sort((a, b) => a[0] - b[0])) {
    const moved = await trx
      .updateTable('vpos')
      .set((eb) => ({ left_cents: eb('left_cents', '-', cents), used_cents: eb('used_cents', '+', cents), updated_at: nowIso() }))
      .where('id', '=', id)
      .where('left_cents', '>=', cents)
      .where('status', 'in', [...VPO_OPEN_STATUSES])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new Error(`VPO ${id} mudou sob a trava do motorista`);
  }
}

/** Decision 52: what Saldo paid because each VPO ran short. */
export async function addShortfalls(trx: Trx, shortfalls: readonly { vpoId: number; cents: number }[]): Promise<void> {
  for (const [id, cents] of sumByVpo(shortfalls)) {
    await trx
      .updateTable('vpos')
      .set((eb) => ({ short_cents: eb('short_cents', '+', cents) }))
      .where('id', '=', id)
      .execute();
  }
}

function sumByVpo(shares: readonly { vpoId: number; cents: number }[]): Map<number, number> {
  const sums = new Map<number, number>();
  for (const s of shares) sums.set(s.vpoId, (sums.get(s.vpoId) ?? 0) + s.cents);
  return sums;
}

/** A share of a passage or a toll that a VPO paid, going back (decision 56, decision 76). */
export interface VpoGiveBack {
  driverId: number;
  vpoId: number;
  cents: number;
  /** The ledger's idempotency key of the entry back to the VPO (the onward one adds ':shipper'). */
  key: string;
  reference: string;
  placeName: string;
  origin: string;
  /** Decision 79: the vehicle the share was paid for. */
  vehicleId: number | null;
}

/**
 * A VPO still open gets its share back to spend on the trip; a closed one sends it on to the
 * shipper (a credit and the same value out as 'devolucao-vpo', its refunded money grows). The
 * share moves by a conditional UPDATE and every entry is keyed, so a retry moves nothing twice.
 */
export async function giveBackToVpo(trx: Trx, back: VpoGiveBack): Promise<void> {
  const vpo = await trx
    .selectFrom('vpos')
    .innerJoin('partners', 'partners.id', 'vpos.partner_id')
    .select(['vpos.status', 'partners.name'])
    .where('vpos.id', '=', back.vpoId)
    .executeTakeFirstOrThrow();
  const open = isVpoOpenStatus(vpo.status);
  const cents = back.cents;
  const moved = await trx
    .updateTable('vpos')
    .set((eb) =>
      open
        ? { used_cents: eb('used_cents', '-', cents), left_cents: eb('left_cents', '+', cents), updated_at: nowIso() }
        : { used_cents: eb('used_cents', '-', cents), refunded_cents: eb('refunded_cents', '+', cents), updated_at: nowIso() },
    )
    .where('id', '=', back.vpoId)
    .where('used_cents', '>=', cents)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new Error(`VPO ${back.vpoId} usou menos do que a devolução`);
  const vpoAccount = await accountId(trx, back.driverId, 'vpo');
  await post(trx, {
    accountId: vpoAccount,
    amountCents: cents,
    origin: back.origin,
    placeName: back.placeName,
    reference: back.reference,
    idempotencyKey: back.key,
    vpoId: back.vpoId,
    vehicleId: back.vehicleId,
  });
  if (open) return;
  const onward = await postGuardedDebit(trx, {
    accountId: vpoAccount,
    amountCents: -cents,
    origin: STATEMENT_ORIGINS.vpoRefund,
    placeName: vpo.name,
    reference: back.reference,
    idempotencyKey: `${back.key}:shipper`,
    vpoId: back.vpoId,
    vehicleId: back.vehicleId,
  });
  if (onward.status === 'insufficient') throw new Error(`Conta de VPOs do motorista ${back.driverId} sem a devolução do VPO ${back.vpoId}`);
}

/** The open VPOs of a driver's plate whose trip window holds the instant, oldest first (decision 76: VPOs by plate). */
export async function openVposOfPlate(trx: Trx, driverId: number, plate: string, at: number): Promise<OpenVpo[]> {
  const rows = await trx
    .selectFrom('vpos')
    .select(['id', 'serial_number', 'driver_id', 'left_cents', 'trip_start', 'trip_end'])
    .where('driver_id', '=', driverId)
    .where('plate', '=', plate)
    .where('status', 'in', [...VPO_OPEN_STATUSES])
    .where('trip_start', 'is not', null)
    .orderBy('id')
    .execute();
  return rows
    .map((r) => ({
      id: r.id,
      serial: r.serial_number,
      driverId: r.driver_id,
      left: Number(r.left_cents),
      start: Date.parse(toIso(r.trip_start ?? '')),
      end: Date.parse(toIso(r.trip_end ?? '')),
    }))
    .filter((v) => v.start <= at && at <= v.end);
}
