import { refuse, vehicleBudgetMessages } from '@portal/domain';
import type { BudgetChangeRecorder } from '../vehicle-budgets/service.js';
import type { Acting } from './access.js';
import type { AuditLog } from './audit.js';

/** Decision 78: budgets are a company's (CNPJ): a driver's own account has no Gestor to tell. */
export function budgetsOfCompaniesOnly(acting: Acting): void {
  if (!acting.company) throw refuse.forbidden(vehicleBudgetMessages.onlyCompanies);
}

/** A budget's change on the company's trail, with before and after, in the change's transaction. */
export function budgetTrail(audit: AuditLog, companyId: number, acting: Acting, address: string): BudgetChangeRecorder {
  return (trx, before, after) =>
    audit.record(companyId, acting, { action: 'Alterou o orçamento mensal de um veículo', outcome: 'ok', address, before, after }, trx);
}
