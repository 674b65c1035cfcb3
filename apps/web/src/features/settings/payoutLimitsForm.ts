import { payoutLimitsRequest, type PayoutLimits } from '@portal/contract';
import { z } from 'zod';
import { typedReais } from '../../components/ui/typedReais';
import { alertLevelText } from './settingsForm';

/**
 * The withdrawal limits form over what was typed: each text becomes reais, then the contract's own
 * rule (payoutLimitsRequest) checks the three, each message under its field.
 */
export const payoutLimitsForm = z.object({ porSaque: typedReais, diario: typedReais, noturno: typedReais }).pipe(payoutLimitsRequest);
export type PayoutLimitsFormInput = z.input<typeof payoutLimitsForm>;
export type PayoutLimitsFormValues = z.output<typeof payoutLimitsForm>;

/**
 * The fields start from what the driver last asked for: a raise still waiting shows its value, so that
 * saving another limit asks for the same raise again instead of dropping it.
 */
export function payoutLimitsText(limits: PayoutLimits): PayoutLimitsFormInput {
  const asked = (limit: PayoutLimits['porSaque']) => alertLevelText(limit.pendente?.valor ?? limit.valor);
  return { porSaque: asked(limits.porSaque), diario: asked(limits.diario), noturno: asked(limits.noturno) };
}
