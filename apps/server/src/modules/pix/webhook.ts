import type { AsaasWebhook } from '@portal/contract';
import { centsToReais, reaisToCents, serverMessages } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { PixProvider, ProviderPayment, ProviderTransfer } from '../../adapters/pix/port.js';
import { PAID_STATUSES, PixProviderUnavailable } from '../../adapters/pix/port.js';
import { HttpError } from '../../http/errors.js';
import type { WithdrawalOutcomes } from '../withdrawal/outcome.js';
import type { ChargeExpiry } from './expiry.js';
import type { SettlementService } from './settlement.js';
import type { UnappliedReason, WebhookEventLog, WebhookOutcome } from './webhook-events.js';

const TRANSFER_FAILURES = new Set(['TRANSFER_FAILED', 'TRANSFER_CANCELLED']);
const TRANSFER_FAILED_STATUSES = new Set(['FAILED', 'CANCELLED']);
/** Decision 30: a dispute or a refund on its way moves no money until its final event. */
const CHARGEBACKS = new Set(['PAYMENT_CHARGEBACK_REQUESTED', 'PAYMENT_CHARGEBACK_DISPUTE', 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL']);
const REFUNDS_UNDERWAY = new Set(['PAYMENT_REFUND_IN_PROGRESS', 'PAYMENT_REFUND_DENIED']);
/** Once the withdrawal's end is known, these open events about its transfer are settled. */
const TRANSFER_REASONS: readonly UnappliedReason[] = ['transfer-blocked', 'not-confirmed', 'provider-unavailable'];

type Applied = { result: 'applied' } | { result: 'ignored' } | { result: 'recorded'; reason: UnappliedReason; detail?: string };

const applied: Applied = { result: 'applied' };
const recorded = (reason: UnappliedReason, detail?: string): Applied => ({ result: 'recorded', reason, detail });

type Payment = NonNullable<AsaasWebhook['payment']>;
type Transfer = NonNullable<AsaasWebhook['transfer']>;

/**
 * POST /api/webhooks/asaas. Asaas counts only HTTP 200 as delivered and, after repeated failures,
 * pauses every later event: so every authenticated, well-formed event is answered 200. What
 * cannot be applied moves no money and is recorded for the operator (pix:events). Before money
 * moves, the payment or transfer is confirmed with the provider (the body alone is not trusted).
 */
export class AsaasWebhookHandler {
  private readonly listeners: ((outcome: WebhookOutcome) => void)[] = [];

  constructor(
    private readonly settlement: SettlementService,
    private readonly withdrawals: WithdrawalOutcomes,
    private readonly provider: PixProvider,
    private readonly events: WebhookEventLog,
    private readonly expiry: ChargeExpiry,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** For metrics: called once per authenticated event with what became of it. */
  onOutcome(listener: (outcome: WebhookOutcome) => void): void {
    this.listeners.push(listener);
  }

  /** The Mensagem of the 200; HttpError 422 only for a body missing the part its event needs. */
  async handle(body: AsaasWebhook): Promise<string> {
    const outcome = await this.apply(body);
    if (outcome.result === 'recorded') {
      await this.events.record(body, outcome.reason, outcome.detail);
      this.log.warn({ event: body.event, id: body.id, reason: outcome.reason }, 'evento do Asaas registrado sem aplicar');
    }
    const report: WebhookOutcome = { event: body.event, result: outcome.result, ...(outcome.result === 'recorded' ? { reason: outcome.reason } : {}) };
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
        return { result: 'ignored' };
    }
  }

  private async received(payment: Payment): Promise<Applied> {
    const charge = await this.settlement.find(chargeRef(payment));
    if (!charge) return recorded('unknown-charge');
    const truth = await this.confirmPayment(charge.provider_charge_id);
    if (isRecorded(truth)) return truth;
    let paidReais = payment.value;
    if (truth) {
      if (!PAID_STATUSES.has(truth.status)) return recorded('not-confirmed', `Asaas: ${truth.status}`);
      paidReais = centsToReais(truth.amountCents);
    }
    const outcome = await this.settlement.received({ chargeId: charge.id }, paidReais);
    if (outcome === 'amount-mismatch') return recorded('amount-mismatch', `pago ${paidReais}`);
    if (outcome === 'unknown-charge') return recorded('unknown-charge');
    return applied;
  }

  /** No money moves: PENDING -> OVERDUE, and the provider stops taking payments for it. */
  private async overdue(payment: Payment): Promise<Applied> {
    const charge = await this.settlement.find(chargeRef(payment));
    if (!charge) return recorded('unknown-charge');
    if ((await this.settlement.overdue({ chargeId: charge.id })) === 'overdue') await this.expiry.cancelAtProvider(charge);
    return applied;
  }

  /** Removed at the provider (often our own cancel): a PENDING charge can no longer be paid. */
  private async deleted(payment: Payment): Promise<Applied> {
    const charge = await this.settlement.find(chargeRef(payment));
    if (!charge) return recorded('unknown-charge');
    if (charge.status === 'RECEIVED') return recorded('deleted-after-payment');
    await this.settlement.overdue({ chargeId: charge.id });
    await this.expiry.markCancelled(charge.id);
    return applied;
  }

  private async refunded(payment: Payment): Promise<Applied> {
    const charge = await this.settlement.find(chargeRef(payment));
    if (!charge) return recorded('unknown-charge');
    const truth = await this.confirmPayment(charge.provider_charge_id);
    if (isRecorded(truth)) return truth;
    if (truth && truth.status !== 'REFUNDED') return recorded('not-confirmed', `Asaas: ${truth.status}`);
    await this.settlement.refunded({ chargeId: charge.id });
    return applied;
  }

  private async partiallyRefunded(payment: Payment): Promise<Applied> {
    const charge = await this.settlement.find(chargeRef(payment));
    if (!charge) return recorded('unknown-charge');
    const truth = await this.confirmPayment(charge.provider_charge_id);
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
    const charge = await this.settlement.find(chargeRef(payment));
    return recorded(charge ? reason : 'unknown-charge');
  }

  private async transferDone(transfer: Transfer): Promise<Applied> {
    const w = await this.withdrawals.find(transferRef(transfer));
    if (!w) return recorded('unknown-withdrawal');
    const truth = await this.confirmTransfer(transfer.id);
    if (isRecorded(truth)) return truth;
    if (truth && truth.status !== 'DONE') return recorded('not-confirmed', `Asaas: ${truth.status}`);
    await this.withdrawals.done({ withdrawalId: w.id }, transfer.id);
    await this.events.resolveFor(transfer.id, TRANSFER_REASONS, 'resolvido: transferência concluída (TRANSFER_DONE)');
    return applied;
  }

  private async transferFailed(transfer: Transfer): Promise<Applied> {
    const w = await this.withdrawals.find(transferRef(transfer));
    if (!w) return recorded('unknown-withdrawal');
    const truth = await this.confirmTransfer(transfer.id);
    if (isRecorded(truth)) return truth;
    if (truth && !TRANSFER_FAILED_STATUSES.has(truth.status)) return recorded('not-confirmed', `Asaas: ${truth.status}`);
    const reason = truth?.failReason?.trim() || transfer.failReason?.trim() || serverMessages.withdrawal.payoutRejected;
    await this.withdrawals.failed({ withdrawalId: w.id }, reason);
    await this.events.resolveFor(transfer.id, TRANSFER_REASONS, 'resolvido: transferência não concluída; valor devolvido');
    return applied;
  }

  /** The money is held at Asaas: the withdrawal stays PROCESSING, and the operator must see it. */
  private async transferBlocked(transfer: Transfer): Promise<Applied> {
    const w = await this.withdrawals.find(transferRef(transfer));
    if (!w) return recorded('unknown-withdrawal');
    return recorded('transfer-blocked', `saque ${w.id}`);
  }

  /** What the provider says of a payment: null when it has nothing to ask (local), else its state or why not. */
  private confirmPayment(id: string): Promise<ProviderPayment | null | Applied> {
    return this.confirm(() => this.provider.getPayment(id), 'cobrança inexistente no Asaas', { providerChargeId: id });
  }

  private confirmTransfer(id: string): Promise<ProviderTransfer | null | Applied> {
    return this.confirm(() => this.provider.getTransfer(id), 'transferência inexistente no Asaas', { providerTransferId: id });
  }

  private async confirm<T>(lookup: () => Promise<T | 'missing' | null>, missing: string, ids: Record<string, string>): Promise<T | null | Applied> {
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
  if (!part) throw new HttpError(422, serverMessages.session.invalidRequest);
  return part;
}

function chargeRef(payment: Payment) {
  return { providerChargeId: payment.id, chargeId: payment.externalReference ?? null };
}

function transferRef(transfer: Transfer) {
  return { providerTransferId: transfer.id, withdrawalId: transfer.externalReference ?? null };
}
