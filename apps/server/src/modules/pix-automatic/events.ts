import type { AsaasWebhook } from '@portal/contract';
import { cleanText, firstDebitDay, pixAutomaticMessages, reaisToCents, saoPauloDay, serverMessages, TEXT_MAX } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { PixProvider, ProviderPayment } from '../../adapters/pix/port.js';
import { PAID_STATUSES, PixProviderUnavailable } from '../../adapters/pix/port.js';
import type { Db, Trx } from '../../db/connection.js';
import { newId } from '../../db/ids.js';
import type { PixAutomaticEndReason, PixAutomaticRow, PixAutomaticStatus, PixChargeRow } from '../../db/schema.js';
import { enqueueNotification } from '../notifications/outbox.js';
import type { AutomaticPixEvents } from '../pix/handlers.js';
import { authorizationEventState, instructionEventKind } from '../pix/handlers.js';
import type { EventOutcome } from '../pix/webhook-events.js';
import { appliedOutcome, recordedOutcome } from '../pix/webhook-events.js';
import { endAuthorization } from './authorization-end.js';
import { cycleOfCharge, lockAuthorization } from './queries.js';

type AuthorizationPart = NonNullable<AsaasWebhook['authorization']>;
type InstructionPart = NonNullable<AsaasWebhook['paymentInstruction']>;
type PaymentPart = NonNullable<AsaasWebhook['payment']>;

/** The state each authorization event announces (Asaas "Eventos para Pix Automático"). */
const ANNOUNCED: Record<string, PixAutomaticStatus> = {
  CREATED: 'CREATED',
  ACTIVATED: 'ACTIVE',
  CANCELLED: 'CANCELLED',
  REFUSED: 'REFUSED',
  EXPIRED: 'EXPIRED',
};

const mismatch = serverMessages.pix.mismatch;
const isOutcome = (value: unknown): value is EventOutcome => typeof value === 'object' && value !== null && 'result' in value;

/**
 * Decision 58: the webhook's Pix Automático events, bound to stored objects as decision 49 binds
 * payments and transfers. An event acts only on the authorization (or the cycle) whose provider id we
 * stored, and only after the provider's own answer says the same (the authorization's contractId is
 * our id; an instruction's payment is the cycle's stored payment). Money moves only through the
 * settlement of the cycle's Pix charge; here, states change and the driver is told.
 */
