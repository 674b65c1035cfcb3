import type { PixConfig } from '../../config.js';
import type {
  AutomaticAuthorizationRequest,
  AutomaticCycleRequest,
  ChargeRequest,
  CreatedAutomaticAuthorization,
  CreatedAutomaticCycle,
  CreatedCharge,
  ListedTransfer,
  PayoutRequest,
  PayoutResult,
  PixProvider,
  ProviderAuthorization,
  ProviderInstruction,
  ProviderPayment,
  ProviderTransfer,
} from './port.js';

/** BR Code txid: letters and digits only, at most 25 (Manual do BR Code). */
export function toTxid(id: string): string {
  return id.replace(/[^A-Za-z0-9]/g, '').slice(0, 25);
}

/** The local provider's ids of an authorization and of its QR Code (the CLI's simulated bank names them). */
const localAuthorizationId = (authorizationId: string) => `local_${authorizationId}`;
const localConciliationId = (authorizationId: string) => `local_qr_${authorizationId}`;
/** The first Pix's payment id, as the CLI's bank reports it. */
export const localFirstPaymentId = (authorizationId: string) => `local_first_${authorizationId}`;

/**
 * Development provider: a valid static Pix BR Code to our receiver key with amount and txid;
 * payment is confirmed by the same webhook Asaas would send (CLI pix:pay). Payouts complete at once.
 */
export class LocalPixProvider implements PixProvider {
  readonly name = 'local' as const;

  constructor(private readonly config: Pick<PixConfig, 'receiverKey' | 'merchantName' | 'merchantCity'>) {}

  /** The local provider keeps no customers: nothing to correct. */
  async updateCustomerName(): Promise<void> {}

  async createCharge(request: ChargeRequest): Promise<CreatedCharge> {
    return {
      providerChargeId: `local_${request.chargeId}`,
      payload: await this.brCode(request.chargeId, request.amountCents, 'Compra de saldo'),
      encodedImage: null,
      expiresAt: request.expiresAt,
    };
  }

  /**
   * Decision 58: the local bank's Pix Automático. The QR Code is a plain BR Code of the first Pix
   * (a real one also carries the recurrence); the operator's CLI plays the payer's bank
   * (pix:auto:activate, pix:auto:cycle, pix:auto:refuse, pix:auto:cancel) by sending the webhooks
   * Asaas would send, with the ids made here.
   */
  async createAutomaticAuthorization(request: AutomaticAuthorizationRequest): Promise<CreatedAutomaticAuthorization> {
    return {
      providerAuthorizationId: localAuthorizationId(request.authorizationId),
      payload: await this.brCode(request.authorizationId, request.amountCents, 'Recarga automatica'),
      conciliationId: localConciliationId(request.authorizationId),
      qrExpiresAt: request.qrExpiresAt,
    };
  }

  /** Nothing to ask: the CLI's events are the truth in development. */
  async getAutomaticAuthorization(): Promise<ProviderAuthorization | null> {
    return null;
  }

  async cancelAutomaticAuthorization(): Promise<boolean> {
    return true;
  }

  async createAutomaticCycle(request: AutomaticCycleRequest): Promise<CreatedAutomaticCycle> {
    return { providerChargeId: `local_${request.chargeId}`, instructionId: `local_pi_${request.chargeId}` };
  }

  async getAutomaticInstruction(): Promise<ProviderInstruction | null> {
    return null;
  }

  private async brCode(id: string, amountCents: number, info: string): Promise<string> {
    // Loaded at the first charge, not with the adapter: the server and the CLI start without it.
    const { createStaticPix, hasError } = await import('pix-utils');
    const pix = createStaticPix({
      merchantName: this.config.merchantName,
      merchantCity: this.config.merchantCity,
      pixKey: this.config.receiverKey,
      txid: toTxid(id),
      transactionAmount: amountCents / 100,
      infoAdicional: info,
    });
    if (hasError(pix)) throw new Error(`BR Code inválido: ${pix.message}`);
    return pix.toBRCode();
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

  async transfersSince(): Promise<ListedTransfer[] | null> {
    return null;
  }

  /** A static BR Code cannot be withdrawn; nothing to cancel. */
  async cancelCharge(): Promise<boolean> {
    return true;
  }
}
