import type { PushPayload } from '@portal/contract';
import { pushPayload } from '@portal/contract';
import type { DriverNotification, LiveTopic, NotificationMessage, PassageNotice } from '@portal/domain';
import { liveTopicsOf, notificationMessage, passagesMessage } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import { scheduleRuns } from '../../schedule.js';
import type { PushConfig } from '../../config.js';
import { ADVISORY_LOCKS, tryAdvisoryLock } from '../../db/advisory-lock.js';
import type { Db } from '../../db/connection.js';
import type { Metrics } from '../../metrics.js';
import type { PushAnswer, PushMessage, PushSender } from './sender.js';
import type { VapidKeyStore, VapidKeys } from './vapid.js';

export interface DrainReport {
  /** Notifications handled (a group of passages is one). */
  notifications: number;
  /** Push requests answered 2xx. */
  sent: number;
  /** Push requests that failed and will be retried. */
  failed: number;
  /** Subscriptions the push service no longer knows (404/410): deleted. */
  gone: number;
  /** Notifications given up after the last attempt. */
  gaveUp: number;
  /** Another instance is draining: this one did nothing. */
  runningElsewhere?: true;
}

/** The first retry waits this long, each next one twice as long, up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 3_600_000;
/** Rows read per statement, and statements per pass: a pass ends even while rows keep arriving. */
const BATCH = 500;
const BATCHES_PER_PASS = 20;
/** Devices reached at once. */
const PARALLEL_SENDS = 8;
/** How long a push service keeps a message for a device that is offline. */
const TTL_SECONDS = 86_400;
/** What the driver must see at once even on a phone saving battery. */
const URGENT: ReadonlySet<DriverNotification['kind']> = new Set([
  'balanceBelowAlert',
  'tagBlockedUnpaidFee',
  'pixKeySaved',
  'withdrawalReturned',
  'pixAutoCycleFailed',
  'vehicleBudgetBlocked',
]);

interface OutboxRow {
  id: number;
  driver_id: number;
  kind: string;
  payload: string;
  attempts: number;
  delivered: string | null;
}

interface Subscription {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** One send: one notification row, or every waiting passage row of a driver. */
interface Group {
  driverId: number;
  rows: OutboxRow[];
  message: NotificationMessage;
  /** What the rows' events changed: the open app reads those screens again (issue 33). */
  topics: LiveTopic[];
  urgent: boolean;
}

const OUTBOX_COLUMNS = ['id', 'driver_id', 'kind', 'payload', 'attempts', 'delivered'] as const;

function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/** The subscribed devices of these drivers, in one read (a driver without any is absent). */
async function devicesOf(db: Db, driverIds: readonly number[]): Promise<Map<number, Subscription[]>> {
  const rows = await db.kysely
    .selectFrom('push_subscriptions')
    .select(['id', 'driver_id', 'endpoint', 'p256dh', 'auth'])
    .where('driver_id', 'in', driverIds)
    .orderBy('id')
    .execute();
  const byDriver = new Map<number, Subscription[]>();
  for (const { driver_id: driverId, ...device } of rows) byDriver.set(driverId, [...(byDriver.get(driverId) ?? []), device]);
  return byDriver;
}

function deliveredOf(row: OutboxRow): Set<number> {
  if (!row.delivered) return new Set();
  const ids: unknown = JSON.parse(row.delivered);
  return new Set(Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : []);
}

/**
 * Decision 57: drains the notification outbox. One instance at a time (PostgreSQL advisory lock; a
 * second returns at once), so a notification is never sent twice by two instances; each due row is
 * sent to every device of its driver, then marked sent. A failure waits (exponential backoff) and is
 * retried, only to the devices not yet reached, up to maxAttempts; a 404/410 deletes the device's
 * subscription. A driver's passages waiting together are one notification.
 */
export class PushDispatcher {
  constructor(
    private readonly db: Db,
    private readonly keys: VapidKeyStore,
    private readonly sender: PushSender,
    private readonly config: PushConfig,
    private readonly metrics: Metrics,
    private readonly log: FastifyBaseLogger,
  ) {}

  async drain(now: Date = new Date()): Promise<DrainReport> {
    const done = await tryAdvisoryLock(this.db, ADVISORY_LOCKS.pushOutbox, (locked) => this.drainLocked(locked, now));
    return done ? done.value : { notifications: 0, sent: 0, failed: 0, gone: 0, gaveUp: 0, runningElsewhere: true };
  }

  /**
   * The in-process loop (app.ts, from ready to close): a pass every intervalMs, never two at once in
   * one process. The returned stop waits for a pass under way, so the database outlives it.
   */
  schedule(intervalMs: number, now: () => Date = () => new Date()): () => Promise<void> {
    return scheduleRuns(() => this.drain(now()), { intervalMs, log: this.log, failure: 'falha ao enviar as notificações push' });
  }

