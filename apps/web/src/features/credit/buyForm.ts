import { centsToReais, messages, parseBrlInput, purchaseInputError } from '@portal/domain';
import { z } from 'zod';

/** spec §5 'Buy balance' (the domain's rule) over what was typed ('1.234,56'); out comes the wire's reais. */
export const buyForm = z.object({
  valor: z.string().transform((text, ctx) => {
    const message = purchaseInputError(text);
    const cents = parseBrlInput(text);
    if (message !== null || cents === null) {
      ctx.addIssue({ code: 'custom', message: message ?? messages.purchase.belowMinimum });
      return z.NEVER;
    }
    return centsToReais(cents);
  }),
});
export type BuyFormInput = z.input<typeof buyForm>;
export type BuyFormValues = z.output<typeof buyForm>;
