import type { PixAutomaticFrequency, PixKeyType } from '@portal/domain';

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
  /** Already normalised (spec §7: digits only for CPF, CNPJ and PHONE). */
  key: string;
  keyType: PixKeyType;
  description: string;
}

/**
 * The holder of the account a Pix key leads to, as the provider reports it (Asaas: the transfer's
 * bankAccount.ownerName and cpfCnpj, the latter often already masked). null: not reported.
 */
export interface TransferReceiver {
  name: string | null;
  document: string | null;
}

export interface PayoutResult {
  /** DONE: the money left; PENDING: a TRANSFER_DONE / TRANSFER_FAILED webhook will tell. */
  status: 'DONE' | 'PENDING';
  providerTransferId: string;
  /** Absent or null when the provider does not say (the local provider has no bank). */
  receiver?: TransferReceiver | null;
}

/**
 * The provider refused the payout for good (bad key, limits...): reason in Portuguese, for the
 * driver. `providerTransferId`: the transfer it created and failed at once, when there is one, so
 * that later events about that transfer name this withdrawal and no other.
 */
export class PayoutRejected extends Error {
  constructor(
    readonly reason: string,
    readonly providerTransferId: string | null = null,
  ) {
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

/** A payment as the provider knows it now (asked before money moves on a webhook, and by pix:reconcile). */
export interface ProviderPayment {
  /** The provider's words: PENDING, RECEIVED, CONFIRMED, OVERDUE, REFUNDED, CHARGEBACK_REQUESTED... */
  status: string;
  amountCents: number;
  /** Sum of the refunds already carried out (DONE), full or partial. */
  refundedCents: number;
  deleted: boolean;
  externalReference: string | null;
  /** Decision 58: the QR Code the payment paid (Asaas pixQrCodeId) and the Pix Automático authorization it belongs to, when reported. */
  pixQrCodeId?: string | null;
  automaticAuthorizationId?: string | null;
}

/** A transfer as the provider knows it now. */
export interface ProviderTransfer {
  /** PENDING, BANK_PROCESSING, DONE, CANCELLED, FAILED (Asaas), BLOCKED. */
  status: string;
  failReason: string | null;
  externalReference: string | null;
  /** What the transfer pays, and to which key (null: not reported). */
  amountCents: number | null;
  pixKey: string | null;
  /** PIX, TED, INTERNAL; null: not reported. */
  operationType: string | null;
  receiver: TransferReceiver | null;
}

/** A transfer found by listing, with the provider's id. */
export interface ListedTransfer extends ProviderTransfer {
  id: string;
}

/**
 * Decision 58: a recurring top-up by Pix Automático ("Jornada 3"): the authorization and, in the same
 * QR Code, its first Pix. The provider's contract id is our id.
 */
export interface AutomaticAuthorizationRequest {
  authorizationId: string;
  amountCents: number;
  frequency: PixAutomaticFrequency;
  /** The São Paulo day it starts, 'YYYY-MM-DD'. */
  startDate: string;
  driver: { name: string; cpfCnpj: string };
  /** Until when the first Pix may be paid. */
  qrExpiresAt: Date;
}

export interface CreatedAutomaticAuthorization {
  providerAuthorizationId: string;
  /** The first Pix's "copia e cola": paying it authorizes the recurring debits. */
  payload: string;
  /** What the first payment will carry to name this QR Code (Asaas: immediateQrCode.conciliationIdentifier). */
  conciliationId: string | null;
  qrExpiresAt: Date;
}

/** An authorization as the provider knows it now (asked before an event about it is believed). */
export interface ProviderAuthorization {
  /** CREATED, ACTIVE, REFUSED, CANCELLED, EXPIRED (Asaas). */
  status: string;
  /** Our id, as we sent it. */
  contractId: string | null;
  amountCents: number | null;
}

/** One cycle's debit: a payment linked to the authorization, due on a São Paulo day. */
export interface AutomaticCycleRequest {
  /** Our charge id: the payment's externalReference. */
  chargeId: string;
  providerAuthorizationId: string;
  amountCents: number;
  dueDate: string;
  driver: { name: string; cpfCnpj: string };
}

export interface CreatedAutomaticCycle {
  providerChargeId: string;
  /** The bank instruction's id when the provider gives it at once (local); Asaas tells it by webhook. */
  instructionId: string | null;
}

/** A cycle's payment instruction as the provider knows it now. */
export interface ProviderInstruction {
  /** AWAITING_REQUEST, SCHEDULED, DONE, CANCELLED, REFUSED (Asaas). */
  status: string;
  paymentId: string | null;
  authorizationId: string | null;
  refusalReason: string | null;
}

/** Payment statuses meaning the money arrived. */
export const PAID_STATUSES: ReadonlySet<string> = new Set(['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']);

/** Port of founding architecture §5: where charges are made and payouts sent. */
export interface PixProvider {
  readonly name: 'local' | 'asaas';
  createCharge(request: ChargeRequest): Promise<CreatedCharge>;
  sendPayout(request: PayoutRequest): Promise<PayoutResult>;
  /**
   * The payment as the provider sees it; null when the provider keeps no record of its own (the
   * local provider: in development the event itself is the truth). Unknown at the provider: 'missing'.
   */
  getPayment(providerChargeId: string): Promise<ProviderPayment | 'missing' | null>;
  getTransfer(providerTransferId: string): Promise<ProviderTransfer | 'missing' | null>;
  /**
   * Decision 60: every transfer the provider holds created on or after `since`'s day (to find a
   * withdrawal's by its externalReference); null when the provider keeps no record of its own (local).
   */
  transfersSince(since: Date): Promise<ListedTransfer[] | null>;
  /** Stops a charge that expired here from being paid later; false when the provider refused (already paid...). */
  cancelCharge(providerChargeId: string): Promise<boolean>;
  /**
   * Decision 58, Pix Automático. There is no call to change an authorization's value (Asaas offers
   * create, read, list and cancel): a new value is a new authorization, the old one cancelled.
   */
  createAutomaticAuthorization(request: AutomaticAuthorizationRequest): Promise<CreatedAutomaticAuthorization>;
  /** Like getPayment: null when the provider keeps no record of its own (local), 'missing' when unknown. */
  getAutomaticAuthorization(providerAuthorizationId: string): Promise<ProviderAuthorization | 'missing' | null>;
  /** False when the provider refused (already cancelled, refused or expired there). */
  cancelAutomaticAuthorization(providerAuthorizationId: string): Promise<boolean>;
  /** The next cycle's payment, sent to the payer's bank as a payment instruction. */
  createAutomaticCycle(request: AutomaticCycleRequest): Promise<CreatedAutomaticCycle>;
  getAutomaticInstruction(instructionId: string): Promise<ProviderInstruction | 'missing' | null>;
  /**
   * Issue 35 (LGPD art. 18, § 6): the driver corrected their name; the provider's customer of that
   * CPF/CNPJ, if it has one, takes it too. Nothing when it has none (it is created with the name of the day).
   */
  updateCustomerName(driver: { name: string; cpfCnpj: string }): Promise<void>;
}