  private async drainLocked(db: Db, now: Date): Promise<DrainReport> {
    const report: DrainReport = { notifications: 0, sent: 0, failed: 0, gone: 0, gaveUp: 0 };
    const nowIso = now.toISOString();
    for (let batch = 0; batch < BATCHES_PER_PASS; batch++) {
      const due = await db.kysely
        .selectFrom('notification_outbox')
        .select(OUTBOX_COLUMNS)
        .where('sent_at', 'is', null)
        .where('gave_up_at', 'is', null)
        .where('due_at', '<=', nowIso)
        .orderBy('due_at')
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (due.length === 0) break;
      const devices = await devicesOf(db, [...new Set(due.map((r) => r.driver_id))]);
      // Most drivers have no device: their rows are done in one statement, nothing to send.
      const nobody = due.filter((r) => !devices.has(r.driver_id)).map((r) => r.id);
      if (nobody.length > 0) {
        await db.kysely.updateTable('notification_outbox').set({ sent_at: nowIso }).where('id', 'in', nobody).execute();
        this.metrics.pushResult('no_subscription', nobody.length);
      }
      const groups = await this.groupsOf(
        db,
        due.filter((r) => devices.has(r.driver_id)),
      );
      if (groups.length > 0) {
        const keys = await this.keys.get();
        for (let i = 0; i < groups.length; i += PARALLEL_SENDS) {
          await Promise.all(
            groups
              .slice(i, i + PARALLEL_SENDS)
              .map((group) => this.sendGroup(db, keys, group, devices.get(group.driverId) ?? [], now, report)),
          );
        }
      }
      if (due.length < BATCH) break;
    }
    if (report.notifications > 0) this.log.info(report, 'notificações push enviadas');
    return report;
  }

  /** Each row its own send, but a driver's passages: all of them waiting, one send. */
  private async groupsOf(db: Db, due: OutboxRow[]): Promise<Group[]> {
    const groups: Group[] = [];
    const seen = new Set<number>();
    for (const row of due) {
      if (seen.has(row.id)) continue;
      let rows = [row];
      if (row.kind === 'passageDebited') {
        rows = await db.kysely
          .selectFrom('notification_outbox')
          .select(OUTBOX_COLUMNS)
          .where('driver_id', '=', row.driver_id)
          .where('kind', '=', 'passageDebited')
          .where('sent_at', 'is', null)
          .where('gave_up_at', 'is', null)
          .orderBy('id')
          .execute();
      }
      for (const r of rows) seen.add(r.id);
      const notifications = rows.map((r) => JSON.parse(r.payload) as DriverNotification);
      const [first] = notifications;
      if (!first) continue;
      const message =
        first.kind === 'passageDebited'
          ? passagesMessage(
              notifications
                .filter((n): n is PassageNotice => n.kind === 'passageDebited')
                .sort((a, b) => a.at.localeCompare(b.at) || a.passageId - b.passageId),
            )
          : notificationMessage(first);
      groups.push({ driverId: row.driver_id, rows, message, topics: liveTopicsOf(notifications), urgent: URGENT.has(first.kind) });
    }
    return groups;
  }

  private async sendGroup(
    db: Db,
    keys: VapidKeys,
    group: Group,
    subscribed: readonly Subscription[],
    now: Date,
    report: DrainReport,
  ): Promise<void> {
    report.notifications += 1;
    const ids = group.rows.map((r) => r.id);
    // A device is skipped only when every row of the group already reached it.
    const reached = group.rows.map(deliveredOf).reduce((a, b) => new Set([...a].filter((id) => b.has(id))));
    const devices = subscribed.filter((d) => !reached.has(d.id));
    const nowIso = now.toISOString();
    if (devices.length === 0) {
      await db.kysely.updateTable('notification_outbox').set({ sent_at: nowIso }).where('id', 'in', ids).execute();
      return;
    }

    const payload: PushPayload = pushPayload.parse({ ...group.message, enviadaEm: nowIso, topicos: group.topics });
    const message: PushMessage = { body: JSON.stringify(payload), ttlSeconds: TTL_SECONDS, urgency: group.urgent ? 'high' : 'normal' };
    const answers = await Promise.all(devices.map(async (device) => ({ device, answer: await this.sender.send(keys, device, message) })));

    const nowReached = new Set(reached);
    const failures: { device: Subscription; answer: PushAnswer }[] = [];
    for (const { device, answer } of answers) {
      if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
        nowReached.add(device.id);
        report.sent += 1;
        this.metrics.pushResult('sent');
        await db.kysely.updateTable('push_subscriptions').set({ last_success_at: nowIso }).where('id', '=', device.id).execute();
      } else if (answer.status === 404 || answer.status === 410) {
        nowReached.add(device.id);
        report.gone += 1;
        this.metrics.pushResult('gone');
        await db.kysely.deleteFrom('push_subscriptions').where('id', '=', device.id).execute();
      } else {
        failures.push({ device, answer });
        report.failed += 1;
        this.metrics.pushResult('failed');
      }
    }

    if (failures.length === 0) {
      await db.kysely.updateTable('notification_outbox').set({ sent_at: nowIso, last_error: null }).where('id', 'in', ids).execute();
      return;
    }
    const attempts = Math.max(...group.rows.map((r) => r.attempts)) + 1;
    const lastError = failures
      .map((f) => f.answer.error ?? `HTTP ${f.answer.status ?? '?'}`)
      .join('; ')
      .slice(0, 500);
    const gaveUp = attempts >= this.config.maxAttempts;
    await db.kysely
      .updateTable('notification_outbox')
      .set({
        attempts,
        last_error: lastError,
        delivered: JSON.stringify([...nowReached]),
        ...(gaveUp ? { gave_up_at: nowIso } : { due_at: new Date(now.getTime() + retryDelayMs(attempts)).toISOString() }),
      })
      .where('id', 'in', ids)
      .execute();
    const context = { driverId: group.driverId, outboxIds: ids, attempts, error: lastError };
    if (gaveUp) {
      report.gaveUp += 1;
      this.metrics.pushResult('gave_up');
      this.log.warn(context, 'notificação push abandonada após a última tentativa');
    } else {
      this.log.info(context, 'notificação push falhou; nova tentativa depois');
    }
  }
}
