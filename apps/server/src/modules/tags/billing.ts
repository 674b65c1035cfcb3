import { billingPeriod, previousBillingPeriod, TAG_STATUS } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import { scheduleRuns } from '../../schedule.js';
import type { Db, Trx } from '../../db/connection.js';
import { ADVISORY_LOCKS, tryAdvisoryLock } from '../../db/advisory-lock.js';
import { forUpdate } from '../../db/lock.js';
import type { TagOperatorGateway } from '../../adapters/operators/port.js';
import type { Metrics } from '../../metrics.js';
import { enqueueNotification } from '../notifications/outbox.js';
import type { TagFees } from './fees.js';

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

/**
 * Founding decision 13: each active tag pays R$ 15,90 once a month. One transaction per tag: the tag row
 * is locked (PostgreSQL), the (tag_id, period) row is unique, and the debit has an idempotency
 * key, so two runs at once (several instances, the CLI and the schedule) charge once. On
 * PostgreSQL one run at a time across instances (advisory lock): a second one returns at once.
 * A short balance blocks the tag with 204 and leaves the month 'unpaid' for the release to collect.
 */
export class BillingService {
  constructor(
    private readonly db: Db,
    private readonly fees: TagFees,
    private readonly gateway: TagOperatorGateway,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: Metrics,
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
    const due = await db.kysely
      .selectFrom('tags')
      .select('id')
      .where('status_code', '=', TAG_STATUS.active)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('paid_through', 'is', null), eb('paid_through', '<', period)]))
      .orderBy('id')
      .execute();
    for (const { id } of due) {
      try {
        report[await this.billOne(db, id, period)] += 1;
      } catch (error) {
        this.log.error({ err: error, tagId: id, period }, 'falha ao cobrar a mensalidade da tag');
        report.skipped += 1;
      }
    }
    this.log.info(report, 'cobrança mensal das tags concluída');
    this.metrics.billingRun(report);
    return report;
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
      const status = await this.gateway.block({ trx }, tag.serial_number, TAG_STATUS.blockedUnpaidFee);
      await trx.updateTable('tags').set({ status_code: status }).where('id', '=', tag.id).execute();
      if (status === TAG_STATUS.blockedUnpaidFee) await this.notifyBlocked(trx, tag.id, tag.driver_id, period);
      return 'blocked';
    });
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