export class AutomaticEvents implements AutomaticPixEvents {
  constructor(
    private readonly db: Db,
    private readonly provider: PixProvider,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** PIX_AUTOMATIC_RECURRING_AUTHORIZATION_*: activated, cancelled (in the bank app too), refused, expired. */
  async authorization(event: string, part: AuthorizationPart): Promise<EventOutcome> {
    const announced = ANNOUNCED[authorizationEventState(event)];
    if (!announced) return { result: 'ignored' };
    const row = await this.byProviderId(part.id);
    if (!row) return recordedOutcome('unknown-authorization');
    if (part.contractId && part.contractId !== row.id)
      return recordedOutcome('reference-mismatch', mismatch.providerReference(part.contractId));
    const truth = await this.ask(
      () => this.provider.getAutomaticAuthorization(row.provider_authorization_id),
      'autorização inexistente no Asaas',
      {
        authorizationId: row.id,
      },
    );
    if (isOutcome(truth)) return truth;
    if (truth) {
      if (truth.contractId !== row.id) return recordedOutcome('reference-mismatch', mismatch.providerReference(truth.contractId));
      if (truth.status !== announced) return recordedOutcome('not-confirmed', `Asaas: ${truth.status}`);
    }
    switch (announced) {
      case 'ACTIVE':
        return this.activate(row);
      case 'CANCELLED':
        return this.end(row, 'CANCELLED', 'bank');
      case 'REFUSED':
        return this.end(row, 'REFUSED', 'refused', ['CREATED']);
      case 'EXPIRED':
        return this.end(row, 'EXPIRED', 'expired');
      default:
        return appliedOutcome;
    }
  }

  /**
   * PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_*: a cycle's debit at the payer's bank. Created or
   * scheduled: its id is kept. Refused, or cancelled by the payer while the authorization lasts: the
   * cycle was not debited (no money moves; a notice and a push say so).
   */
  async instruction(event: string, part: InstructionPart): Promise<EventOutcome> {
    const what = instructionEventKind(event);
    const found = await this.cycleOfInstruction(part);
    if (isOutcome(found)) return found;
    const { cycle, charge, authorization } = found;
    const truth = await this.ask(() => this.provider.getAutomaticInstruction(part.id), 'instrução de pagamento inexistente no Asaas', {
      instructionId: part.id,
    });
    if (isOutcome(truth)) return truth;
    if (truth) {
      if (truth.paymentId !== charge.provider_charge_id)
        return recordedOutcome('reference-mismatch', mismatch.paymentOfAnother(truth.paymentId ?? '-', charge.id));
      if (truth.authorizationId !== null && truth.authorizationId !== authorization.provider_authorization_id)
        return recordedOutcome('reference-mismatch', mismatch.authorizationOfAnother(truth.authorizationId));
      if ((what === 'REFUSED' || what === 'CANCELLED') && truth.status !== what)
        return recordedOutcome('not-confirmed', `Asaas: ${truth.status}`);
    }
    const bankWords = truth?.refusalReason ?? part.refusalReason ?? null;
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('pix_automatic_cycles')
        .set({ instruction_id: part.id })
        .where('charge_id', '=', cycle.charge_id)
        .where((eb) => eb.or([eb('instruction_id', 'is', null), eb('instruction_id', '!=', part.id)]))
        .execute();
      if (what === 'REFUSED') await this.notDebited(trx, charge, 'REFUSED', reasonOf(bankWords, pixAutomaticMessages.defaultRefusal));
      if (what === 'CANCELLED') {
        // The payer cancelled this one debit in the bank app (an ended authorization's cycles are already cancelled).
        if (authorization.status === 'ACTIVE') await this.notDebited(trx, charge, 'CANCELLED', pixAutomaticMessages.cancelledAtBank);
      }
    });
    return appliedOutcome;
  }

  /**
   * The first Pix of an authorization's QR Code (PAYMENT_RECEIVED / CONFIRMED). Asaas reports it
   * without an externalReference, naming the QR Code (pixQrCodeId: the conciliationIdentifier we
   * stored) or the authorization: when the provider confirms a payment of exactly the authorization's
   * value, paid, for that QR Code, it becomes the authorization's cycle 1, a Pix charge the settlement
   * credits as any other. null: not such a payment (the webhook goes on as usual).
   */
  async bindFirstPayment(payment: PaymentPart): Promise<EventOutcome | null> {
    if (payment.externalReference) return null;
    const stored = await this.db.kysely
      .selectFrom('pix_charges')
      .select('id')
      .where('provider_charge_id', '=', payment.id)
      .executeTakeFirst();
    if (stored) return null;
    const authorization = await this.authorizationOfQr(payment.pixQrCodeId ?? null, payment.pixAutomaticAuthorizationId ?? null);
    if (!authorization) return null;
    const truth = await this.ask(() => this.provider.getPayment(payment.id), 'cobrança inexistente no Asaas', {
      providerChargeId: payment.id,
    });
    if (isOutcome(truth)) return truth;
    const evidence = truth ?? bodyEvidence(payment);
    if (!evidence || !isFirstPayment(authorization, evidence, truth !== null))
      return recordedOutcome('first-payment-unconfirmed', `autorização ${authorization.id}`);
    const chargeId = newId('chg');
    const at = this.now();
    await this.db.kysely.transaction().execute(async (trx) => {
      const first = await trx
        .selectFrom('pix_automatic_cycles')
        .select('charge_id')
        .where('authorization_id', '=', authorization.id)
        .where('number', '=', 1)
        .executeTakeFirst();
      if (first) return;
      const inserted = await trx
        .insertInto('pix_charges')
        .values({
          id: chargeId,
          driver_id: authorization.driver_id,
          provider: authorization.provider,
          provider_charge_id: payment.id,
          amount_cents: Number(authorization.amount_cents),
          payload: authorization.payload,
          encoded_image: null,
          status: 'PENDING',
          expires_at: new Date(authorization.qr_expires_at).toISOString(),
          created_at: at.toISOString(),
          received_at: null,
          refunded_at: null,
        })
        .onConflict((oc) => oc.column('provider_charge_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
      await trx
        .insertInto('pix_automatic_cycles')
        .values({
          charge_id: chargeId,
          authorization_id: authorization.id,
          number: 1,
          due_date: saoPauloDay(at),
          instruction_id: null,
          status: 'SCHEDULED',
          failure_reason: null,
          failed_at: null,
          created_at: at.toISOString(),
        })
        .execute();
    });
    this.log.info(
      { authorizationId: authorization.id, providerChargeId: payment.id },
      'primeiro Pix do Pix Automático vinculado à autorização',
    );
    return null;
  }

  /** A first payment names its QR Code instead of our id: the provider's answer is checked against the stored QR Code. */
  async isFirstPaymentOf(charge: PixChargeRow, truth: ProviderPayment): Promise<boolean> {
    const cycle = await cycleOfCharge(this.db.kysely, charge.id);
    if (!cycle || cycle.number !== 1 || truth.externalReference !== null) return false;
    return (
      (cycle.conciliation_id !== null && truth.pixQrCodeId === cycle.conciliation_id) ||
      truth.automaticAuthorizationId === cycle.provider_authorization_id
    );
  }

  /**
   * PAYMENT_OVERDUE of a cycle's charge: the bank did not debit it on its day (no balance, a limit).
   * True when the charge is a cycle (its payment stays at the provider: the bank may still retry).
   */
  async cycleOverdue(charge: PixChargeRow): Promise<boolean> {
    const cycle = await cycleOfCharge(this.db.kysely, charge.id);
    if (!cycle) return false;
    await this.db.kysely.transaction().execute((trx) => this.notDebited(trx, charge, 'REFUSED', pixAutomaticMessages.overdue));
    return true;
  }

  /** A cycle not debited: marked once, with the reason the driver reads, the charge no longer waiting, the driver told. */
  private async notDebited(trx: Trx, charge: PixChargeRow, status: 'REFUSED' | 'CANCELLED', reason: string): Promise<void> {
    const at = this.now();
    const changed = await trx
      .updateTable('pix_automatic_cycles')
      .set({ status, failure_reason: reason, failed_at: at.toISOString() })
      .where('charge_id', '=', charge.id)
      .where('status', '=', 'SCHEDULED')
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) return;
    await trx.updateTable('pix_charges').set({ status: 'OVERDUE' }).where('id', '=', charge.id).where('status', '=', 'PENDING').execute();
    await enqueueNotification(trx, charge.driver_id, { kind: 'pixAutoCycleFailed', cycleId: charge.id, reason }, at);
    this.log.info({ chargeId: charge.id, driverId: charge.driver_id, status }, 'ciclo do Pix Automático não debitado');
  }

  private async activate(row: PixAutomaticRow): Promise<EventOutcome> {
    const at = this.now();
    const outcome = await this.db.kysely.transaction().execute(async (trx) => {
      const fresh = await lockAuthorization(trx, this.db.dialect, row.id);
      if (!fresh) return 'unknown' as const;
      if (fresh.status !== 'CREATED') return fresh.status === 'ACTIVE' ? ('already' as const) : ('ended-here' as const);
      const day = saoPauloDay(at);
      await trx
        .updateTable('pix_automatic_authorizations')
        .set({
          status: 'ACTIVE',
          activated_at: at.toISOString(),
          anchor_day: Number(day.slice(8, 10)),
          next_due_date: firstDebitDay(fresh.frequency, at),
        })
        .where('id', '=', row.id)
        .execute();
      await enqueueNotification(trx, row.driver_id, { kind: 'pixAutoAuthorizationActive', authorizationId: row.id }, at);
      return 'activated' as const;
    });
    if (outcome === 'ended-here') {
      // Ended here (cancelled, replaced, its QR Code expired) yet authorized at the bank: no debit may follow.
      const cancelled = await this.provider.cancelAutomaticAuthorization(row.provider_authorization_id).catch((error: unknown) => {
        this.log.warn({ err: error, authorizationId: row.id }, 'falha ao cancelar no provedor uma autorização já encerrada no portal');
        return false;
      });
      if (!cancelled) return recordedOutcome('not-confirmed', `autorização ${row.id} encerrada no portal e ativa no banco`);
    }
    if (outcome === 'activated') this.log.info({ authorizationId: row.id, driverId: row.driver_id }, 'Pix Automático ativado');
    return appliedOutcome;
  }

  private async end(
    row: PixAutomaticRow,
    to: 'CANCELLED' | 'REFUSED' | 'EXPIRED',
    reason: PixAutomaticEndReason,
    from?: readonly PixAutomaticStatus[],
  ): Promise<EventOutcome> {
    const at = this.now();
    await this.db.kysely.transaction().execute(async (trx) => {
      const ended = await endAuthorization(trx, row.id, to, reason, at, from);
      if (ended && to === 'CANCELLED')
        await enqueueNotification(trx, row.driver_id, { kind: 'pixAutoAuthorizationCancelled', authorizationId: row.id }, at);
      if (ended) this.log.info({ authorizationId: row.id, driverId: row.driver_id, status: to }, 'Pix Automático encerrado pelo banco');
    });
    return appliedOutcome;
  }

  /** The cycle an instruction is about: by its id, or (first seen) by the payment it debits, which must be a stored cycle's. */
  private async cycleOfInstruction(part: InstructionPart) {
    const byInstruction = await this.db.kysely
      .selectFrom('pix_automatic_cycles')
      .select('charge_id')
      .where('instruction_id', '=', part.id)
      .executeTakeFirst();
    let chargeId = byInstruction?.charge_id ?? null;
    if (chargeId === null) {
      if (!part.paymentId) return recordedOutcome('unknown-instruction');
      const charge = await this.db.kysely
        .selectFrom('pix_charges')
        .select('id')
        .where('provider_charge_id', '=', part.paymentId)
        .executeTakeFirst();
      if (!charge) return recordedOutcome('unknown-instruction');
      chargeId = charge.id;
    }
    const cycle = await cycleOfCharge(this.db.kysely, chargeId);
    if (!cycle) return recordedOutcome('unknown-instruction');
    const charge = await this.db.kysely.selectFrom('pix_charges').selectAll().where('id', '=', chargeId).executeTakeFirstOrThrow();
    if (part.paymentId && part.paymentId !== charge.provider_charge_id)
      return recordedOutcome('reference-mismatch', mismatch.paymentOfAnother(part.paymentId, charge.id));
    if (part.authorization?.id && part.authorization.id !== cycle.provider_authorization_id)
      return recordedOutcome('reference-mismatch', mismatch.authorizationOfAnother(part.authorization.id));
    const authorization = await this.db.kysely
      .selectFrom('pix_automatic_authorizations')
      .selectAll()
      .where('id', '=', cycle.authorization_id)
      .executeTakeFirstOrThrow();
    return { cycle, charge, authorization };
  }

  private async byProviderId(providerAuthorizationId: string): Promise<PixAutomaticRow | null> {
    return (
      (await this.db.kysely
        .selectFrom('pix_automatic_authorizations')
        .selectAll()
        .where('provider_authorization_id', '=', providerAuthorizationId)
        .executeTakeFirst()) ?? null
    );
  }

  private async authorizationOfQr(qrId: string | null, providerAuthorizationId: string | null): Promise<PixAutomaticRow | null> {
    if (qrId) {
      const byQr = await this.db.kysely
        .selectFrom('pix_automatic_authorizations')
        .selectAll()
        .where('conciliation_id', '=', qrId)
        .executeTakeFirst();
      if (byQr) return byQr;
    }
    return providerAuthorizationId ? this.byProviderId(providerAuthorizationId) : null;
  }

  /** What the provider says: null when it keeps no record (local: the event is the truth), or why it could not be asked. */
  private async ask<T>(
    lookup: () => Promise<T | 'missing' | null>,
    missing: string,
    ids: Record<string, string>,
  ): Promise<T | null | EventOutcome> {
    try {
      const truth = await lookup();
      return truth === 'missing' ? recordedOutcome('not-confirmed', missing) : truth;
    } catch (error) {
      if (!(error instanceof PixProviderUnavailable)) throw error;
      this.log.warn({ err: error, ...ids }, 'não foi possível confirmar o evento do Pix Automático com o provedor');
      return recordedOutcome('provider-unavailable');
    }
  }
}

