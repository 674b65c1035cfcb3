import {
  centsToReais,
  formatBrl,
  NEW_PIX_KEY_CAP_CENTS,
  isValidPixKey,
  messages,
  normalizePixKey,
  parseBrlInput,
  payoutMessages,
  PIX_KEY_TYPES,
  withdrawalError,
  type Cents,
  type PixKeyType,
} from '@portal/domain';
import { z } from 'zod';

/** Whether a key may receive without the password: the driver's own CPF/CNPJ or a key saved (decision 44). */
export type KeyTrusted = (type: PixKeyType, key: string) => boolean;

/** Whether the form asks for the password: a whole, valid key that is neither the driver's own nor saved. */
export function needsPassword(type: PixKeyType | '', key: string, trusted: KeyTrusted): boolean {
  return type !== '' && isValidPixKey(type, key) && !trusted(type, key);
}

/** What a key in its first 24 hours may still receive, and the sentence that says so (decision 44). */
export interface NewKeyCap {
  leftCents: Cents;
  /** Why a larger value is refused, on the Valor field. */
  exceeded: string;
}

/**
 * The cap of the typed key, or null when it has none: a key not saved yet (it would be saved by this
 * withdrawal) may receive NEW_PIX_KEY_CAP_CENTS; a key saved less than 24 hours ago what it has left.
 */
export type KeyCapOf = (type: PixKeyType, key: string) => NewKeyCap | null;

export const unsavedKeyCap: NewKeyCap = {
  leftCents: NEW_PIX_KEY_CAP_CENTS,
  exceeded: payoutMessages.newKeyCapExceeded(formatBrl(NEW_PIX_KEY_CAP_CENTS)),
};

/** The cap a valid key typed now is known to have, or null. */
export function capOfTyped(type: PixKeyType | '', key: string, capOf: KeyCapOf): NewKeyCap | null {
  return type !== '' && isValidPixKey(type, key) ? capOf(type, key) : null;
}

/**
 * spec §5 'Withdrawal' over what was typed, against the balance shown: the domain's rules in their
 * order, the first that fails on its field; then a new key's cap, then the password for a key not
 * saved yet (decision 44).
 * Out comes the wire's amount (reais), Pix key and `senha`. The password typed goes with the order
 * even once the key is saved (the server then does not ask for it): pressing 'Sacar' again after a
 * lost answer must send the very same order, so that the server answers it once.
 */
export function withdrawForm(balanceCents: Cents, trusted: KeyTrusted, capOf: KeyCapOf = () => null) {
  return z
    .object({
      amount: z.string(),
      pixType: z.enum(PIX_KEY_TYPES).or(z.literal('')),
      pixKey: z.string(),
      senha: z.string(),
    })
    .transform(({ amount, pixType, pixKey, senha }, ctx) => {
      const amountCents = amount.trim() === '' ? null : parseBrlInput(amount);
      const problem = withdrawalError({ amountCents, balanceCents, keyType: pixType, key: pixKey });
      // withdrawalError refuses a missing amount or key type first; the check is here for the types.
      if (problem || amountCents === null || pixType === '') {
        const { field, message } = problem ?? { field: 'amount', message: messages.withdrawal.amountRequired };
        ctx.addIssue({ code: 'custom', path: [field], message });
        return z.NEVER;
      }
      // A new key's cap before its password: no password is asked for a value it could not receive.
      const cap = capOfTyped(pixType, pixKey, capOf);
      if (cap && amountCents > cap.leftCents) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: cap.exceeded });
        return z.NEVER;
      }
      if (senha === '' && needsPassword(pixType, pixKey, trusted)) {
        ctx.addIssue({ code: 'custom', path: ['senha'], message: payoutMessages.passwordRequired });
        return z.NEVER;
      }
      return {
        amount: centsToReais(amountCents),
        pix: { type: pixType, key: normalizePixKey(pixType, pixKey) },
        ...(senha ? { senha } : {}),
      };
    });
}
export type WithdrawFormInput = z.input<ReturnType<typeof withdrawForm>>;
export type WithdrawFormValues = z.output<ReturnType<typeof withdrawForm>>;
