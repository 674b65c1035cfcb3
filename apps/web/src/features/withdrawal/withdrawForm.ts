import {
  centsToReais,
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

/**
 * spec §5 'Withdrawal' over what was typed, against the balance shown: the domain's rules in their
 * order, the first that fails on its field; then the password for a key not saved yet (decision 44).
 * Out comes the wire's amount (reais), Pix key and `senha`. The password typed goes with the order
 * even once the key is saved (the server then does not ask for it): pressing 'Sacar' again after a
 * lost answer must send the very same order, so that the server answers it once.
 */
export function withdrawForm(balanceCents: Cents, trusted: KeyTrusted) {
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
