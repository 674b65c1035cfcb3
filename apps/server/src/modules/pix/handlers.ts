import type { AsaasWebhook } from '@portal/contract';
import type { ProviderPayment, TransferReceiver } from '../../adapters/pix/port.js';
import type { Trx } from '../../db/connection.js';
import type { PixChargeRow, WithdrawalRow } from '../../db/schema.js';
import type { EventOutcome } from './webhook-events.js';

/**
 * What the provider's news does beyond Pix charges, registered where the services are composed
 * (services.ts): withdrawals end by their transfers, and Pix Automático's authorizations, instructions
 * and cycles move with their events. The Pix module calls these and knows nothing else of them.
 */
export interface PixEventHandlers {
  withdrawals: WithdrawalTransfers;
  automatic: AutomaticPixEvents;
}

/** A withdrawal's row and its end, once whatever the number of deliveries (modules/withdrawal). */
export interface WithdrawalTransfers {
  byId(withdrawalId: string): Promise<WithdrawalRow | null>;
  byTransferId(transferId: string): Promise<WithdrawalRow | null>;
  done(ref: { withdrawalId: string }, transferId?: string | null, receiver?: TransferReceiver | null): Promise<WithdrawalRow | null>;
  failed(ref: { withdrawalId: string }, reason: string, transferId?: string | null): Promise<WithdrawalRow | null>;
}

/** Decision 58: Pix Automático's webhook events, bound to its stored objects (modules/pix-automatic). */
export interface AutomaticPixEvents {
  authorization(event: string, part: NonNullable<AsaasWebhook['authorization']>): Promise<EventOutcome>;
  instruction(event: string, part: NonNullable<AsaasWebhook['paymentInstruction']>): Promise<EventOutcome>;
  /** The first payment of an authorization, bound to its cycle; null when the payment is no such one. */
  bindFirstPayment(payment: NonNullable<AsaasWebhook['payment']>): Promise<EventOutcome | null>;
  isFirstPaymentOf(charge: PixChargeRow, truth: ProviderPayment): Promise<boolean>;
  /** A cycle's charge went overdue: true when the cycle took it (the charge is not cancelled at the provider). */
  cycleOverdue(charge: PixChargeRow): Promise<boolean>;
}

/** Decision 58: a charge that pays a cycle of the recurring top-up, in the settlement's transaction. */
export interface CycleCharges {
  isCycleCharge(trx: Trx, chargeId: string): Promise<boolean>;
  /** The cycle's charge is credited: the cycle is paid, and the driver told when `posted` (credited now). */
  cyclePaid(trx: Trx, charge: PixChargeRow, posted: boolean): Promise<void>;
}

const PREFIX_AUTHORIZATION = 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_';
const PREFIX_INSTRUCTION = 'PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_';

/** The provider's Pix Automático event families, and what follows each prefix. */
export const isAuthorizationEvent = (event: string): boolean => event.startsWith(PREFIX_AUTHORIZATION);
export const isInstructionEvent = (event: string): boolean => event.startsWith(PREFIX_INSTRUCTION);
export const authorizationEventState = (event: string): string => event.slice(PREFIX_AUTHORIZATION.length);
export const instructionEventKind = (event: string): string => event.slice(PREFIX_INSTRUCTION.length);
