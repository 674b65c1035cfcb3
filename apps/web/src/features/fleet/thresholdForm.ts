import { zodResolver } from '@hookform/resolvers/zod';
import { approvalThresholdRequest, type WithdrawalApprovalsResponse } from '@portal/contract';
import { z } from 'zod';
import { formatCurrencyInput } from '../../components/ui/currency';
import { typedReais } from '../../components/ui/typedReais';
import { toCents } from '../../lib/format';

/**
 * The dual control's value over what was typed ('5.000,00'): the text becomes reais, then the
 * contract's own rule (approvalThresholdRequest) checks it, with its message. Turning it off is a
 * button of its own (valor null).
 */
const thresholdForm = z.object({ valor: typedReais.pipe(approvalThresholdRequest.unwrap().shape.valor.unwrap()) });
export type ThresholdFormInput = z.input<typeof thresholdForm>;
export type ThresholdFormValues = z.output<typeof thresholdForm>;
export const thresholdResolver = zodResolver(thresholdForm);

/** The server's 422 field name (the contract's approvalThresholdRequest) is the form's own. */
export const THRESHOLD_SERVER_FIELDS = { valor: 'valor' } as const;

/**
 * The field starts from what was last asked for: a raise still waiting shows its value (saving again
 * asks for the same raise), else the value in force; '' while it is off.
 */
export function thresholdText({ limite, pendente }: Pick<WithdrawalApprovalsResponse, 'limite' | 'pendente'>): ThresholdFormInput {
  const asked = pendente ? pendente.valor : limite;
  return { valor: asked === null ? '' : formatCurrencyInput(String(toCents(asked))) };
}
