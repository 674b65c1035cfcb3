import { randomBytes } from 'node:crypto';
import { freeFlowInsufficientText, freeFlowMessages, refuse, splitPassage, STATEMENT_ORIGINS } from '@portal/domain';
import type { Dialect, Trx } from '../../../db/connection.js';
import { toIso } from '../../../db/connection.js';
import { lockDriver } from '../../../db/lock.js';
import { accountId, post, postGuardedDebit } from '../../ledger/ledger.js';
import { enqueueNotification } from '../../notifications/outbox.js';
import { giveBackToVpo, openVposOfPlate, takeFromVpos } from '../vpo-shares.js';
import { closedOpen, moveTotals } from './totals.js';
import { TermsService } from '../../terms/service.js';

/** 'manual': the driver tapped 'Pagar'; 'auto': 'Pagar automaticamente' on arrival or when money arrives. */
export type PayMode = 'manual' | 'auto';

/** What became of a payment: paid now, paid before, withdrawn, Saldo short (automatic), or left to the driver (flagged, contested). */
export type PayOutcome = 'paid' | 'alreadyPaid' | 'cancelled' | 'short' | 'leftToDriver';

/** The ledger's keys and references of a toll's entries. */
const TOLL_REFERENCE = 'toll:';

/** The place the statement and the receipt name: the gantry, its highway and km, the plate. */
export function tollPlace(t: { gantry: string; highway: string; km_milli: number; plate: string }): string {
  const km = (Number(t.km_milli) / 1000).toLocaleString('pt-BR', { maximumFractionDigits: 3 });
  return `${t.gantry}, ${t.highway} km ${km} (${t.plate})`;
}

/** A payment's authentication, printed on its receipt: 20 characters from 100 random bits. */
function authentication(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(20);
  let text = '';
  for (const byte of bytes) text += alphabet[byte % alphabet.length];
  return text.replace(/(.{5})(?=.)/g, '$1-');
}

async function lockedToll(trx: Trx, tollId: number) {
  return trx.selectFrom('free_flow_tolls').selectAll().where('id', '=', tollId).executeTakeFirst();
}

/**
 * Decision 76: pays a toll once, under the driver's lock: an open VPO of the plate whose trip holds
 * the passage pays first (decision 52, VPOs by plate), the rest is a guarded debit of Saldo (never
 * below zero: a toll is not a tag passage the operator already let through). Every entry is keyed
 * by the toll, the toll's row moves by a conditional UPDATE: two taps, two devices, an automatic
 * payment beside a manual one, all pay once. Automatic payment leaves a flagged or contested toll
 * to the driver, and marks one Saldo cannot cover as awaiting money (told once).
 */
