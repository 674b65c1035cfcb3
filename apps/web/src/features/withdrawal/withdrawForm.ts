import { centsToReais, messages, normalizePixKey, parseBrlInput, PIX_KEY_TYPES, withdrawalError, type Cents } from '@portal/domain';
import { z } from 'zod';

/**
 * SPEC 5 'Withdrawal' over what was typed, against the balance shown: the domain's rules in their
 * order, the first that fails on its field. Out comes the wire's amount (reais) and Pix key.
 */
export function withdrawForm(balanceCents: Cents) {
  return z
    .object({
      amount: z.string(),
      pixType: z.enum(PIX_KEY_TYPES).or(z.literal('')),
      pixKey: z.string(),
    })
    .transform(({ amount, pixType, pixKey }, ctx) => {
      const amountCents = amount.trim() === '' ? null : parseBrlInput(amount);
      const problem = withdrawalError({ amountCents, balanceCents, keyType: pixType, key: pixKey });
      // withdrawalError refuses a missing amount or key type first; the check is here for the types.
      if (problem || amountCents === null || pixType === '') {
        const { field, message } = problem ?? { field: 'amount', message: messages.withdrawal.amountRequired };
        ctx.addIssue({ code: 'custom', path: [field], message });
        return z.NEVER;
      }
      return { amount: centsToReais(amountCents), pix: { type: pixType, key: normalizePixKey(pixType, pixKey) } };
    });
}
export type WithdrawFormInput = z.input<ReturnType<typeof withdrawForm>>;
export type WithdrawFormValues = z.output<ReturnType<typeof withdrawForm>>;
