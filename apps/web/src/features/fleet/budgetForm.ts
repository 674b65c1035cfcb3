import { zodResolver } from '@hookform/resolvers/zod';
import { vehicleBudgetValue, type VehicleBudget } from '@portal/contract';
import { z } from 'zod';
import { formatCurrencyInput } from '../../components/ui/currency';
import { typedReais } from '../../components/ui/typedReais';
import { toCents } from '../../lib/format';

/** The value as typed ('1.500,00') becomes reais and meets the contract's own rule and message; 'Tirar orçamento' sends null. */
const budgetForm = z.object({
  valor: typedReais.pipe(vehicleBudgetValue),
  bloquearNoLimite: z.boolean(),
});
export type BudgetFormInput = z.input<typeof budgetForm>;
export type BudgetFormValues = z.output<typeof budgetForm>;
export const budgetResolver = zodResolver(budgetForm);

/** The server's 422 field names (the contract's vehicleBudgetRequest) are the form's own. */
export const BUDGET_SERVER_FIELDS = { valor: 'valor', bloquearNoLimite: 'bloquearNoLimite' } as const;

/** The form starts from the vehicle's budget ('' without one). */
export function budgetText(budget: Pick<VehicleBudget, 'orcamento' | 'bloquearNoLimite'>): BudgetFormInput {
  return {
    valor: budget.orcamento === null ? '' : formatCurrencyInput(String(toCents(budget.orcamento))),
    bloquearNoLimite: budget.bloquearNoLimite,
  };
}
