import type { TransferValidationAnswer, TransferValidationRequest } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { WithdrawalOutcomes } from './outcome.js';
import { centsOf, sameKey } from '../pix/transfer-match.js';

export type RefusalReason = keyof typeof serverMessages.transferValidation.refused;

/** What became of one validation: counted by whoever listens (metrics). */
export interface ValidationOutcome {
  result: 'approved' | 'refused';
  reason?: RefusalReason;
}

type Transfer = NonNullable<TransferValidationRequest['transfer']>;

/**
 * Asaas's transfer validation (founding decision 25): Asaas asks before it carries out any transfer of the
 * account, and we approve only a Pix transfer this portal created for a withdrawal still waiting
 * for it, with the same value and key, and the transfer id the withdrawal stored (or none stored
 * yet: the id is then kept, so a second transfer for the same withdrawal is refused). A leaked API
 * key can create transfers; it cannot get them approved.
 */
export class TransferValidator {
  private readonly listeners: ((outcome: ValidationOutcome) => void)[] = [];

  constructor(
    private readonly withdrawals: WithdrawalOutcomes,
    private readonly log: FastifyBaseLogger,
  ) {}

  onOutcome(listener: (outcome: ValidationOutcome) => void): void {
    this.listeners.push(listener);
  }

  async validate(body: TransferValidationRequest): Promise<TransferValidationAnswer> {
    const transfer = body.transfer ?? null;
    const reason = body.type === 'TRANSFER' && transfer ? await this.refusal(transfer) : 'not-a-transfer';
    // Ids only: never the key, nor the holder's name or document that Asaas sends along.
    const ids = { type: body.type, transferId: transfer?.id ?? null, withdrawalId: transfer?.externalReference ?? null };
    if (reason) this.log.warn({ ...ids, reason }, 'transferência recusada na validação de saque do Asaas');
    else this.log.info(ids, 'transferência aprovada na validação de saque do Asaas');
    this.report(reason ? { result: 'refused', reason } : { result: 'approved' });
    return reason ? { status: 'REFUSED', refuseReason: serverMessages.transferValidation.refused[reason] } : { status: 'APPROVED' };
  }

  private async refusal(t: Transfer): Promise<RefusalReason | null> {
    if ((t.operationType ?? 'PIX') !== 'PIX') return 'not-pix';
    const w = t.externalReference ? await this.withdrawals.byId(t.externalReference) : null;
    if (!w) return 'unknown-withdrawal';
    if (w.provider_transfer_id && w.provider_transfer_id !== t.id) return 'other-transfer';
    if (w.status !== 'PROCESSING') return 'not-processing';
    const terms = {
      amountCents: centsOf(t.value),
      pixKey: t.pixAddressKey ?? t.bankAccount?.pixAddressKey ?? null,
      pixKeyType: t.pixAddressKeyType,
    };
    if (terms.amountCents !== w.amount_cents) return 'value-mismatch';
    if (!sameKey(terms, w)) return 'key-mismatch';
    if (!w.provider_transfer_id) {
      // Asaas may ask before the payout's answer reached us: this transfer becomes the withdrawal's.
      // The payout's answer may have stored this very id meanwhile: only another withdrawal's is a refusal.
      const holder = await this.withdrawals.byTransferId(t.id);
      if (holder && holder.id !== w.id) return 'other-transfer';
      const claimed = await this.withdrawals.claimTransfer(w.id, t.id);
      if (claimed?.provider_transfer_id !== t.id) return 'other-transfer';
    }
    return null;
  }

  private report(outcome: ValidationOutcome): void {
    for (const listener of this.listeners) {
      try {
        listener(outcome);
      } catch (error) {
        this.log.error({ err: error }, 'falha em um ouvinte da validação de saque');
      }
    }
  }
}
