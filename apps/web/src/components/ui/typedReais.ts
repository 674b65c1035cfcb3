import { centsToReais, parseBrlInput } from '@portal/domain';
import { z } from 'zod';

/**
 * An amount as typed in a CurrencyInput ('1.000,00') in the wire's reais; what cannot be read goes on
 * as NaN, which the contract's rule it is piped into refuses with its own message.
 */
export const typedReais = z.string().transform((text) => {
  const cents = parseBrlInput(text);
  return cents === null ? Number.NaN : centsToReais(cents);
});
