import { settingsRequest } from '@portal/contract';
import { centsToReais, messages, parseBrlInput } from '@portal/domain';
import { z } from 'zod';
import { formatCurrencyInput } from '../../components/ui/currency';
import { toCents } from '../../lib/format';

/**
 * The settings form over what was typed ('1.234,56'): the text becomes the wire's reais, then the
 * contract's own rule (settingsRequest) checks it, with its message.
 */
export const settingsForm = z.object({
  nivelAlertaSaldo: z
    .string()
    .transform((text, ctx) => {
      const cents = parseBrlInput(text);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: messages.settings.alertLevelInvalid });
        return z.NEVER;
      }
      return centsToReais(cents);
    })
    .pipe(settingsRequest.unwrap().shape.nivelAlertaSaldo),
});
export type SettingsFormInput = z.input<typeof settingsForm>;
export type SettingsFormValues = z.output<typeof settingsForm>;

/** The saved level as the field shows it: 50 -> '50,00' (0 -> '0,00', which the cash-register mask would leave empty). */
export function alertLevelText(reais: number): string {
  const cents = toCents(reais);
  return cents === 0 ? '0,00' : formatCurrencyInput(String(cents));
}
