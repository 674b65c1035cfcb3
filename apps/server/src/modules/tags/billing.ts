import { billingPeriod, previousBillingPeriod, TAG_STATUS } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import { scheduleRuns } from '../../schedule.js';
import type { Db, Trx } from '../../db/connection.js';
import { ADVISORY_LOCKS, tryAdvisoryLock } from '../../db/advisory-lock.js';
import { forUpdate, lockTagHolders } from '../../db/lock.js';
import { isRetryableTransactionError } from '../../db/retry.js';
import type { Database, TagRowDb } from '../../db/schema.js';
import type { SelectQueryBuilder } from 'kysely';
import type { TagOperatorGateway } from '../../adapters/operators/port.js';
import type { Metrics } from '../../metrics.js';
import { enqueueNotification } from '../notifications/outbox.js';
import type { TagFees } from './fees.js';
import { notPaidThrough } from './fees.js';

export interface BillingReport {
  period: string;
  charged: number;
  blocked: number;
  skipped: number;
  /** Decision 53: last month's fees given back or forgiven, the tag used only through VPO. */
  waived: number;
  /** Another instance was running the billing: this run did nothing. */
  runningElsewhere?: true;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Decision 82: tags per transaction of the billing; its locks hold a chunk's drivers for a few tens of ms. */
const BILLING_CHUNK = 200;
const CHUNK_ATTEMPTS = 3;

/** Active tags not paid through `period`: what the billing charges. */
function dueIn(period: string) {
  return <QB extends SelectQueryBuilder<Database, 'tags', object>>(qb: QB): QB =>
    qb.where('status_code', '=', TAG_STATUS.active).where('deleted_at', 'is', null).where(notPaidThrough(period)) as QB;
}

/**
 * Founding decision 13: each active tag pays R$ 15,90 once a month. Decision 82: the due tags are
 * billed in chunks of BILLING_CHUNK, one transaction each, their drivers, tags and accounts locked
 * first (PostgreSQL); the (tag_id, period) row is unique and each debit has an idempotency key per
 * tag and month, so two runs at once (several instances, the CLI and the schedule) charge once. On
 * PostgreSQL one run at a time across instances (advisory lock): a second one returns at once. A
 * short balance blocks the tag with 204 and leaves the month 'unpaid' for the release to collect.
 */
export class BillingService {
  constructor(
    private readonly db: Db,
    private readonly fees: TagFees,
    private readonly gateway: TagOperatorGateway,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: Metrics,
    private readonly chunkSize = BILLING_CHUNK,
  ) {}

  async run(at: Date = new Date()): Promise<BillingReport> {
    const period = billingPeriod(at);
    const done = await tryAdvisoryLock(this.db, ADVISORY_LOCKS.billing, (db) => this.runLocked(db, period));
    if (done) return done.value;
    this.log.info({ period }, 'cobrança mensal já em andamento em outra instância');
    return { period, charged: 0, blocked: 0, skipped: 0, waived: 0, runningElsewhere: true };
  }

  private async runLocked(db: Db, period: string): Promise<BillingReport> {
    const report: BillingReport = { period, charged: 0, blocked: 0, skipped: 0, waived: 0 };
    report.waived = await this.waiveVpoOnlyMonths(db, previousBillingPeriod(period));
    const due = await db.kysely.selectFrom('tags').select('id').$call(dueIn(period)).orderBy('id').execute();
    for (let start = 0; start < due.length; start += this.chunkSize) {
      const ids = due.slice(start, start + this.chunkSize).map((t) => t.id);
      let alone: number[];
      try {
        const chunk = await this.billChunk(db, ids, period);
        report.charged += chunk.charged;
        report.blocked += chunk.blocked;
        report.skipped += chunk.skipped;
        alone = chunk.alone;
      } catch (error) {
        // One tag's fault must not leave the others unbilled: each is tried alone.
        this.log.error({ err: error, tags: ids.length, period }, 'falha ao cobrar um lote de tags; cada uma é cobrada sozinha');
        alone = ids;
      }
      for (const id of alone) {
        try {
          report[await this.billOne(db, id, period)] += 1;
        } catch (error) {
          this.log.error({ err: error, tagId: id, period }, 'falha ao cobrar a mensalidade da tag');
          report.skipped += 1;
        }
      }
    }
    this.log.info(report, 'cobrança mensal das tags concluída');
    this.metrics.billingRun(report);
    return report;
  }

