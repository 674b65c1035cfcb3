import { calendarMonthsCutoff } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { ADVISORY_LOCKS, tryAdvisoryLock } from '../../db/advisory-lock.js';
import type { Db } from '../../db/connection.js';
import type { Metrics } from '../../metrics.js';
import { scheduleRuns } from '../../schedule.js';
import { createMonthsAhead } from '../../db/partitions.js';
import { anonymiseClosedAccounts, clearClosureReceiptLinks } from './closed-accounts.js';
import { archiveMonthsBefore } from './month-archive.js';
import type { RetentionConfig } from './settings.js';

/** What one run deleted (or, for closed accounts, anonymised), per kind (a type: the metrics read it as a record). */
export type RetentionCounts = {
  accessRecords: number;
  sessions: number;
  idempotencyKeys: number;
  rateLimits: number;
  pushOutbox: number;
  webhookEvents: number;
  closedAccounts: number;
  closureReceiptLinks: number;
  /** Decision 80 (PostgreSQL): months of the ledger's entries and passages created ahead, and archived. */
  monthsCreated: number;
  monthsArchived: number;
};

export type RetentionReport = RetentionCounts & {
  /** Another instance was running the job: this run did nothing. */
  runningElsewhere?: true;
};

/** Rows per statement: a first run on a large table never holds its locks for long. */
const RETENTION_BATCH = 5_000;

const DAY_MS = 86_400_000;

const none = (): RetentionCounts => ({
  accessRecords: 0,
  sessions: 0,
  idempotencyKeys: 0,
  rateLimits: 0,
  pushOutbox: 0,
  webhookEvents: 0,
  closedAccounts: 0,
  closureReceiptLinks: 0,
  monthsCreated: 0,
  monthsArchived: 0,
});

/** Runs `deleteBatch` until it deletes fewer than a batch; the total. */
async function inBatches(deleteBatch: () => Promise<number>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteBatch();
    total += n;
    if (n < batch) return total;
  }
}

/**
 * Decision 71: deletes, or anonymises, what is past its period (config.retention, RETENTION_*), at
 * `now`. One instance at a time on PostgreSQL (advisory lock: a second returns at once); every
 * delete touches at most RETENTION_BATCH rows. What the law keeps is never deleted: the ledger,
 * withdrawals, Pix charges, passages, contests, VPOs, terms decisions, open provider events (a
 * closed account's lose, after their period, only what names a person: closed-accounts.ts).
 */
export class RetentionService {
  constructor(
    private readonly db: Db,
    private readonly config: RetentionConfig,
    private readonly metrics: Metrics,
    private readonly log: FastifyBaseLogger,
    private readonly batch: number = RETENTION_BATCH,
  ) {}

  async run(now: Date = new Date()): Promise<RetentionReport> {
    try {
      const done = await tryAdvisoryLock(this.db, ADVISORY_LOCKS.retention, (db) => this.runLocked(db, now));
      if (done) return done.value;
    } catch (error) {
      this.metrics.retentionRun('failed');
      throw error;
    }
    this.log.info('retenção de dados já em andamento em outra instância');
    return { ...none(), runningElsewhere: true };
  }

  /**
   * The in-process schedule (app.ts, from ready to close): first run `firstDelayMs` after start, then
   * every config.intervalMs. The returned stop waits for a run under way.
   */
  schedule(firstDelayMs = 5 * 60_000, now: () => Date = () => new Date()): () => Promise<void> {
    return scheduleRuns(() => this.run(now()), {
      intervalMs: this.config.intervalMs,
      firstDelayMs,
      log: this.log,
      failure: 'falha na retenção de dados',
    });
  }

  private async runLocked(db: Db, now: Date): Promise<RetentionCounts> {
    const started = Date.now();
    const counts = none();
    counts.accessRecords = await this.accessRecords(db, now);
    counts.sessions = await this.sessions(db, now);
    counts.idempotencyKeys = await this.idempotencyKeys(db, now);
    counts.rateLimits = await this.rateLimits(db, now);
    counts.pushOutbox = await this.pushOutbox(db, now);
    counts.webhookEvents = await this.webhookEvents(db, now);
    counts.closureReceiptLinks = await clearClosureReceiptLinks(db, now);
    counts.closedAccounts = await anonymiseClosedAccounts(db, now, this.config.closedAccountsYears);
    if (db.dialect === 'postgres') {
      counts.monthsCreated = (await createMonthsAhead(db.kysely, now)).length;
      // COPY needs the pool's own connections: the lock's connection only holds the lock.
      counts.monthsArchived = (
        await archiveMonthsBefore(this.db, ledgerCutoff(now, this.config.ledgerYears), this.config.archiveDir)
      ).length;
    }
    // Counts only: never a driver, a document or an address.
    this.log.info({ ...counts, ms: Date.now() - started }, 'retenção de dados concluída');
    this.metrics.retentionRun('done', counts);
    return counts;
  }

