import type { Cents } from './money.js';
import { formatBrl, isReaisAmount, reaisToCents } from './money.js';
import { parseOffsetDateTime } from './dates.js';
import { messages } from './messages.js';
import { serverMessages } from './serverMessages.js';

const DAY_MS = 86_400_000;

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
export const PARTNER_KINDS = ['shipper', 'operator', 'platform', 'concessionaire'] as const;
export type PartnerKind = (typeof PARTNER_KINDS)[number];

/** A partner's amount (reais): above zero, at most max, at most 2 decimals; the message, or null. */
export function partnerValueError(reais: number, maxCents: Cents): string | null {
  if (Number.isNaN(reais) || reais <= 0) return messages.partner.valueInvalid;
  if (reais > maxCents / 100) return messages.partner.valueAboveMaximum.replace('{max}', formatBrl(maxCents));
  // 1e-9 has no third decimal worth the name, yet is zero centavos: refused like zero.
  return isReaisAmount(reais) && reaisToCents(reais) > 0 ? null : messages.partner.valueInvalid;
}

/** Decision 52: a VPO holds its money for the trip while it is EMITIDO or EM_VIAGEM (and inside its window). */
export const VPO_OPEN_STATUSES = ['EMITIDO', 'EM_VIAGEM'] as const satisfies readonly VpoStatus[];

export function isVpoOpenStatus(status: string): boolean {
  return (VPO_OPEN_STATUSES as readonly string[]).includes(status);
}

/**
 * Decision 52: the trip window a shipper does not give runs from the issue for this many days
 * (the longest road trips in Brazil, Porto Alegre to Manaus or Belém, take under ten).
 */
export const VPO_DEFAULT_TRIP_DAYS = 15;
/** The longest window a shipper may give; a start at most this far ahead. */
export const VPO_MAX_TRIP_DAYS = 60;

export interface VpoTripInput {
  inicioViagem?: string | undefined;
  fimViagem?: string | undefined;
}

/** The window's field errors (pt-BR), none when it can be used; dates are ISO 8601 with offset. */
export function vpoTripErrors(input: VpoTripInput, now: Date = new Date()): { inicioViagem?: string; fimViagem?: string } {
  const errors: { inicioViagem?: string; fimViagem?: string } = {};
  const start = input.inicioViagem === undefined ? now : parseOffsetDateTime(input.inicioViagem);
  const end = input.fimViagem === undefined ? null : parseOffsetDateTime(input.fimViagem);
  if (!start) errors.inicioViagem = messages.partner.occurredAtInvalid;
  else if (start.getTime() > now.getTime() + VPO_MAX_TRIP_DAYS * DAY_MS) errors.inicioViagem = messages.partner.tripStartTooFar;
  if (input.fimViagem !== undefined && !end) errors.fimViagem = messages.partner.occurredAtInvalid;
  else if (end && start) {
    if (end.getTime() <= start.getTime()) errors.fimViagem = messages.partner.tripEndBeforeStart;
    else if (end.getTime() - start.getTime() > VPO_MAX_TRIP_DAYS * DAY_MS) errors.fimViagem = messages.partner.tripTooLong;
    else if (end.getTime() <= now.getTime()) errors.fimViagem = messages.partner.tripEnded;
  }
  return errors;
}

/** The window a VPO holds its money for: the shipper's, or from `now` for VPO_DEFAULT_TRIP_DAYS. */
export function vpoTripWindow(input: VpoTripInput, now: Date = new Date()): { start: Date; end: Date } {
  const start = (input.inicioViagem === undefined ? null : parseOffsetDateTime(input.inicioViagem)) ?? now;
  const end =
    (input.fimViagem === undefined ? null : parseOffsetDateTime(input.fimViagem)) ??
    new Date(start.getTime() + VPO_DEFAULT_TRIP_DAYS * DAY_MS);
  return { start, end };
}

/** One open VPO's money, in the order passages use them (oldest first). */
export interface VpoFunds {
  id: number;
  leftCents: Cents;
}

/** How a passage of `dueCents` is paid: from each open VPO in turn, then what is missing from Saldo. */
export interface PassageSplit {
  fromVpos: { id: number; cents: Cents }[];
  fromSaldoCents: Cents;
}

/** Decision 52: the oldest open VPO first, each as far as it goes, and only the rest from Saldo. */
export function splitPassage(dueCents: Cents, open: readonly VpoFunds[]): PassageSplit {
  let rest = dueCents;
  const fromVpos: PassageSplit['fromVpos'] = [];
  for (const vpo of open) {
    if (rest === 0) break;
    const cents = Math.min(rest, Math.max(vpo.leftCents, 0));
    if (cents > 0) {
      fromVpos.push({ id: vpo.id, cents });
      rest -= cents;
    }
  }
  return { fromVpos, fromSaldoCents: rest };
}

/** A VPO's route as the driver reads it: 'Campinas (SP) – Santos (SP)', or that it was not given. */
export function vpoRoute(origin: string | null, destination: string | null): string {
  if (!origin && !destination) return messages.vpo.routeUnknown;
  return `${origin ?? '—'} – ${destination ?? '—'}`;
}
