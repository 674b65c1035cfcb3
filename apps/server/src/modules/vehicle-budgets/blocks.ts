import { TAG_STATUS } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.js';
import { forUpdate } from '../../db/lock.js';
import type { TagOperatorGateway } from '../../adapters/operators/port.js';
import { scheduleRuns } from '../../schedule.js';
import type { NotificationOf } from '../notifications/outbox.js';
import { enqueueNotifications } from '../notifications/outbox.js';
import { companyPeople } from './people.js';

/** Blocks read per pass. */
const BATCH = 100;

export interface BudgetBlockReport {
  blocked: number;
  /** The tag was no longer active (blocked, cancelled, removed): nothing to do. */
  ignored: number;
  /** The operator failed or refused: tried again on the next pass. */
  failed: number;
}

/**
 * Decision 78: the tags queued at 100 % of their vehicle's budget (spend.ts) are blocked through
 * their operator, each in its own transaction (the tag's row locked, the queue's row checked again
 * under it, so two instances block once). The company's Gestores and the vehicle's Motoristas are
 * told. The block is the company's own (status 200), marked as the budget's so that only a Gestor
 * releases it (tags/service.ts).
 */
export class BudgetBlocker {
  constructor(
    private readonly db: Db,
    private readonly gateway: TagOperatorGateway,
    private readonly log: FastifyBaseLogger,
  ) {}

  async run(now: Date = new Date()): Promise<BudgetBlockReport> {
    const report: BudgetBlockReport = { blocked: 0, ignored: 0, failed: 0 };
    const pending = await this.db.kysely
      .selectFrom('budget_blocks')
      .select('id')
      .where('state', '=', 'pendente')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const { id } of pending) {
      try {
        report[await this.blockOne(id, now)] += 1;
      } catch (error) {
        report.failed += 1;
        this.log.error({ err: error, budgetBlockId: id }, 'falha ao bloquear a tag pelo orçamento do veículo');
        await this.db.kysely
          .updateTable('budget_blocks')
          .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error instanceof Error ? error.message.slice(0, 500) : 'erro' }))
          .where('id', '=', id)
          .execute();
      }
    }
    if (pending.length > 0) this.log.info(report, 'bloqueios por orçamento processados');
    return report;
  }

  private async blockOne(id: number, now: Date): Promise<'blocked' | 'ignored'> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const queued = await trx
        .selectFrom('budget_blocks as b')
        .innerJoin('vehicles as v', 'v.id', 'b.vehicle_id')
        .select(['b.tag_id', 'b.vehicle_id', 'b.state', 'v.driver_id as company_id', 'v.license_plate'])
        .where('b.id', '=', id)
        .executeTakeFirstOrThrow();
      const tag = await trx
        .selectFrom('tags')
        .select(['id', 'serial_number', 'status_code', 'deleted_at', 'released_at'])
        .where('id', '=', queued.tag_id)
        .$call(forUpdate(this.db.dialect))
        .executeTakeFirstOrThrow();
      const state = await trx.selectFrom('budget_blocks').select('state').where('id', '=', id).executeTakeFirstOrThrow();
      if (state.state !== 'pendente') return 'ignored';
      const iso = now.toISOString();
      if (tag.deleted_at !== null || tag.released_at !== null || tag.status_code !== TAG_STATUS.active) {
        await trx.updateTable('budget_blocks').set({ state: 'ignorada' }).where('id', '=', id).execute();
        return 'ignored';
      }
      const status = await this.gateway.block({ trx }, tag.serial_number, TAG_STATUS.blockedByDriver);
      await trx.updateTable('tags').set({ status_code: status }).where('id', '=', tag.id).execute();
      await trx.updateTable('budget_blocks').set({ state: 'bloqueada', blocked_at: iso }).where('id', '=', id).execute();
      const people = await companyPeople(trx, [queued.company_id], [queued.vehicle_id]);
      const told = new Set([...people.gestores(queued.company_id), ...people.motoristas(queued.vehicle_id)]);
      const notices: NotificationOf[] = [...told].map((driverId) => ({
        driverId,
        notification: { kind: 'vehicleBudgetBlocked', blockId: id, plate: queued.license_plate },
      }));
      await enqueueNotifications(trx, notices, now);
      return 'blocked';
    });
  }

  /** Every `intervalMs` while the app runs (app.ts): a tag is blocked within that long of its 100 %. */
  schedule(intervalMs = 30_000): () => Promise<void> {
    return scheduleRuns(() => this.run(), {
      intervalMs,
      firstDelayMs: intervalMs,
      log: this.log,
      failure: 'falha nos bloqueios por orçamento',
    });
  }
}
