import type { Cents } from './money.js';
import { formatBrl, isReaisAmount, reaisToCents } from './money.js';
import { messages } from './messages.js';
import { serverMessages } from './serverMessages.js';

/** Founding decision 15: the VPO status values are ours, defined once here with their Portuguese labels. */
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

/** Founding decision 29: every VPO is issued with this status. */
export const VPO_INITIAL_STATUS = 'EMITIDO' satisfies VpoStatus;

/**
 * Founding decision 29, the one state machine of a VPO: EMITIDO -> EM_VIAGEM -> ENCERRADO, EMITIDO or
 * EM_VIAGEM -> CANCELADO; ENCERRADO and CANCELADO are final. It has no cycle, so a status
 * changed under a writer can only have moved forward (vpos/service.ts relies on it).
 */
export const VPO_TRANSITIONS: Readonly<Record<VpoStatus, readonly VpoStatus[]>> = {
  EMITIDO: ['EM_VIAGEM', 'CANCELADO'],
  EM_VIAGEM: ['ENCERRADO', 'CANCELADO'],
  ENCERRADO: [],
  CANCELADO: [],
};

/**
 * Why a VPO may not go from `from` to `to` ('Um VPO Cancelado não pode passar para Emitido'), or
 * null when it may. Staying in the same status is not a move: the caller answers it as done.
 */
export function vpoTransitionRefusal(from: VpoStatus, to: VpoStatus): string | null {
  if (VPO_TRANSITIONS[from].includes(to)) return null;
  return serverMessages.partner.vpoTransitionRefused.replace('{from}', vpoStatusLabels[from]).replace('{to}', vpoStatusLabels[to]);
}

/** Columns of /vpos/listar the server sorts by (spec §2: Valor, Placa, Data). */
export const VPO_SORT_FIELDS = ['valor', 'placa', 'data'] as const;
export type VpoSortField = (typeof VPO_SORT_FIELDS)[number];

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Partners that push data into the portal (founding architecture §5). */
export const PARTNER_KINDS = ['shipper', 'operator', 'platform'] as const;
export type PartnerKind = (typeof PARTNER_KINDS)[number];

/** A partner's amount (reais): above zero, at most max, at most 2 decimals; the message, or null. */
export function partnerValueError(reais: number, maxCents: Cents): string | null {
  if (Number.isNaN(reais) || reais <= 0) return messages.partner.valueInvalid;
  if (reais > maxCents / 100) return messages.partner.valueAboveMaximum.replace('{max}', formatBrl(maxCents));
  // 1e-9 has no third decimal worth the name, yet is zero centavos: refused like zero.
  return isReaisAmount(reais) && reaisToCents(reais) > 0 ? null : messages.partner.valueInvalid;
}