/** The local provider keeps no record: the body's own words, as a payment. */
function bodyEvidence(payment: PaymentPart): ProviderPayment | null {
  let amountCents: number;
  try {
    amountCents = reaisToCents(payment.value);
  } catch {
    return null;
  }
  return {
    status: payment.status ?? 'RECEIVED',
    amountCents,
    refundedCents: 0,
    deleted: payment.deleted === true,
    externalReference: payment.externalReference ?? null,
    pixQrCodeId: payment.pixQrCodeId ?? null,
    automaticAuthorizationId: payment.pixAutomaticAuthorizationId ?? null,
  };
}

/** Paid, of exactly the authorization's value, naming its QR Code or itself, and no other reference. */
function isFirstPayment(authorization: PixAutomaticRow, p: ProviderPayment, fromProvider: boolean): boolean {
  const names =
    (authorization.conciliation_id !== null && p.pixQrCodeId === authorization.conciliation_id) ||
    p.automaticAuthorizationId === authorization.provider_authorization_id;
  const paid = !fromProvider || PAID_STATUSES.has(p.status);
  return names && paid && !p.deleted && p.externalReference === null && p.amountCents === Number(authorization.amount_cents);
}

/** The bank's words for the driver: a sentence as it came, a bare code (MAXIMUM_AMOUNT_EXCEEDED) after our own words. */
function reasonOf(bankWords: string | null, fallback: string): string {
  const cleaned = bankWords === null ? '' : cleanText(bankWords, TEXT_MAX.reason).trim();
  if (cleaned === '') return fallback;
  return /^[A-Z0-9_]+$/.test(cleaned) ? `${fallback} (${cleaned})` : cleaned;
}
