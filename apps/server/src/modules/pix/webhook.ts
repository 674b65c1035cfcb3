import type { AsaasWebhook } from '@portal/contract';
import { messages } from '@portal/domain';
import { HttpError, notFound } from '../../http/errors.js';
import type { WithdrawalOutcomes } from '../withdrawal/outcome.js';
import type { SettlementService } from './settlement.js';

const TRANSFER_FAILURES = new Set(['TRANSFER_FAILED', 'TRANSFER_CANCELLED']);

/** POST /api/webhooks/asaas: one Asaas event -> the Mensagem of a 200, or an HttpError (4xx). */
export class AsaasWebhookHandler {
  constructor(
    private readonly settlement: SettlementService,
    private readonly withdrawals: WithdrawalOutcomes,
  ) {}

  async handle(body: AsaasWebhook): Promise<string> {
    switch (body.event) {
      case 'PAYMENT_RECEIVED':
      case 'PAYMENT_CONFIRMED': {
        const payment = requirePart(body.payment);
        await this.settlement.received(chargeRef(payment), payment.value);
        return messages.pix.webhookProcessed;
      }
      case 'PAYMENT_OVERDUE':
        await this.settlement.overdue(chargeRef(requirePart(body.payment)));
        return messages.pix.webhookProcessed;
      case 'PAYMENT_REFUNDED':
        await this.settlement.refunded(chargeRef(requirePart(body.payment)));
        return messages.pix.webhookProcessed;
      case 'TRANSFER_DONE': {
        const transfer = requirePart(body.transfer);
        const w = await this.withdrawals.done(transferRef(transfer), transfer.id);
        if (!w) throw notFound(messages.pix.withdrawalNotFound);
        return messages.pix.webhookProcessed;
      }
      default:
        if (TRANSFER_FAILURES.has(body.event)) {
          const transfer = requirePart(body.transfer);
          const reason = transfer.failReason?.trim() || messages.withdrawal.payoutRejected;
          const w = await this.withdrawals.failed(transferRef(transfer), reason);
          if (!w) throw notFound(messages.pix.withdrawalNotFound);
          return messages.pix.webhookProcessed;
        }
        return messages.pix.webhookIgnored;
    }
  }
}

function requirePart<T>(part: T | undefined): T {
  if (!part) throw new HttpError(422, messages.session.invalidRequest);
  return part;
}

function chargeRef(payment: NonNullable<AsaasWebhook['payment']>) {
  return { providerChargeId: payment.id, chargeId: payment.externalReference ?? null };
}

function transferRef(transfer: NonNullable<AsaasWebhook['transfer']>) {
  return { providerTransferId: transfer.id, withdrawalId: transfer.externalReference ?? null };
}