  /** Marco Civil art. 15: kept accessRecordsMonths calendar months (at least 6), then deleted. */
  private accessRecords(db: Db, now: Date): Promise<number> {
    const cutoff = calendarMonthsCutoff(now, this.config.accessRecordsMonths).toISOString();
    return inBatches(async () => {
      const result = await db.kysely
        .deleteFrom('access_records')
        .where('id', 'in', (eb) =>
          eb.selectFrom('access_records').select('id').where('occurred_at', '<', cutoff).orderBy('id').limit(this.batch),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    }, this.batch);
  }

  /**
   * Sessions that expired or ended sessionsDays ago. A device subscribed to push from one keeps its
   * subscription (decision 57: an expired session's device keeps receiving); it just no longer names
   * the session. 'Sair' already deleted those of ended sessions.
   */
  private sessions(db: Db, now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.sessionsDays * DAY_MS).toISOString();
    return inBatches(
      () =>
        db.kysely.transaction().execute(async (trx) => {
          const ids = (
            await trx
              .selectFrom('sessions')
              .select('id')
              .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
              .orderBy('id')
              .limit(this.batch)
              .execute()
          ).map((r) => r.id);
          if (ids.length === 0) return 0;
          await trx.updateTable('push_subscriptions').set({ session_id: null }).where('session_id', 'in', ids).execute();
          const result = await trx.deleteFrom('sessions').where('id', 'in', ids).executeTakeFirst();
          return Number(result.numDeletedRows);
        }),
      this.batch,
    );
  }

  /** Keys past their own expiry (RETENTION_IDEMPOTENCY_KEYS_HOURS after the first request). */
  private idempotencyKeys(db: Db, now: Date): Promise<number> {
    const nowIso = now.toISOString();
    return inBatches(async () => {
      const result = await sql`
        delete from idempotency_keys where (driver_id, "key") in (
          select driver_id, "key" from idempotency_keys where expires_at <= ${nowIso} order by expires_at limit ${this.batch}
        )`.execute(db.kysely);
      return Number(result.numAffectedRows ?? 0);
    }, this.batch);
  }

  /** Request-limit windows and marks past their own expiry (their periods are the limits' windows). */
  private rateLimits(db: Db, now: Date): Promise<number> {
    const nowMs = now.getTime();
    return inBatches(async () => {
      const result = await sql`
        delete from rate_limits where (scope, "key", window_start) in (
          select scope, "key", window_start from rate_limits where expires_at <= ${nowMs} order by expires_at limit ${this.batch}
        )`.execute(db.kysely);
      return Number(result.numAffectedRows ?? 0);
    }, this.batch);
  }

  /** Push notifications sent pushSentDays ago, or given up pushGivenUpDays ago (decision 57). */
  private pushOutbox(db: Db, now: Date): Promise<number> {
    const sent = new Date(now.getTime() - this.config.pushSentDays * DAY_MS).toISOString();
    const givenUp = new Date(now.getTime() - this.config.pushGivenUpDays * DAY_MS).toISOString();
    return inBatches(async () => {
      const result = await db.kysely
        .deleteFrom('notification_outbox')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('notification_outbox')
            .select('id')
            .where((w) => w.or([w('sent_at', '<', sent), w('gave_up_at', '<', givenUp)]))
            .orderBy('id')
            .limit(this.batch),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    }, this.batch);
  }

  /** Provider events the operator resolved webhookEventsMonths calendar months ago; an open one is never deleted. */
  private webhookEvents(db: Db, now: Date): Promise<number> {
    const cutoff = calendarMonthsCutoff(now, this.config.webhookEventsMonths).toISOString();
    return inBatches(async () => {
      const result = await db.kysely
        .deleteFrom('webhook_events')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('webhook_events')
            .select('id')
            .where('status', '=', 'resolved')
            .where('resolved_at', '<', cutoff)
            .orderBy('id')
            .limit(this.batch),
        )
        .where('status', '=', 'resolved')
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    }, this.batch);
  }
}

/**
 * Lei 9.613/1998, art. 10, § 2º: a transaction's records are kept at least 5 years from its
 * conclusion. A month is archived once `years` whole calendar years have passed after its year
 * (UTC months; each ends before the São Paulo year it belongs to ends): 1 January of now's year
 * minus `years` is the first instant still kept.
 */
export function ledgerCutoff(now: Date, years: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear() - years, 0, 1));
}
