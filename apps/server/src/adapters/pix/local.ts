import { createStaticPix, hasError } from 'pix-utils';
import type { PixConfig } from '../../config.js';
import type { ChargeRequest, CreatedCharge, PayoutRequest, PayoutResult, PixProvider, ProviderPayment, ProviderTransfer } from './port.js';

/** BR Code txid: letters and digits only, at most 25 (Manual do BR Code). */
export function toTxid(id: string): string {
  return id.replace(/[^A-Za-z0-9]/g, '').slice(0, 25);
}

/**
 * Development provider: a valid static Pix BR Code to our receiver key with amount and txid;
 * payment is confirmed by the same webhook Asaas would send (CLI pix:pay). Payouts complete at once.
 */
export class LocalPixProvider implements PixProvider {
  readonly name = 'local' as const;

  constructor(private readonly config: Pick<PixConfig, 'receiverKey' | 'merchantName' | 'merchantCity'>) {}

  async createCharge(request: ChargeRequest): Promise<CreatedCharge> {
    const pix = createStaticPix({
      merchantName: this.config.merchantName,
      merchantCity: this.config.merchantCity,
      pixKey: this.config.receiverKey,
      txid: toTxid(request.chargeId),
      transactionAmount: request.amountCents / 100,
      infoAdicional: 'Compra de saldo',
    });
    if (hasError(pix)) throw new Error(`BR Code inválido: ${pix.message}`);
    return {
      providerChargeId: `local_${request.chargeId}`,
      payload: pix.toBRCode(),
      encodedImage: null,
      expiresAt: request.expiresAt,
    };
  }

  /** No bank behind it: the key's holder is not reported, and the receipt says so. */
  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    return { status: 'DONE', providerTransferId: `local_${request.withdrawalId}`, receiver: null };
  }

  /** Nothing to ask: in development the webhook (pix:pay) is the source of truth. */
  async getPayment(): Promise<ProviderPayment | null> {
    return null;
  }

  async getTransfer(): Promise<ProviderTransfer | null> {
    return null;
  }

  /** A static BR Code cannot be withdrawn; nothing to cancel. */
  async cancelCharge(): Promise<boolean> {
    return true;
  }
}
