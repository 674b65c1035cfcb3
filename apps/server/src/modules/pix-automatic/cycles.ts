import type { CalendarDay } from '@portal/domain';
import {
  addCalendarDays,
  instructionDueDay,
  nextDebitDay,
  parseCalendarDay,
  PIX_AUTOMATIC_SCHEDULE_AHEAD_DAYS,
  saoPauloDay,
  saoPauloMidnight,
} from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import { scheduleRuns } from '../../schedule.js';
import type { PixProvider } from '../../adapters/pix/port.js';
import { ADVISORY_LOCKS, tryAdvisoryLock } from '../../db/advisory-lock.js';
import type { Db } from '../../db/connection.js';
import { newId } from '../../db/ids.js';
import type { Insertable } from 'kysely';
import type { PixAutomaticCycleRow, PixAutomaticCyclesTable, PixAutomaticRow } from '../../db/schema.js';
import { lockAuthorization } from './queries.js';

const DAY_MS = 86_400_000;
/** A cycle's Pix charge stops waiting a week after its day: the bank's retries (Regulamento do Pix) end before. */
const CYCLE_CHARGE_DAYS = 8;

export interface CycleRunReport {
  sent: number;
  failed: number;
  /** Another instance was sending the cycles: this run did nothing. */
  runningElsewhere?: true;
}

export type SendOutcome = { result: 'sent'; cycle: PixAutomaticCycleRow } | { result: 'skipped' } | { result: 'failed' };

/**
 * Decision 58: each active authorization's next debit is sent to the payer's bank (Asaas: a payment
 * linked to the authorization, which becomes the bank's payment instruction) when it is at most
 * PIX_AUTOMATIC_SCHEDULE_AHEAD_DAYS away, never with less than PIX_AUTOMATIC_MIN_NOTICE_DAYS left.
 * The provider is asked first; the cycle's rows are written only if the authorization still waits
 * for that very debit (its row locked), so two runs at once send one (the loser's payment is
 * cancelled); on PostgreSQL one run at a time across instances (advisory lock).
 */