export async function payToll(trx: Trx, dialect: Dialect, driverId: number, tollId: number, mode: PayMode, now: Date): Promise<PayOutcome> {
  await lockDriver(trx, dialect, driverId);
  const toll = await lockedToll(trx, tollId);
  if (!toll || toll.driver_id !== driverId) throw refuse.notFound(freeFlowMessages.notFound);
  if (toll.cancelled_at !== null) return 'cancelled';
  if (toll.paid_at !== null) return 'alreadyPaid';
  if (mode === 'auto' && toll.flag !== null) return 'leftToDriver';
  if (mode === 'auto' && (await openContest(trx, tollId))) return 'leftToDriver';
  // The terms refused: nothing is taken from Saldo without the driver asking (founding decision 27).
  if (mode === 'auto' && (await new TermsService(trx).status(driverId))?.action !== 'aceite') return 'leftToDriver';
  const amount = Number(toll.amount_cents);
  const place = tollPlace(toll);
  const vpos = await openVposOfPlate(trx, driverId, toll.plate, Date.parse(toIso(toll.occurred_at)));
  const split = splitPassage(
    amount,
    vpos.map((v) => ({ id: v.id, leftCents: v.left })),
  );
  const key = `${TOLL_REFERENCE}${tollId}`;
  const paidAt = now.toISOString();
  const payments: { entryId: number; account: 'own' | 'vpo'; vpoId: number | null; cents: number }[] = [];
  if (split.fromSaldoCents > 0) {
    const debit = await postGuardedDebit(trx, {
      accountId: await accountId(trx, driverId, 'own'),
      amountCents: -split.fromSaldoCents,
      origin: STATEMENT_ORIGINS.freeFlowToll,
      placeName: place,
      reference: key,
      idempotencyKey: `${key}:saldo`,
      createdAt: paidAt,
      vehicleId: toll.vehicle_id,
    });
    if (debit.status === 'insufficient') {
      if (mode === 'manual') throw refuse.conflict(freeFlowInsufficientText(split.fromSaldoCents, toll.due_day));
      await markAwaiting(trx, toll, now);
      return 'short';
    }
    payments.push({ entryId: debit.entryId, account: 'own', vpoId: null, cents: split.fromSaldoCents });
  }
  if (split.fromVpos.length > 0) {
    await takeFromVpos(
      trx,
      split.fromVpos.map((p) => ({ vpoId: p.id, cents: p.cents })),
    );
    const vpoAccount = await accountId(trx, driverId, 'vpo');
    for (const part of split.fromVpos) {
      const entry = await post(trx, {
        accountId: vpoAccount,
        amountCents: -part.cents,
        origin: STATEMENT_ORIGINS.freeFlowTollVpo,
        placeName: place,
        reference: key,
        idempotencyKey: `${key}:vpo:${part.id}`,
        createdAt: paidAt,
        vpoId: part.id,
        vehicleId: toll.vehicle_id,
      });
      payments.push({ entryId: entry.entryId, account: 'vpo', vpoId: part.id, cents: part.cents });
    }
  }
  await trx
    .insertInto('free_flow_payments')
    .values(payments.map((p) => ({ toll_id: tollId, entry_id: p.entryId, account: p.account, vpo_id: p.vpoId, paid_cents: p.cents })))
    .execute();
  const moved = await trx
    .updateTable('free_flow_tolls')
    .set({ paid_at: paidAt, paid_cents: amount, authentication: authentication(), awaiting_balance: 0 })
    .where('id', '=', tollId)
    .where('paid_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new Error(`Pedágio sem cancela ${tollId} mudou sob a trava do motorista`);
  await moveTotals(trx, [closedOpen(toll)]);
  if (mode === 'auto') {
    await enqueueNotification(trx, driverId, {
      kind: 'freeFlowToll',
      tollId,
      event: 'paid',
      payer: split.fromVpos.length === 0 ? 'SALDO' : split.fromSaldoCents === 0 ? 'VPO' : 'VPO_E_SALDO',
      plate: toll.plate,
      gantry: toll.gantry,
      amountCents: amount,
      dueDay: toll.due_day,
    });
  }
  return 'paid';
}

async function openContest(trx: Trx, tollId: number): Promise<boolean> {
  const row = await trx.selectFrom('contests').select('id').where('toll_id', '=', tollId).where('state', '=', 'ABERTA').executeTakeFirst();
  return row !== undefined;
}

/** Saldo did not cover an automatic payment: marked to be paid when money arrives, the driver told once. */
async function markAwaiting(trx: Trx, toll: NonNullable<Awaited<ReturnType<typeof lockedToll>>>, now: Date): Promise<void> {
  if (toll.awaiting_balance === 1) return;
  await trx.updateTable('free_flow_tolls').set({ awaiting_balance: 1 }).where('id', '=', toll.id).execute();
  await enqueueNotification(
    trx,
    toll.driver_id,
    {
      kind: 'freeFlowToll',
      tollId: toll.id,
      event: 'short',
      plate: toll.plate,
      gantry: toll.gantry,
      amountCents: Number(toll.amount_cents),
      dueDay: toll.due_day,
    },
    now,
  );
}

/**
 * Decision 76: a toll withdrawn by its concessionaire, or given up by an accepted contest: marked
 * cancelled once (a conditional UPDATE) and, when the portal had paid it, every part given back to
 * what paid it (Saldo, or the VPO: open, to spend on the trip; closed, on to the shipper), each
 * entry keyed by the toll and the payment. The caller holds the driver's lock. False when it was
 * cancelled already (nothing moves again).
 */
export async function cancelToll(trx: Trx, tollId: number, reference: string, now: Date): Promise<boolean> {
  const toll = await lockedToll(trx, tollId);
  if (!toll) return false;
  const cancelled = await trx
    .updateTable('free_flow_tolls')
    .set({ cancelled_at: now.toISOString(), awaiting_balance: 0 })
    .where('id', '=', tollId)
    .where('cancelled_at', 'is', null)
    .executeTakeFirst();
  if (Number(cancelled.numUpdatedRows) !== 1) return false;
  if (toll.paid_at === null) await moveTotals(trx, [closedOpen(toll)]);
  const payments = await trx.selectFrom('free_flow_payments').selectAll().where('toll_id', '=', tollId).orderBy('id').execute();
  const place = tollPlace(toll);
  for (const payment of payments) {
    const cents = Number(payment.paid_cents) - Number(payment.refunded_cents);
    if (cents <= 0) continue;
    const key = `${TOLL_REFERENCE}${tollId}:refund:${payment.id}`;
    await trx
      .updateTable('free_flow_payments')
      .set({ refunded_cents: Number(payment.paid_cents) })
      .where('id', '=', payment.id)
      .execute();
    if (payment.account === 'vpo' && payment.vpo_id !== null) {
      await giveBackToVpo(trx, {
        driverId: toll.driver_id,
        vpoId: payment.vpo_id,
        cents,
        key,
        reference,
        placeName: place,
        origin: STATEMENT_ORIGINS.freeFlowVpoRefund,
        vehicleId: toll.vehicle_id,
      });
    } else {
      await post(trx, {
        accountId: await accountId(trx, toll.driver_id, 'own'),
        amountCents: cents,
        origin: STATEMENT_ORIGINS.freeFlowRefund,
        placeName: place,
        reference,
        idempotencyKey: key,
        vehicleId: toll.vehicle_id,
      });
    }
  }
  return true;
}

/** The driver's lock, then cancelToll: the concessionaire's DELETE. */
export async function withdrawToll(trx: Trx, dialect: Dialect, driverId: number, tollId: number, now: Date): Promise<boolean> {
  await lockDriver(trx, dialect, driverId);
  return cancelToll(trx, tollId, `${TOLL_REFERENCE}${tollId}`, now);
}
