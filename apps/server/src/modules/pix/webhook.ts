import type { AsaasWebhook } from '@portal/contract';
import { centsToReais, reaisToCents, refuse, serverMessages } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { PixProvider, ProviderPayment, ProviderTransfer } from '../../adapters/pix/port.js';
import type { PixChargeRow, WithdrawalRow } from '../../db/schema.js';
import { PAID_STATUSES, PixProviderUnavailable } from '../../adapters/pix/port.js';
import { withdrawalContradiction } from './contradictions.js';
import { sameTerms } from './transfer-match.js';
import type { ChargeExpiry } from './expiry.js';
import type { AutomaticPixEvents, PixEventHandlers, WithdrawalTransfers } from './handlers.js';
import { isAuthorizationEvent, isInstructionEvent } from './handlers.js';
import type { SettlementService } from './settlement.js';
import type { EventOutcome, UnappliedReason, WebhookEventLog, WebhookOutcome } from './webhook-events.js';
import { appliedOutcome, recordedOutcome } from './webhook-events.js';

const TRANSFER_FAILURES = new Set(['TRANSFER_FAILED', 'TRANSFER_CANCELLED']);
const TRANSFER_FAILED_STATUSES = new Set(['FAILED', 'CANCELLED']);
/** Founding decision 30: a dispute or a refund on its way moves no money until its final event. */
const CHARGEBACKS = new Set(['PAYMENT_CHARGEBACK_REQUESTED', 'PAYMENT_CHARGEBACK_DISPUTE', 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL']);
const REFUNDS_UNDERWAY = new Set(['PAYMENT_REFUND_IN_PROGRESS', 'PAYMENT_REFUND_DENIED']);
/** Once the withdrawal's end is known, these open events about its transfer are settled. */
const TRANSFER_REASONS: readonly UnappliedReason[] = ['transfer-blocked', 'not-confirmed', 'provider-unavailable'];

type Applied = EventOutcome;

const applied: Applied = appliedOutcome;
const recorded = recordedOutcome;

type Payment = NonNullable<AsaasWebhook['payment']>;
type Transfer = NonNullable<AsaasWebhook['transfer']>;

const mismatch = serverMessages.pix.mismatch;

/**
 * POST /api/webhooks/asaas. Asaas counts only HTTP 200 as delivered and, after repeated failures,
 * pauses every later event: so every authenticated, well-formed event is answered 200. What
 * cannot be applied moves no money and is recorded for the operator (pix:events). Before money
 * moves, the payment or transfer is confirmed with the provider (the body alone is not trusted),
 * and it must be the very object stored on our row (founding decision 26): the payment or transfer id we
 * stored, tied to our row by the externalReference the provider reports. An event whose ids cross
 * (one object's id with another row's reference) is recorded as 'reference-mismatch'.
 */
export class AsaasWebhookHandler {
  private readonly listeners: ((outcome: WebhookOutcome) => void)[] = [];
  private readonly withdrawals: WithdrawalTransfers;
  /** Decision 58: Pix Automático's authorizations, instructions and first payments. */
  private readonly automatic: AutomaticPixEvents;

  constructor(
    private readonly settlement: SettlementService,
    handlers: PixEventHandlers,
    private readonly provider: PixProvider,
    private readonly events: WebhookEventLog,
    private readonly expiry: ChargeExpiry,
    private readonly log: FastifyBaseLogger,
  ) {
    this.withdrawals = handlers.withdrawals;
    this.automatic = handlers.automatic;
  }

  /** For metrics: called once per authenticated event with what became of it. */
  onOutcome(listener: (outcome: WebhookOutcome) => void): void {
    this.listeners.push(listener);
  }

  /** The Mensagem of the 200; a 422 refusal only for a body missing the part its event needs. */
  async handle(body: AsaasWebhook): Promise<string> {
    const outcome = await this.apply(body);
    if (outcome.result === 'recorded') {
      await this.events.record(body, outcome.reason, outcome.detail);
      this.log.warn({ event: body.event, id: body.id, reason: outcome.reason }, 'evento do Asaas registrado sem aplicar');
    }
    const report: WebhookOutcome = {
      event: body.event,
      result: outcome.result,
      ...(outcome.result === 'recorded' ? { reason: outcome.reason } : {}),
    };
    for (const listener of this.listeners) {
      try {
        listener(report);
      } catch (error) {
        this.log.error({ err: error }, 'falha em um ouvinte de eventos do webhook');
      }
    }
    if (outcome.result === 'applied') return serverMessages.pix.webhookProcessed;
    return outcome.result === 'recorded' ? serverMessages.pix.webhookRecorded : serverMessages.pix.webhookIgnored;
  }

  private async apply(body: AsaasWebhook): Promise<Applied> {
    switch (body.event) {
      case 'PAYMENT_RECEIVED':
      case 'PAYMENT_CONFIRMED':
        return this.received(requirePart(body.payment));
      case 'PAYMENT_OVERDUE':
        return this.overdue(requirePart(body.payment));
      case 'PAYMENT_DELETED':
        return this.deleted(requirePart(body.payment));
      case 'PAYMENT_REFUNDED':
        return this.refunded(requirePart(body.payment));
      case 'PAYMENT_PARTIALLY_REFUNDED':
        return this.partiallyRefunded(requirePart(body.payment));
      case 'TRANSFER_DONE':
        return this.transferDone(requirePart(body.transfer));
      case 'TRANSFER_BLOCKED':
        return this.transferBlocked(requirePart(body.transfer));
      default:
        if (TRANSFER_FAILURES.has(body.event)) return this.transferFailed(requirePart(body.transfer));
        if (CHARGEBACKS.has(body.event)) return this.noted(requirePart(body.payment), 'chargeback');
        if (REFUNDS_UNDERWAY.has(body.event)) return this.noted(requirePart(body.payment), 'refund-in-progress');
        if (isAuthorizationEvent(body.event)) return this.automatic.authorization(body.event, requirePart(body.authorization));
        if (isInstructionEvent(body.event)) return this.automatic.instruction(body.event, requirePart(body.paymentInstruction));
        return { result: 'ignored' };
    }
  }

  private async received(payment: Payment): Promise<Applied> {
    // Decision 58: the first Pix of a Pix Automático QR Code names the QR Code, not our id: bound first.
    const first = await this.automatic.bindFirstPayment(payment);
    if (first) return first;
    const charge = await this.chargeOf(payment);
    if (isRecorded(charge)) return charge;
    const truth = await this.confirmCharge(charge);
    if (isRecorded(truth)) return truth;
    let paidReais = payment.value;
    if (truth) {
      if (!PAID_STATUSES.has(truth.status)) return recorded('not-confirmed', `Asaas: ${truth.status}`);
      paidReais = centsToReais(truth.amountCents);
    }
    const outcome = await this.settlement.received({ chargeId: charge.id }, paidReais);
    if (outcome === 'refunded-before') {
      this.log.warn(
        { chargeId: charge.id, driverId: charge.driver_id, paymentId: payment.id },
        'o Asaas contradiz uma cobrança já estornada',
      );
      return recorded('contradiction', serverMessages.pix.contradiction.charge(charge.id, 'REFUNDED', truth?.status ?? 'RECEIVED'));
    }
    if (outcome === 'amount-mismatch') return recorded('amount-mismatch', `pago ${paidReais}`);
    if (outcome === 'unknown-charge') return recorded('unknown-charge');
    return applied;
  }

  /** No money moves: PENDING -> OVERDUE, and the provider stops taking payments for it. */
  private async overdue(payment: Payment): Promise<Applied> {
    const charge = await this.chargeOf(payment);
    if (isRecorded(charge)) return charge;
    if ((await this.settlement.overdue({ chargeId: charge.id })) !== 'overdue') return applied;
    // A Pix Automático cycle the bank did not debit on its day: the driver is told; the bank may still retry it.
    if (!(await this.automatic.cycleOverdue(charge))) await this.expiry.cancelAtProvider(charge);
    return applied;
  }

  /** Removed at the provider (often our own cancel): a PENDING charge can no longer be paid. */
  private async deleted(payment: Payment): Promise<Applied> {
    const charge = await this.chargeOf(payment);
    if (isRecorded(charge)) return charge;
    if (charge.status === 'RECEIVED') return recorded('deleted-after-payment');
    await this.settlement.overdue({ chargeId: charge.id });
    await this.expiry.markCancelled(charge.id);
    return applied;
  }

  private async refunded(payment: Payment): Promise<Applied> {
    const charge = await this.chargeOf(payment);
    if (isRecorded(charge)) return charge;
    const truth = await this.confirmCharge(charge);
    if (isRecorded(truth)) return truth;
    if (truth && truth.status !== 'REFUNDED') return recorded('not-confirmed', `Asaas: ${truth.status}`);
    await this.settlement.refunded({ chargeId: charge.id });
    return applied;
  }

  private async partiallyRefunded(payment: Payment): Promise<Applied> {
    const charge = await this.chargeOf(payment);
    if (isRecorded(charge)) return charge;
    const truth = await this.confirmCharge(charge);
    if (isRecorded(truth)) return truth;
    const refundedCents = truth ? truth.refundedCents : refundsInBody(payment);
    if (refundedCents === null || refundedCents <= 0) return recorded('refund-amount-unknown');
    const outcome = await this.settlement.partiallyRefunded({ chargeId: charge.id }, refundedCents);
    if (outcome === 'not-credited') return recorded('refund-before-credit');
    if (outcome === 'unknown-charge') return recorded('unknown-charge');
    return applied;
  }

  /** Recorded so the operator sees it; the charge must still be ours. */
  private async noted(payment: Payment, reason: UnappliedReason): Promise<Applied> {
    const charge = await this.chargeOf(payment);
    return isRecorded(charge) ? charge : recorded(reason);
  }

  private async transferDone(transfer: Transfer): Promise<Applied> {
    const found = await this.withdrawalOf(transfer);
    if (isRecorded(found)) return found;
    const { w, truth } = found;
    if (truth && truth.status !== 'DONE') return recorded('not-confirmed', `Asaas: ${truth.status}`);
    const row = await this.withdrawals.done({ withdrawalId: w.id }, transfer.id, truth?.receiver);
    if (row?.provider_transfer_id !== transfer.id) return recorded('reference-mismatch', mismatch.withdrawalHasAnother(w.id));
    if (row.status === 'FAILED') return this.contradicted(row, 'DONE', transfer.id);
    await this.events.resolveFor(transfer.id, TRANSFER_REASONS, 'resolvido: transferência concluída (TRANSFER_DONE)');
    return applied;
  }

  private async transferFailed(transfer: Transfer): Promise<Applied> {
    const found = await this.withdrawalOf(transfer);
    if (isRecorded(found)) return found;
    const { w, truth } = found;
    if (truth && !TRANSFER_FAILED_STATUSES.has(truth.status)) return recorded('not-confirmed', `Asaas: ${truth.status}`);
    const reason = truth?.failReason?.trim() || transfer.failReason?.trim() || serverMessages.withdrawal.payoutRejected;
    const row = await this.withdrawals.failed({ withdrawalId: w.id }, reason, transfer.id);
    if (row?.provider_transfer_id !== transfer.id) return recorded('reference-mismatch', mismatch.withdrawalHasAnother(w.id));
    if (row.status === 'DONE') return this.contradicted(row, 'FAILED', transfer.id);
    await this.events.resolveFor(transfer.id, TRANSFER_REASONS, 'resolvido: transferência não concluída; valor devolvido');
    return applied;
  }

  /**
   * Decision 60: the provider ends a transfer the other way than the withdrawal was already settled
   * (given back, then paid; or paid, then failed). Nothing moves here: it is recorded, counted and
   * logged, and the operator applies it through the ledger with pix:contradiction:apply.
   */
  private contradicted(w: WithdrawalRow, theirs: 'DONE' | 'FAILED', transferId: string): Applied {
    this.log.warn(
      { withdrawalId: w.id, driverId: w.driver_id, transferId, ours: w.status, theirs },
      'o Asaas contradiz um saque já encerrado',
    );
    return recorded('contradiction', withdrawalContradiction(w, theirs));
  }

  /** The money is held at Asaas: the withdrawal stays PROCESSING, and the operator must see it. */
  private async transferBlocked(transfer: Transfer): Promise<Applied> {
    const found = await this.withdrawalOf(transfer);
    if (isRecorded(found)) return found;
    return recorded('transfer-blocked', `saque ${found.w.id}`);
  }

  /**
   * The charge an event may act on: the one that stored its payment id, when the event's
   * externalReference (if any) names that same charge. A payment id no charge stored, with the
   * externalReference of a charge that stored another, is a crossed event: nothing is applied.
   */
  private async chargeOf(payment: Payment): Promise<PixChargeRow | Applied> {
    const claimed = payment.externalReference ?? null;
    const stored = await this.settlement.byProviderId(payment.id);
    if (stored)
      return claimed === null || claimed === stored.id
        ? stored
        : recorded('reference-mismatch', mismatch.paymentOfAnother(payment.id, stored.id));
    if (claimed === null || !(await this.settlement.byId(claimed))) return recorded('unknown-charge');
    return recorded('reference-mismatch', mismatch.chargeHasAnother(claimed));
  }

  /** The provider's payment, which must name our charge as its externalReference. */
  private async confirmCharge(charge: PixChargeRow): Promise<ProviderPayment | null | Applied> {
    const truth = await this.confirmPayment(charge.provider_charge_id);
    if (isRecorded(truth) || truth === null || truth.externalReference === charge.id) return truth;
    // Decision 58: a Pix Automático authorization's first Pix names its QR Code, not our id.
    if (await this.automatic.isFirstPaymentOf(charge, truth)) return truth;
    return recorded('reference-mismatch', mismatch.providerReference(truth.externalReference));
  }

  /**
   * The withdrawal an event may act on, with what the provider says of the transfer. Stored
   * transfer id: that withdrawal, if the event's externalReference agrees. None stored on the
   * named withdrawal (the event came before the payout's answer, or the payout's outcome is
   * unknown): only when the provider confirms the transfer is this withdrawal's, for its value and
   * key; its id is then kept.
   */
  private async withdrawalOf(transfer: Transfer): Promise<{ w: WithdrawalRow; truth: ProviderTransfer | null } | Applied> {
    const claimed = transfer.externalReference ?? null;
    const stored = await this.withdrawals.byTransferId(transfer.id);
    if (stored && claimed !== null && claimed !== stored.id)
      return recorded('reference-mismatch', mismatch.transferOfAnother(transfer.id, stored.id));
    const w = stored ?? (claimed === null ? null : await this.withdrawals.byId(claimed));
    if (!w) return recorded('unknown-withdrawal');
    if (!stored && w.provider_transfer_id) return recorded('reference-mismatch', mismatch.withdrawalHasAnother(w.id));
    const truth = await this.confirmTransfer(transfer.id);
    if (isRecorded(truth)) return truth;
    if (truth && truth.externalReference !== w.id)
      return recorded('reference-mismatch', mismatch.providerReference(truth.externalReference));
    // A reference alone proves nothing (anyone with the API key can write it): the transfer must also
    // pay what the withdrawal asked, to the key it asked.
    if (!stored && !(truth && sameTerms(truth, w))) return recorded('reference-mismatch', mismatch.transferUnconfirmed);
    return { w, truth };
  }

  /** What the provider says of a payment: null when it has nothing to ask (local), else its state or why not. */
  private confirmPayment(id: string): Promise<ProviderPayment | null | Applied> {
    return this.confirm(() => this.provider.getPayment(id), 'cobrança inexistente no Asaas', { providerChargeId: id });
  }

  private confirmTransfer(id: string): Promise<ProviderTransfer | null | Applied> {
    return this.confirm(() => this.provider.getTransfer(id), 'transferência inexistente no Asaas', { providerTransferId: id });
  }

  private async confirm<T>(
    lookup: () => Promise<T | 'missing' | null>,
    missing: string,
    ids: Record<string, string>,
  ): Promise<T | null | Applied> {
    try {
      const truth = await lookup();
      return truth === 'missing' ? recorded('not-confirmed', missing) : truth;
    } catch (error) {
      if (!(error instanceof PixProviderUnavailable)) throw error;
      this.log.warn({ err: error, ...ids }, 'não foi possível confirmar o evento com o provedor');
      return recorded('provider-unavailable');
    }
  }
}

function isRecorded(value: unknown): value is Applied {
  return typeof value === 'object' && value !== null && 'result' in value;
}

/** Sum of the refunds the body lists (the local provider: nothing else to ask); null when none is listed. */
function refundsInBody(payment: Payment): number | null {
  const refunds = payment.refunds?.filter((r) => r.status === undefined || r.status === 'DONE') ?? [];
  if (refunds.length === 0) return null;
  try {
    return refunds.reduce((sum, r) => sum + reaisToCents(r.value), 0);
  } catch {
    return null;
  }
}

function requirePart<T>(part: T | undefined): T {
  if (!part) throw refuse.invalid(serverMessages.session.invalidRequest);
  return part;
}
