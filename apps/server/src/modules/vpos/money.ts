import { billingPeriod, refuse, serverMessages, splitPassage, STATEMENT_ORIGINS, VPO_OPEN_STATUSES } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import { nowIso, toIso } from '../../db/connection.js';
import { accountId, post, postGuardedDebit } from '../ledger/ledger.js';

/** A passage to pay: its tag, when it happened, its value, and the operator's push it came from. */
export interface PassageToPay {
  driverId: number;
  tagId: number;
  serialNumber: string;
  occurredAt: string;
  dueCents: number;
  placeName: string;
  /** On another platform's balance (SaldoTerceiro): no VPO pays it. */
  isThird: boolean;
  /** partner:<id>:passage:<externalId>, the idempotency key of the whole passage. */
  key: string;
  reference: string;
  /** Blocked for an unpaid fee (204): only a passage an open VPO with money left covers is taken (decision 53). */
  onlyWithVpo: boolean;
}

/** One account's part of a passage: the ledger entry that paid it (decision 56 gives back from these). */
export interface PassagePart {
  entryId: number;
  account: 'own' | 'third' | 'vpo';
  /** The VPO that paid this part; null for Saldo's (or SaldoTerceiro's). */
  vpoId: number | null;
  cents: number;
  duplicate: boolean;
}

export interface PassagePaid {
  /** The first entry of the passage (the push's answer id). */
  entryId: number;
  duplicate: boolean;
  parts: PassagePart[];
}

/**
 * The open VPOs of the tag whose window holds the instant, oldest first (decision 52): status
 * EMITIDO or EM_VIAGEM, the passage's instant inside [trip_start, trip_end], with or without money
 * left (an empty one still names the shortfall).
 */
export async function openVposAt(trx: Trx, driverId: number, serialNumber: string, at: string) {
  return trx
    .selectFrom('vpos')
    .select(['id', 'left_cents'])
    .where('serial_number', '=', serialNumber)
    .where('driver_id', '=', driverId)
    .where('status', 'in', [...VPO_OPEN_STATUSES])
    .where('trip_start', '<=', at)
    .where('trip_end', '>=', at)
    .orderBy('id')
    .execute();
}

/**
 * Decision 52: a passage is paid by the tag's open VPOs first (oldest first), each by a guarded
 * debit of its own share, so that no VPO goes below zero whatever runs beside it; what they cannot
 * pay comes from Saldo, marked as that VPO's shortfall. The caller holds the driver's lock, so a
 * VPO's close and a passage never interleave: the money ends in exactly one place.
 */
export async function payPassage(trx: Trx, passage: PassageToPay): Promise<PassagePaid> {
  const at = toIso(passage.occurredAt);
  const open = passage.isThird ? [] : await openVposAt(trx, passage.driverId, passage.serialNumber, at);
  if (passage.onlyWithVpo && !open.some((v) => Number(v.left_cents) > 0)) {
    throw refuse.conflict(serverMessages.partner.tagNotActiveForPassage);
  }
  const split = splitPassage(
    passage.dueCents,
    open.map((v) => ({ id: v.id, leftCents: Number(v.left_cents) })),
  );
  // Counted first: on the month's first passage the insert takes a key-share lock on the tag's row
  // (its foreign key), and it must come before the accounts' rows. The billing, an activation or a
  // release lock the tag, then debit the account; taken the other way round, a passage and they
  // would each wait for the other (a PostgreSQL deadlock, and the passage a 500).
  await countUsage(trx, passage.tagId, at, split.fromVpos.length > 0, split.fromSaldoCents > 0);
  const entries: PassagePart[] = [];
  const vpoAccount = split.fromVpos.length > 0 ? await accountId(trx, passage.driverId, 'vpo') : 0;
  for (const part of split.fromVpos) {
    const taken = await trx
      .updateTable('vpos')
      .set((eb) => ({
        left_cents: eb('left_cents', '-', part.cents),
        used_cents: eb('used_cents', '+', part.cents),
        updated_at: nowIso(),
      }))
      .where('id', '=', part.id)
      .where('left_cents', '>=', part.cents)
      .where('status', 'in', [...VPO_OPEN_STATUSES])
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw new Error(`VPO ${part.id} mudou sob a trava do motorista`);
    const debit = await postGuardedDebit(trx, {
      accountId: vpoAccount,
      amountCents: -part.cents,
      origin: STATEMENT_ORIGINS.vpoPassage,
      placeName: passage.placeName,
      reference: passage.reference,
      idempotencyKey: `${passage.key}:vpo:${part.id}`,
      createdAt: at,
      vpoId: part.id,
    });
    if (debit.status === 'insufficient')
      throw new Error(`Conta de VPOs do motorista ${passage.driverId} abaixo da parte do VPO ${part.id}`);
    entries.push({ entryId: debit.entryId, account: 'vpo', vpoId: part.id, cents: part.cents, duplicate: debit.status === 'duplicate' });
  }
  if (split.fromSaldoCents > 0) {
    const shortVpo = open.at(-1)?.id ?? null;
    const debit = await post(trx, {
      accountId: await accountId(trx, passage.driverId, passage.isThird ? 'third' : 'own'),
      amountCents: -split.fromSaldoCents,
      origin: STATEMENT_ORIGINS.passage,
      placeName: passage.placeName,
      isThird: passage.isThird,
      reference: passage.reference,
      idempotencyKey: passage.key,
      createdAt: at,
      vpoId: shortVpo,
    });
    entries.push({
      entryId: debit.entryId,
      account: passage.isThird ? 'third' : 'own',
      vpoId: null,
      cents: split.fromSaldoCents,
      duplicate: debit.status === 'duplicate',
    });
    if (shortVpo !== null && debit.status === 'posted') {
      await trx
        .updateTable('vpos')
        .set((eb) => ({ short_cents: eb('short_cents', '+', split.fromSaldoCents) }))
        .where('id', '=', shortVpo)
        .execute();
    }
  }
  const first = entries[0];
  if (!first) throw new Error('Passagem sem lançamento');
  return { entryId: first.entryId, duplicate: entries.every((e) => e.duplicate), parts: entries };
}

/** Decision 53: a tag's passages of the month, paid by VPO or not (the fee waiver reads them). */
async function countUsage(trx: Trx, tagId: number, at: string, byVpo: boolean, otherwise: boolean): Promise<void> {
  const period = billingPeriod(new Date(at));
  const vpo = byVpo ? 1 : 0;
  const other = otherwise ? 1 : 0;
  await trx
    .insertInto('tag_month_usage')
    .values({ tag_id: tagId, period, vpo_passages: vpo, other_passages: other })
    .onConflict((oc) =>
      oc.columns(['tag_id', 'period']).doUpdateSet((eb) => ({
        vpo_passages: eb('tag_month_usage.vpo_passages', '+', vpo),
        other_passages: eb('tag_month_usage.other_passages', '+', other),
      })),
    )
    .execute();
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
