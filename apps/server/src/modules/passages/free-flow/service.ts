import type {
  FreeFlowPlate,
  FreeFlowPlateChoice,
  FreeFlowSummary,
  FreeFlowToll,
  FreeFlowTollsQuery,
  PartnerTollPaymentsQuery,
  PartnerTollPaymentsResponse,
  PartnerTollRequest,
} from '@portal/contract';
import type { FreeFlowNoticeStage } from '@portal/domain';
import {
  centsToReais,
  daysLeft,
  deadlineNoticeStage,
  formatBrl,
  freeFlowMessages,
  refuse,
  saoPauloDay,
  saoPauloDayStartIso,
} from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/connection.js';
import { toIso } from '../../../db/connection.js';
import { lockDriver } from '../../../db/lock.js';
import { SigningKeys } from '../../../db/signing-keys.js';
import { withinScope } from '../../../db/vehicle-scope.js';
import type { VehicleScope } from '../../../db/vehicle-scope.js';
import { scheduleRuns } from '../../../schedule.js';
import type { NotificationOf } from '../../notifications/outbox.js';
import { enqueueNotifications } from '../../notifications/outbox.js';
import type { PayMode, PayOutcome } from './pay.js';
import { payToll, withdrawToll } from './pay.js';
import type { AutoPayable, TollOutcome } from './record.js';
import { TollPushes } from './record.js';
import { driverSummary, driverTolls, forgetUnpaidTolls, tollsWithPartner, tollView, totalsOf } from './tolls.js';

const PAYMENTS_PAGE_SIZE = 50;
/** Open tolls read per slice by the deadline notices; each slice is written in one short transaction. */
const NOTICE_SLICE = 100;
/** How often tolls awaiting money are tried again (the money of a Pix lands at once; this is the backstop). */
const AWAITING_INTERVAL_MS = 15_000;
const DEADLINE_INTERVAL_MS = 60 * 60_000;

/**
 * Decision 76: free-flow tolls, the driver's side (the plates' consent, the list, paying) and the
 * concessionaire's (pushes, withdrawals, payments made), over the passages module's money rules.
 */