  /**
   * Decision 82: a chunk of due tags in one transaction and a fixed number of statements, run again
   * on a deadlock or a serialization failure. Under the chunk's locks (lockTagHolders' order) the
   * tags still due whose month has no row are paid by fees.payMany or, short, owed and blocked; a
   * tag whose month already has a row (owed, waived, paid by a release meanwhile) is answered in
   * `alone`, for billOne's path, which knows those cases.
   */
  private async billChunk(
    db: Db,
    ids: number[],
    period: string,
  ): Promise<{ charged: number; blocked: number; skipped: number; alone: number[] }> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await db.kysely.transaction().execute(async (trx) => {
          if (db.dialect === 'postgres') {
            const holders = await trx.selectFrom('tags').select(['id', 'driver_id']).where('id', 'in', ids).execute();
            await lockTagHolders(trx, holders, 'update');
          }
          const tags = await trx
            .selectFrom('tags')
            .select(['id', 'driver_id', 'serial_number', 'vehicle_id'])
            .where('id', 'in', ids)
            .$call(dueIn(period))
            .orderBy('id')
            .execute();
          const withRow = await this.fees.monthsWithRow(
            trx,
            tags.map((t) => t.id),
            period,
          );
          const paid = await this.fees.payMany(
            trx,
            tags.filter((t) => !withRow.has(t.id)),
            period,
          );
          const owed = await this.fees.oweMany(
            trx,
            paid.short.map((t) => t.id),
            period,
          );
          for (const tag of paid.short) if (owed.has(tag.id)) await this.block(trx, tag, period);
          return {
            charged: paid.charged.length,
            blocked: owed.size,
            skipped: ids.length - tags.length + paid.alreadyPaid.length + paid.short.length - owed.size,
            alone: [...withRow],
          };
        });
      } catch (error) {
        if (!isRetryableTransactionError(error) || attempt >= CHUNK_ATTEMPTS) throw error;
      }
    }
  }

  /** Decision 53: every tag whose month `period` was used only through VPO gets that month's fee back (or forgiven). */
  private async waiveVpoOnlyMonths(db: Db, period: string): Promise<number> {
    const candidates = await db.kysely
      .selectFrom('tag_month_usage')
      .innerJoin('tags', 'tags.id', 'tag_month_usage.tag_id')
      .select(['tags.id', 'tags.driver_id', 'tags.serial_number', 'tags.vehicle_id'])
      .where('tag_month_usage.period', '=', period)
      .where('tag_month_usage.vpo_passages', '>', 0)
      .where('tag_month_usage.other_passages', '=', 0)
      .orderBy('tags.id')
      .execute();
    let waived = 0;
    for (const tag of candidates) {
      try {
        const outcome = await db.kysely.transaction().execute((trx) => this.fees.waiveVpoOnlyMonth(trx, tag, period));
        if (outcome !== 'none') waived += 1;
      } catch (error) {
        this.log.error({ err: error, tagId: tag.id, period }, 'falha ao devolver a mensalidade de um mês só com VPO');
      }
    }
    return waived;
  }

  private async billOne(db: Db, tagId: number, period: string): Promise<'charged' | 'blocked' | 'skipped'> {
    return db.kysely.transaction().execute(async (trx) => {
      const tag = await trx.selectFrom('tags').selectAll().where('id', '=', tagId).$call(forUpdate(this.db.dialect)).executeTakeFirst();
      if (!tag || tag.deleted_at !== null || tag.status_code !== TAG_STATUS.active) return 'skipped';
      const outcome = await this.fees.pay(trx, tag, period);
      if (outcome === 'charged') return 'charged';
      if (outcome === 'already-paid') return 'skipped';
      if (!(await this.fees.owe(trx, tag.id, period))) return 'skipped';
      await this.block(trx, tag, period);
      return 'blocked';
    });
  }

  /** A month the Saldo could not pay: the operator blocks the tag with 204 and the driver is told. */
  private async block(trx: Trx, tag: Pick<TagRowDb, 'id' | 'driver_id' | 'serial_number'>, period: string): Promise<void> {
    const status = await this.gateway.block({ trx }, tag.serial_number, TAG_STATUS.blockedUnpaidFee);
    await trx.updateTable('tags').set({ status_code: status }).where('id', '=', tag.id).execute();
    if (status === TAG_STATUS.blockedUnpaidFee) await this.notifyBlocked(trx, tag.id, tag.driver_id, period);
  }

  /** Decision 57: the driver hears at once that the tag was blocked for the unpaid month. */
  private async notifyBlocked(trx: Trx, tagId: number, driverId: number, period: string): Promise<void> {
    const fee = await trx
      .selectFrom('tag_fee_charges')
      .innerJoin('tags', 'tags.id', 'tag_fee_charges.tag_id')
      .innerJoin('vehicles', 'vehicles.id', 'tags.vehicle_id')
      .select(['tag_fee_charges.id', 'vehicles.license_plate'])
      .where('tag_fee_charges.tag_id', '=', tagId)
      .where('tag_fee_charges.period', '=', period)
      .executeTakeFirst();
    if (fee) await enqueueNotification(trx, driverId, { kind: 'tagBlockedUnpaidFee', feeId: fee.id, licensePlate: fee.license_plate });
  }

  /**
   * The daily in-process schedule (app.ts, from ready to close): first run a minute after start,
   * then every 24 h. The returned stop waits for a run under way, so the database outlives it.
   */
  schedule(intervalMs: number = DAY_MS, firstDelayMs = 60_000): () => Promise<void> {
    return scheduleRuns(() => this.run(), { intervalMs, firstDelayMs, log: this.log, failure: 'falha na cobrança mensal das tags' });
  }
}
