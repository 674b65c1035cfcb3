import { zodResolver } from '@hookform/resolvers/zod';
import { costCentreReportQuery, costCentreRequest } from '@portal/contract';
import { saoPauloWallClock } from '@portal/domain';
import type { z } from 'zod';

/** What a cost centre's form holds: the name and the code as typed. */
export type CostCentreFormInput = z.input<typeof costCentreRequest>;
/** What is sent: the name trimmed, the code trimmed and in capitals (the contract's own transforms). */
export type CostCentreFormValues = z.output<typeof costCentreRequest>;

export const emptyCostCentreForm: CostCentreFormInput = { nome: '', codigo: '' };

/** The server's 422 field names (the contract's costCentreRequest) are the form's own; a code taken comes on 'codigo'. */
export const COST_CENTRE_SERVER_FIELDS = { nome: 'nome', codigo: 'codigo' } as const;

/** The contract's own rules for a cost centre (costCentreRequest), each message under its field. */
export const costCentreResolver = zodResolver(costCentreRequest);

/** A report's month as the contract reads it (costCentreReportQuery's `mes`, 'AAAA-MM'), with its message. */
const reportMonth = costCentreReportQuery.unwrap().pick({ mes: true });
export type ReportFormValues = z.output<typeof reportMonth>;
export const reportResolver = zodResolver(reportMonth);

/** The month before `now`'s, in São Paulo, as 'AAAA-MM': the last whole month, the report's usual one. */
export function previousMonth(now: Date = new Date()): string {
  const { year, month } = saoPauloWallClock(now);
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}