export class CycleScheduler {
  constructor(
    private readonly db: Db,
    private readonly provider: PixProvider,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async run(): Promise<CycleRunReport> {
    const done = await tryAdvisoryLock(this.db, ADVISORY_LOCKS.pixAutomaticCycles, (db) => this.runLocked(db));
    if (done) return done.value;
    this.log.info('ciclos do Pix Automático já em envio em outra instância');
    return { sent: 0, failed: 0, runningElsewhere: true };
  }

  private async runLocked(db: Db): Promise<CycleRunReport> {
    const today = saoPauloDay(this.now());
    const horizon = addCalendarDays(today, PIX_AUTOMATIC_SCHEDULE_AHEAD_DAYS);
    const due = await db.kysely
      .selectFrom('pix_automatic_authorizations')
      .selectAll()
      .where('status', '=', 'ACTIVE')
      .where('provider', '=', this.provider.name)
      .where('next_due_date', '<=', horizon)
      .orderBy('next_due_date')
      .orderBy('id')
      .execute();
    const report: CycleRunReport = { sent: 0, failed: 0 };
    for (const row of due) {
      if (row.next_due_date === null) continue;
      const outcome = await this.send(db, row, instructionDueDay(row.next_due_date, today));
      if (outcome.result === 'sent') report.sent += 1;
      if (outcome.result === 'failed') report.failed += 1;
    }
    if (report.sent + report.failed > 0) this.log.info(report, 'ciclos do Pix Automático enviados');
    return report;
  }

  /**
   * The development bank's debit (CLI pix:auto:cycle and pix:auto:refuse): the cycle already sent
   * and still waiting, else the next one sent now, due today.
   */
  async cycleToDebit(authorizationId: string): Promise<PixAutomaticCycleRow | null> {
    const waiting = await this.db.kysely
      .selectFrom('pix_automatic_cycles')
      .selectAll()
      .where('authorization_id', '=', authorizationId)
      .where('status', '=', 'SCHEDULED')
      .orderBy('number')
      .executeTakeFirst();
    if (waiting) return waiting;
    const row = await lockFree(this.db, authorizationId);
    if (!row || row.status !== 'ACTIVE') return null;
    const outcome = await this.send(this.db, row, saoPauloDay(this.now()));
    return outcome.result === 'sent' ? outcome.cycle : null;
  }

  /** The debit of `row`'s next cycle on `dueDate`: its payment at the provider, then its rows. */
  private async send(db: Db, row: PixAutomaticRow, dueDate: CalendarDay): Promise<SendOutcome> {
    const chargeId = newId('chg');
    const amountCents = Number(row.amount_cents);
    const driver = await db.kysely
      .selectFrom('drivers')
      .select(['name', 'cpf_cnpj'])
      .where('id', '=', row.driver_id)
      .executeTakeFirstOrThrow();
    let created;
    try {
      created = await this.provider.createAutomaticCycle({
        chargeId,
        providerAuthorizationId: row.provider_authorization_id,
        amountCents,
        dueDate,
        driver: { name: driver.name, cpfCnpj: driver.cpf_cnpj },
      });
    } catch (error) {
      this.log.error({ err: error, authorizationId: row.id, provider: this.provider.name }, 'falha ao enviar o ciclo do Pix Automático');
      return { result: 'failed' };
    }
    const createdAt = this.now();
    const cycle = await db.kysely.transaction().execute(async (trx) => {
      const fresh = await lockAuthorization(trx, db.dialect, row.id);
      if (!fresh || fresh.status !== 'ACTIVE' || fresh.next_due_date !== row.next_due_date) return null;
      const last = await trx
        .selectFrom('pix_automatic_cycles')
        .select((eb) => eb.fn.max('number').as('n'))
        .where('authorization_id', '=', row.id)
        .executeTakeFirst();
      const number = Number(last?.n ?? 0) + 1;
      await trx
        .insertInto('pix_charges')
        .values({
          id: chargeId,
          driver_id: row.driver_id,
          provider: this.provider.name,
          provider_charge_id: created.providerChargeId,
          amount_cents: amountCents,
          // The bank debits it: there is no code to pay.
          payload: '',
          encoded_image: null,
          status: 'PENDING',
          expires_at: chargeExpiry(dueDate).toISOString(),
          created_at: createdAt.toISOString(),
          received_at: null,
          refunded_at: null,
        })
        .execute();
      const cycleRow: Insertable<PixAutomaticCyclesTable> & PixAutomaticCycleRow = {
        charge_id: chargeId,
        authorization_id: row.id,
        number,
        due_date: dueDate,
        instruction_id: created.instructionId,
        status: 'SCHEDULED',
        failure_reason: null,
        failed_at: null,
        created_at: createdAt.toISOString(),
      };
      await trx.insertInto('pix_automatic_cycles').values(cycleRow).execute();
      await trx
        .updateTable('pix_automatic_authorizations')
        .set({ next_due_date: nextDebitDay(row.frequency, dueDate, row.anchor_day ?? dayOfMonth(dueDate)) })
        .where('id', '=', row.id)
        .execute();
      return cycleRow;
    });
    if (!cycle) {
      // Sent by another run meanwhile, or ended: this payment must not be debited.
      await this.provider.cancelCharge(created.providerChargeId).catch((error: unknown) => {
        this.log.warn({ err: error, authorizationId: row.id }, 'falha ao cancelar o pagamento de um ciclo enviado duas vezes');
      });
      return { result: 'skipped' };
    }
    this.log.info({ authorizationId: row.id, chargeId, dueDate, number: cycle.number }, 'ciclo do Pix Automático enviado');
    return { result: 'sent', cycle };
  }

  /**
   * The in-process schedule (app.ts, from ready to close): first run a minute after start, then
   * every `intervalMs` (an hour by default). The returned stop waits for a run under way.
   */
  schedule(intervalMs: number = 3_600_000, firstDelayMs = 60_000): () => Promise<void> {
    return scheduleRuns(() => this.run(), {
      intervalMs,
      firstDelayMs,
      log: this.log,
      failure: 'falha no envio dos ciclos do Pix Automático',
    });
  }
}

async function lockFree(db: Db, id: string): Promise<PixAutomaticRow | null> {
  return (await db.kysely.selectFrom('pix_automatic_authorizations').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

function dayOfMonth(day: CalendarDay): number {
  return parseCalendarDay(day)?.day ?? 1;
}

/** The São Paulo midnight CYCLE_CHARGE_DAYS after the debit's day. */
function chargeExpiry(dueDate: CalendarDay): Date {
  const p = parseCalendarDay(dueDate);
  if (!p) return new Date(Date.now() + CYCLE_CHARGE_DAYS * DAY_MS);
  return new Date(saoPauloMidnight(p.year, p.month, p.day).getTime() + CYCLE_CHARGE_DAYS * DAY_MS);
}
