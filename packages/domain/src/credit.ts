import { MAX_PURCHASE_CENTS, MIN_PURCHASE_CENTS } from './constants.js';
import { messages } from './messages.js';
import type { Cents } from './money.js';
import { isReaisAmount, parseBrlInput, reaisToCents } from './money.js';
import { MIN_WITHDRAWAL_CENTS, payoutMessages } from './payouts.js';
import { isPixKeyType, isValidPixKey, type PixKeyType } from './pix.js';

/** spec §5 'Buy balance' plus founding decision 14's maximum, for an amount already in centavos. */
export function purchaseAmountError(cents: Cents | null): string | null {
  if (cents === null) return messages.purchase.belowMinimum;
  if (cents <= 0) return messages.purchase.amountRequired;
  if (cents < MIN_PURCHASE_CENTS) return messages.purchase.belowMinimum;
  if (cents > MAX_PURCHASE_CENTS) return messages.purchase.aboveMaximum;
  return null;
}

/**
 * The same rule for the amount on the wire (reais): a value too large or with fractions of a
 * centavo gets a message about the value, not the minimum's.
 */
export function purchaseValueError(reais: number): string | null {
  if (Number.isNaN(reais) || reais <= 0) return messages.purchase.amountRequired;
  if (reais > MAX_PURCHASE_CENTS / 100) return messages.purchase.aboveMaximum;
  if (!isReaisAmount(reais)) return messages.purchase.valueInvalid;
  return purchaseAmountError(reaisToCents(reais));
}

/** The same rule for what the driver typed ('' and '0,00' ask for a value). */
export function purchaseInputError(text: string): string | null {
  if (text.trim() === '') return messages.purchase.amountRequired;
  return purchaseAmountError(parseBrlInput(text));
}

export interface WithdrawalFields {
  /** Centavos, or null when what was typed is not a number. */
  amountCents: Cents | null;
  balanceCents: Cents;
  keyType: PixKeyType | '' | null | undefined;
  key: string;
}

export type WithdrawalField = 'amount' | 'pixType' | 'pixKey';

/** spec §5 'Withdrawal': the rules in their order; the first that fails is the answer. */
export function withdrawalError(input: WithdrawalFields): { field: WithdrawalField; message: string } | null {
  if (input.amountCents === null || input.amountCents <= 0) {
    return { field: 'amount', message: messages.withdrawal.amountRequired };
  }
  if (input.amountCents < MIN_WITHDRAWAL_CENTS) return { field: 'amount', message: payoutMessages.belowMinimum };
  if (input.amountCents > input.balanceCents) {
    return { field: 'amount', message: messages.withdrawal.amountAboveBalance };
  }
  if (!input.keyType || !isPixKeyType(input.keyType)) {
    return { field: 'pixType', message: messages.withdrawal.keyTypeRequired };
  }
  if (input.key.trim() === '') return { field: 'pixKey', message: messages.withdrawal.keyRequired };
  if (!isValidPixKey(input.keyType, input.key)) return { field: 'pixKey', message: messages.withdrawal.keyInvalid };
  return null;
}
