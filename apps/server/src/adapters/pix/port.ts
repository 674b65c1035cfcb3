import type { PixKeyType } from '@portal/domain';

export interface ChargeRequest {
  /** Our id: the BR Code txid (local) or Asaas's externalReference. */
  chargeId: string;
  amountCents: number;
  driver: { name: string; cpfCnpj: string };
  expiresAt: Date;
}

export interface CreatedCharge {
  providerChargeId: string;
  /** Pix "copia e cola" (BR Code). */
  payload: string;
  /** PNG QR code in base64, when the provider makes one; the web app draws its own otherwise. */
  encodedImage: string | null;
  expiresAt: Date;
}

export interface PayoutRequest {
  withdrawalId: string;
  amountCents: number;
  /** Already normalised (SPEC 7: digits only for CPF, CNPJ and PHONE). */
  key: string;
  keyType: PixKeyType;
  description: string;
}

export interface PayoutResult {
  /** DONE: the money left; PENDING: a TRANSFER_DONE / TRANSFER_FAILED webhook will tell. */
  status: 'DONE' | 'PENDING';
  providerTransferId: string;
}

/** The provider refused the payout for good (bad key, limits...): reason in Portuguese, for the driver. */
export class PayoutRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * The provider did not answer usefully. `mayHaveArrived`: the request may have been carried out
 * (timeout, 5xx, an unreadable success); false only when it surely never got there (connection
 * refused, unknown host, 429). A payout that may have arrived must not be given back blindly.
 */
export class PixProviderUnavailable extends Error {
  constructor(
    message: string,
    readonly mayHaveArrived = true,
  ) {
    super(message);
  }
}

/** Port of ARCHITECTURE 5: where charges are made and payouts sent. */
export interface PixProvider {
  readonly name: 'local' | 'asaas';
  createCharge(request: ChargeRequest): Promise<CreatedCharge>;
  sendPayout(request: PayoutRequest): Promise<PayoutResult>;
}
