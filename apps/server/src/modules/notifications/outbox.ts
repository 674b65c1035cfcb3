import type { DriverNotification } from '@portal/domain';
import type { Trx } from '../../db/connection.js';

export type { DriverNotification } from '@portal/domain';

/**
 * Decision 57: passages of one driver within this window are one notification. A passage's row
 * waits this long in the outbox; the drainer then sends every passage row of the driver at once.
 */
export const PASSAGE_GROUP_MS = 60_000;

/** One notification to record: for whom and what. */
export interface NotificationOf {
  driverId: number;
  notification: DriverNotification;
}

/** The event's name: recording the same event twice (an idempotent replay) keeps one row. */
function dedupeKeyOf(n: DriverNotification, driverId: number): string {
  switch (n.kind) {
    case 'passageDebited':
      return `${n.kind}:${n.passageId}`;
    case 'pixReceived':
      return `${n.kind}:${n.chargeId}`;
    case 'withdrawalDone':
    case 'withdrawalReturned':
      return `${n.kind}:${n.withdrawalId}`;
    case 'pixKeySaved':
      return `${n.kind}:${n.keyId}`;
    case 'balanceBelowAlert':
      return `${n.kind}:${n.entryId}`;
    case 'tagBlockedUnpaidFee':
      return `${n.kind}:${n.feeId}`;
    case 'vpoReceived':
    case 'vpoRunningShort':
      return `${n.kind}:${n.vpoId}`;
    case 'contestAnswered':
      return `${n.kind}:${n.contestId}`;
    case 'pixAutoCyclePaid':
    case 'pixAutoCycleFailed':
      return `${n.kind}:${n.cycleId}`;
    case 'pixAutoAuthorizationActive':
    case 'pixAutoAuthorizationCancelled':
      return `${n.kind}:${n.authorizationId}`;
    case 'profileChanged':
      return `${n.kind}:${n.changeId}`;
    case 'freeFlowToll':
      return `${n.kind}:${n.tollId}:${n.event}`;
    // The same event told to each of the company's people: one row each.
    case 'vehicleBudgetReached':
      return `${n.kind}:${n.vehicleId}:${n.period}:${n.percent}:${driverId}`;
    case 'vehicleBudgetBlocked':
      return `${n.kind}:${n.blockId}:${driverId}`;
  }
}

function rowOf({ driverId, notification }: NotificationOf, now: Date) {
  const due = notification.kind === 'passageDebited' ? new Date(now.getTime() + PASSAGE_GROUP_MS) : now;
  return {
    driver_id: driverId,
    kind: notification.kind,
    payload: JSON.stringify(notification),
    dedupe_key: dedupeKeyOf(notification, driverId),
    created_at: now.toISOString(),
    due_at: due.toISOString(),
  };
}

/**
 * Records the notifications of an event in the event's own transaction: a rolled-back event sends
 * nothing, a committed one is sent by the drainer (dispatcher.ts), never by the call that caused it.
 * One statement however many (a partner's batch of passages).
 */
export async function enqueueNotifications(trx: Trx, items: readonly NotificationOf[], now: Date = new Date()): Promise<void> {
  if (items.length === 0) return;
  await trx
    .insertInto('notification_outbox')
    .values(items.map((item) => rowOf(item, now)))
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}

/** Records one notification for the driver in the event's transaction (see enqueueNotifications). */
export async function enqueueNotification(
  trx: Trx,
  driverId: number,
  notification: DriverNotification,
  now: Date = new Date(),
): Promise<void> {
  await enqueueNotifications(trx, [{ driverId, notification }], now);
}
