import type { Cents } from './money.js';
import { formatBrl, isReaisAmount, reaisToCents } from './money.js';
import { messages } from './messages.js';

/** Decision 15: the VPO status values are ours, defined once here with their Portuguese labels. */
export const VPO_STATUSES = ['EMITIDO', 'EM_VIAGEM', 'ENCERRADO', 'CANCELADO'] as const;
export type VpoStatus = (typeof VPO_STATUSES)[number];

export const vpoStatusLabels: Record<VpoStatus, string> = {
  EMITIDO: 'Emitido',
  EM_VIAGEM: 'Em viagem',
  ENCERRADO: 'Encerrado',
  CANCELADO: 'Cancelado',
};

export function isVpoStatus(status: string): status is VpoStatus {
  return (VPO_STATUSES as readonly string[]).includes(status);
}

/** The Portuguese label of a status; an unknown value is shown as it came. */
export function vpoStatusLabel(status: string): string {
  return isVpoStatus(status) ? vpoStatusLabels[status] : status;
}

/** Columns of /vpos/listar the server sorts by (SPEC 2: Valor, Placa, Data). */
export const VPO_SORT_FIELDS = ['valor', 'placa', 'data'] as const;
export type VpoSortField = (typeof VPO_SORT_FIELDS)[number];

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Partners that push data into the portal (ARCHITECTURE 5). */
export const PARTNER_KINDS = ['shipper', 'operator', 'platform'] as const;
export type PartnerKind = (typeof PARTNER_KINDS)[number];

/** A partner's amount (reais): above zero, at most max, at most 2 decimals; the message, or null. */
export function partnerValueError(reais: number, maxCents: Cents): string | null {
  if (Number.isNaN(reais) || reais <= 0) return messages.partner.valueInvalid;
  if (reais > maxCents / 100) return messages.partner.valueAboveMaximum.replace('{max}', formatBrl(maxCents));
  // 1e-9 has no third decimal worth the name, yet is zero centavos: refused like zero.
  return isReaisAmount(reais) && reaisToCents(reais) > 0 ? null : messages.partner.valueInvalid;
}