export class FreeFlowService {
  readonly keys: SigningKeys;
  private readonly pushes: TollPushes;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.keys = new SigningKeys(db);
    this.pushes = new TollPushes(db, this.keys, now);
  }

  /** The concessionaire's tolls, each answered as the single call answers it; automatic payments after the commit. */
  async push(partnerId: number, tolls: readonly PartnerTollRequest[]): Promise<TollOutcome[]> {
    const { outcomes, autoPay } = await this.pushes.record(partnerId, tolls);
    await this.payAutomatically(autoPay);
    return outcomes;
  }

  /** Each toll whose plate pays automatically, in its own transaction: a short Saldo marks it awaiting money. */
  private async payAutomatically(tolls: readonly AutoPayable[]): Promise<void> {
    for (const toll of tolls) {
      try {
        await this.payIn(toll.driverId, toll.tollId, 'auto');
      } catch (error) {
        // The toll stays open and is offered to the driver; the sweep tries again.
        this.log.error({ err: error, tollId: toll.tollId }, 'pagamento automático de pedágio sem cancela falhou');
      }
    }
  }

  private payIn(driverId: number, tollId: number, mode: PayMode): Promise<PayOutcome> {
    return this.db.kysely.transaction().execute((trx) => payToll(trx, this.db.dialect, driverId, tollId, mode, this.now()));
  }

  /** The concessionaire withdraws a toll: given back once when paid. The same answer for a plate that is no driver's. */
  async withdraw(partnerId: number, externalId: string): Promise<void> {
    const pushed = await this.db.kysely
      .selectFrom('partner_pushes')
      .select('external_id')
      .where('partner_id', '=', partnerId)
      .where('kind', '=', 'toll')
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    if (!pushed) throw refuse.notFound(freeFlowMessages.notFound);
    const toll = await this.db.kysely
      .selectFrom('free_flow_tolls')
      .select(['id', 'driver_id'])
      .where('partner_id', '=', partnerId)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    if (!toll) return;
    await this.db.kysely.transaction().execute((trx) => withdrawToll(trx, this.db.dialect, toll.driver_id, toll.id, this.now()));
  }

  /** What the portal paid of this concessionaire's tolls, by the São Paulo day paid, 50 a page. */
  async payments(partnerId: number, query: PartnerTollPaymentsQuery): Promise<Omit<PartnerTollPaymentsResponse, 'Sucesso' | 'Mensagem'>> {
    const from = query.desde ? saoPauloDayStartIso(query.desde, 0) : null;
    const to = query.ate ? saoPauloDayStartIso(query.ate, 1) : null;
    if (query.desde && !from) throw refuse.invalid(freeFlowMessages.dayInvalid, 'desde');
    if (query.ate && !to) throw refuse.invalid(freeFlowMessages.dayInvalid, 'ate');
    let q = this.db.kysely
      .selectFrom('free_flow_tolls')
      .where('partner_id', '=', partnerId)
      .where('paid_at', 'is not', null)
      .where('cancelled_at', 'is', null);
    if (from) q = q.where('paid_at', '>=', from);
    if (to) q = q.where('paid_at', '<', to);
    const counted = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    const totalPages = Math.ceil(Number(counted?.n ?? 0) / PAYMENTS_PAGE_SIZE);
    const rows =
      query.page > totalPages
        ? []
        : await q
            .select(['external_id', 'plate', 'amount_cents', 'paid_at', 'authentication'])
            .orderBy('paid_at')
            .orderBy('id')
            .limit(PAYMENTS_PAGE_SIZE)
            .offset(PAYMENTS_PAGE_SIZE * (query.page - 1))
            .execute();
    return {
      Pagamentos: rows.map((r) => ({
        externalId: r.external_id,
        placa: r.plate,
        valor: centsToReais(Number(r.amount_cents)),
        pagoEm: toIso(r.paid_at ?? ''),
        comprovante: r.authentication ?? '',
      })),
      Paginacao: { TotalPaginas: totalPages },
    };
  }

  /** The account's tolls; a Motorista's (`scope`: their vehicles, decision 77) only those of their vehicles, with their own summary. */
  async list(
    driverId: number,
    query: FreeFlowTollsQuery,
    scope: VehicleScope = null,
  ): Promise<{ tolls: FreeFlowToll[]; totalPages: number; summary: FreeFlowSummary }> {
    const now = this.now();
    const totals = await totalsOf(this.db.kysely, driverId);
    const page = await driverTolls(this.db.kysely, driverId, query, now, totals, scope);
    return { ...page, summary: await driverSummary(this.db.kysely, driverId, now, totals, scope) };
  }

  async one(driverId: number, tollId: number): Promise<FreeFlowToll> {
    const row = await tollsWithPartner(this.db.kysely).where('t.id', '=', tollId).where('t.driver_id', '=', driverId).executeTakeFirst();
    if (!row) throw refuse.notFound(freeFlowMessages.notFound);
    return tollView(row, this.now());
  }

  /** 'Pagar': once, whatever taps or devices; a toll paid before answers as paid, a withdrawn one is refused. */
  async pay(driverId: number, tollId: number): Promise<{ toll: FreeFlowToll; message: string }> {
    const outcome = await this.payIn(driverId, tollId, 'manual');
    if (outcome === 'cancelled') throw refuse.conflict(freeFlowMessages.cancelled);
    const toll = await this.one(driverId, tollId);
    const message =
      outcome === 'alreadyPaid'
        ? freeFlowMessages.alreadyPaid
        : freeFlowMessages.paid(formatBrl(Math.round(toll.valor * 100)), toll.pagoPor ?? 'SALDO');
    return { toll, message };
  }

  /** The plates (vehicles) of the driver and each one's choice; a Motorista's (`scope`), only theirs. */
  async plates(driverId: number, scope: VehicleScope = null): Promise<FreeFlowPlate[]> {
    const rows = await this.db.kysely
      .selectFrom('vehicles')
      .select(['id', 'license_plate', 'free_flow_consent_at', 'free_flow_auto_pay'])
      .where('driver_id', '=', driverId)
      .where('deleted_at', 'is', null)
      .where(withinScope(scope, 'id'))
      .orderBy('license_plate')
      .execute();
    return rows.map((r) => ({
      veiculoId: r.id,
      placa: r.license_plate,
      ativo: r.free_flow_consent_at !== null,
      automatico: r.free_flow_consent_at !== null && r.free_flow_auto_pay === 1,
      desde: r.free_flow_consent_at === null ? null : toIso(r.free_flow_consent_at),
    }));
  }

  /**
   * Turns one plate (or all) on or off. On: the consent's moment is kept (an earlier one stays). Off:
   * the tolls kept for the plate that the portal did not pay go with the consent (a paid one is a
   * ledger record and stays). A plate another account opted in first is refused without saying whose.
   */
  async choose(driverId: number, choice: FreeFlowPlateChoice): Promise<FreeFlowPlate[]> {
    const now = this.now().toISOString();
    await this.db.kysely.transaction().execute(async (trx) => {
      await lockDriver(trx, this.db.dialect, driverId);
      let vehicles = trx
        .selectFrom('vehicles')
        .select(['id', 'license_plate', 'free_flow_consent_at'])
        .where('driver_id', '=', driverId)
        .where('deleted_at', 'is', null);
      if (choice.veiculoId !== undefined) vehicles = vehicles.where('id', '=', choice.veiculoId);
      const rows = await vehicles.execute();
      if (choice.veiculoId !== undefined && rows.length === 0) throw refuse.notFound(freeFlowMessages.vehicleNotFound);
      for (const vehicle of rows) {
        if (choice.ativo) {
          const taken = await trx
            .selectFrom('vehicles')
            .select('id')
            .where('license_plate', '=', vehicle.license_plate)
            .where('deleted_at', 'is', null)
            .where('free_flow_consent_at', 'is not', null)
            .where('id', '!=', vehicle.id)
            .executeTakeFirst();
          if (taken) {
            if (choice.veiculoId !== undefined) throw refuse.conflict(freeFlowMessages.plateUnavailable(vehicle.license_plate));
            continue;
          }
          // All at once turns on the plates still off; one already on keeps its own 'Pagar automaticamente'.
          if (choice.veiculoId === undefined && vehicle.free_flow_consent_at !== null) continue;
          await trx
            .updateTable('vehicles')
            .set({
              free_flow_consent_at: vehicle.free_flow_consent_at === null ? now : toIso(vehicle.free_flow_consent_at),
              free_flow_auto_pay: choice.automatico ? 1 : 0,
            })
            .where('id', '=', vehicle.id)
            .execute();
        } else {
          await trx
            .updateTable('vehicles')
            .set({ free_flow_consent_at: null, free_flow_auto_pay: 0 })
            .where('id', '=', vehicle.id)
            .execute();
          await forgetUnpaidTolls(trx, { column: 'vehicle_id', id: vehicle.id });
        }
      }
    });
    return this.plates(driverId);
  }

  /** Tolls awaiting money whose driver's Saldo now covers them, paid oldest deadline first (of one driver, or of all). */
  async payAwaiting(limit = 500, driverId?: number): Promise<number> {
    let query = this.db.kysely
      .selectFrom('free_flow_tolls')
      .innerJoin('accounts', (join) => join.onRef('accounts.driver_id', '=', 'free_flow_tolls.driver_id').on('accounts.kind', '=', 'own'))
      .select(['free_flow_tolls.id', 'free_flow_tolls.driver_id'])
      .where('free_flow_tolls.awaiting_balance', '=', 1)
      .where('free_flow_tolls.paid_at', 'is', null)
      .where('free_flow_tolls.cancelled_at', 'is', null)
      .whereRef('accounts.balance_cents', '>=', 'free_flow_tolls.amount_cents')
      .orderBy('free_flow_tolls.due_day')
      .orderBy('free_flow_tolls.id')
      .limit(limit);
    if (driverId !== undefined) query = query.where('free_flow_tolls.driver_id', '=', driverId);
    const rows = await query.execute();
    let paid = 0;
    for (const row of rows) {
      try {
        if ((await this.payIn(row.driver_id, row.id, 'auto')) === 'paid') paid += 1;
      } catch (error) {
        this.log.error({ err: error, tollId: row.id }, 'pagamento de pedágio sem cancela aguardando saldo falhou');
      }
    }
    return paid;
  }

  /**
   * The deadline notices: 5 days and 1 day before, and once past, each once per toll, for the open
   * tolls due within 5 days or past due. Read in slices by id without a lock; each slice's notices
   * and marks are written in one short transaction.
   */
  async sendDeadlineNotices(): Promise<number> {
    const now = this.now();
    const horizon = saoPauloDay(new Date(now.getTime() + 6 * 86_400_000));
    let after = 0;
    let sent = 0;
    for (;;) {
      const rows = await this.db.kysely
        .selectFrom('free_flow_tolls')
        .select(['id', 'driver_id', 'plate', 'gantry', 'amount_cents', 'due_day', 'notices'])
        .where('paid_at', 'is', null)
        .where('cancelled_at', 'is', null)
        .where('due_day', '<=', horizon)
        // Past due and told so: nothing more to send, however long it stays unpaid.
        .where('notices', 'not like', '%overdue%')
        .where('id', '>', after)
        .orderBy('id')
        .limit(NOTICE_SLICE)
        .execute();
      if (rows.length === 0) return sent;
      after = rows.at(-1)?.id ?? after;
      const due = rows.flatMap((r) => {
        const done = r.notices.split(',').filter(Boolean) as FreeFlowNoticeStage[];
        const stage = deadlineNoticeStage(r.due_day, now, done);
        return stage ? [{ row: r, stage, marks: [...done, stage].join(',') }] : [];
      });
      if (due.length === 0) continue;
      // One UPDATE per (marks before, marks after) pair, guarded by the marks read: a toll paid, or
      // noticed by another instance meanwhile, is left out; then one INSERT of the notices.
      const groups = new Map<string, typeof due>();
      for (const d of due) groups.set(`${d.row.notices}|${d.marks}`, [...(groups.get(`${d.row.notices}|${d.marks}`) ?? []), d]);
      await this.db.kysely.transaction().execute(async (trx) => {
        const moved = new Set<number>();
        for (const group of groups.values()) {
          const [first] = group;
          if (!first) continue;
          const rows = await trx
            .updateTable('free_flow_tolls')
            .set({ notices: first.marks })
            .where(
              'id',
              'in',
              group.map((g) => g.row.id),
            )
            .where('notices', '=', first.row.notices)
            .where('paid_at', 'is', null)
            .where('cancelled_at', 'is', null)
            .returning('id')
            .execute();
          for (const r of rows) moved.add(r.id);
        }
        const notices: NotificationOf[] = due
          .filter((d) => moved.has(d.row.id))
          .map(({ row, stage }) => ({
            driverId: row.driver_id,
            notification: {
              kind: 'freeFlowToll',
              tollId: row.id,
              event: stage,
              plate: row.plate,
              gantry: row.gantry,
              amountCents: Number(row.amount_cents),
              dueDay: row.due_day,
              daysLeft: daysLeft(row.due_day, now),
            },
          }));
        await enqueueNotifications(trx, notices, now);
        sent += notices.length;
      });
    }
  }

  /** A Pix credit just committed: the driver's tolls awaiting money are paid now, not at the next sweep. */
  afterCredit(driverId: number): void {
    this.payAwaiting(500, driverId).catch((error: unknown) =>
      this.log.error({ err: error, driverId }, 'pedágios sem cancela aguardando saldo falharam após o crédito'),
    );
  }

  /** The in-process schedules (app.ts): tolls awaiting money every 15 s, the deadline notices every hour. */
  schedule(firstDelayMs = 5_000): () => Promise<void> {
    const stopAwaiting = scheduleRuns(() => this.payAwaiting(), {
      intervalMs: AWAITING_INTERVAL_MS,
      firstDelayMs,
      log: this.log,
      failure: 'pedágios sem cancela aguardando saldo falharam',
    });
    const stopNotices = scheduleRuns(() => this.sendDeadlineNotices(), {
      intervalMs: DEADLINE_INTERVAL_MS,
      firstDelayMs,
      log: this.log,
      failure: 'avisos de vencimento de pedágios sem cancela falharam',
    });
    return async () => {
      await Promise.all([stopAwaiting(), stopNotices()]);
    };
  }
}
