import { MAX_AXLES, MIN_AXLES, TAG_SERIAL_MAX_LENGTH } from './constants.js';
import { saoPauloWallClock } from './dates.js';
import { isValidCpfCnpj, stripDocument } from './documents.js';
import { messages } from './messages.js';
import type { FieldErrors } from './registration.js';

/** spec §4 tag status table + founding decision 12 (the codes beyond the spec's table are ours). */
export const TAG_STATUS = {
  active: 100,
  blockedByDriver: 200,
  inactive: 201,
  blockedUnpaidFee: 204,
  blockedByOperator: 210,
  blockedByOperatorSecurity: 296,
  cancelledByDriver: 300,
  cancelledByOperator: 301,
  cancelledByReplacement: 302,
} as const;
export type TagStatusCode = (typeof TAG_STATUS)[keyof typeof TAG_STATUS];

export type TagState = 'active' | 'blocked' | 'inactive' | 'cancelled';
export type TagBadgeColor = 'green' | 'red' | 'yellow' | 'gray';

export interface TagStatusView {
  state: TagState;
  /** Badge text: Ativa, Bloqueada, Inativa, Cancelada. */
  label: string;
  color: TagBadgeColor;
  /** Longer Portuguese description of the code (spec §4 'Meaning' + founding decision 12). */
  description: string;
}

const BLOCKED_CODES: ReadonlySet<number> = new Set([200, 204, 210, 296]);
const CANCELLED_CODES: ReadonlySet<number> = new Set([300, 301, 302]);

const DESCRIPTIONS: Readonly<Record<number, string>> = {
  100: 'Ativa',
  200: 'Bloqueada pelo motorista',
  201: 'Disponível para ativação',
  204: 'Bloqueada por mensalidade em aberto',
  210: 'Bloqueada pela operadora',
  296: 'Bloqueada pela operadora',
  300: 'Cancelada pelo motorista',
  301: 'Cancelada pela operadora',
  302: 'Cancelada por substituição',
};

/** spec §4: badge by status code; null is inactive; any unknown code is shown as cancelled. */
export function statusOf(code: number | null | undefined): TagStatusView {
  if (code === null || code === undefined || code === TAG_STATUS.inactive) {
    return { state: 'inactive', label: 'Inativa', color: 'yellow', description: DESCRIPTIONS[201] ?? 'Inativa' };
  }
  if (code === TAG_STATUS.active) return { state: 'active', label: 'Ativa', color: 'green', description: 'Ativa' };
  if (BLOCKED_CODES.has(code)) {
    return { state: 'blocked', label: 'Bloqueada', color: 'red', description: DESCRIPTIONS[code] ?? 'Bloqueada' };
  }
  return {
    state: 'cancelled',
    label: 'Cancelada',
    color: 'gray',
    description: CANCELLED_CODES.has(code) ? (DESCRIPTIONS[code] ?? 'Cancelada') : 'Cancelada',
  };
}

export function tagState(code: number | null | undefined): TagState {
  return statusOf(code).state;
}

/** Block: sends 200, only from active. */
export function canBlock(code: number | null): boolean {
  return code === TAG_STATUS.active;
}
/** Release: sends 100, from 200 (blocked by the driver) or 204 (pays the pending fee first). */
export function canRelease(code: number | null): boolean {
  return code === TAG_STATUS.blockedByDriver || code === TAG_STATUS.blockedUnpaidFee;
}
/** Edit: only inactive (201 or null), never cancelled. */
export function canEdit(code: number | null): boolean {
  return tagState(code) === 'inactive';
}
/** Activate: an inactive tag becomes active (the monthly fee is debited). */
export function canActivate(code: number | null): boolean {
  return tagState(code) === 'inactive';
}
/** Cancel: sends 300, from any state but cancelled. */
export function canCancel(code: number | null): boolean {
  return tagState(code) !== 'cancelled';
}
/** Replace: disabled when cancelled or inactive (spec §2). */
export function canReplace(code: number | null): boolean {
  const state = tagState(code);
  return state === 'active' || state === 'blocked';
}
/** Delete the tag from its vehicle: only when it is neither active nor blocked (cancel it first). */
export function canRemove(code: number | null): boolean {
  const state = tagState(code);
  return state === 'inactive' || state === 'cancelled';
}
/** Founding decision 7: a vehicle whose tag is active or blocked cannot be deleted. */
export function canDeleteVehicle(tagCode: number | null, hasTag: boolean): boolean {
  return !hasTag || canRemove(tagCode);
}

export const OWNERSHIP_TYPES = ['own', 'operator'] as const;
export type OwnershipType = (typeof OWNERSHIP_TYPES)[number];

export const TAGGY_OPERATOR_NAME = 'Taggy';
export const MOVEMAIS_OPERATOR_NAME = 'MoveMais';
export const GREENPASS_PREFIX = '5666';
/** spec §7: origem sent with block, release and cancel. */
export const TAG_ORIGEM = 'Pedagio motorista';
/** spec §7 statusId of each status change. */
export const TAG_STATUS_IDS = { block: '200', release: '100', cancel: '300' } as const;

export interface ManageableTag {
  ownershipType: string;
  serialNumber: string;
  /** The operator's name (resolve the tag's Operadora CNPJ with the operator list). */
  operatorName: string | null | undefined;
}

/** spec §4: management only for own tags, or Taggy tags whose serial starts with 5666. */
export function canManage(tag: ManageableTag): boolean {
  if (tag.ownershipType === 'own') return true;
  return tag.operatorName === TAGGY_OPERATOR_NAME && isGreenpassSerial(tag.serialNumber);
}

/** Strips spaces (and any separator) and upper-cases: the form a serial is stored and sent in. */
export function normalizeSerial(value: string): string {
  return value.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

/** spec §5: groups of 4, at most 19 characters including spaces. '1234567812345678' -> '1234 5678 1234 5678'. */
export function formatSerial(value: string): string {
  const chars = normalizeSerial(value);
  return (chars.match(/.{1,4}/g) ?? []).join(' ').slice(0, TAG_SERIAL_MAX_LENGTH);
}

export function isGreenpassSerial(serial: string): boolean {
  return normalizeSerial(serial).startsWith(GREENPASS_PREFIX);
}

/** spec §9: Taggy tag with a 5666 serial -> the 60 s warning (messages.tag.greenpassWarning). */
export function isTaggyGreenpassWarning(operatorName: string | null | undefined, serial: string): boolean {
  return operatorName === TAGGY_OPERATOR_NAME && isGreenpassSerial(serial);
}

export const SERIAL_MIN_DIGITS = 8;
export const SERIAL_MAX_DIGITS = 16;

/** The serial message of register/edit (required, length, digits), or null. Greenpass is checked apart. */
function serialFormatError(value: string): string | null {
  const serial = normalizeSerial(value);
  if (serial.length === 0) return messages.tag.serialRequired;
  if (serial.length > SERIAL_MAX_DIGITS) return messages.tag.serialTooLong;
  if (!/^\d+$/.test(serial) || serial.length < SERIAL_MIN_DIGITS) return messages.tag.serialInvalid;
  return null;
}

/** spec §5 'Replace tag': at least 8 alphanumerics. */
export function replaceSerialError(value: string): string | null {
  const serial = normalizeSerial(value);
  if (serial.length < 8 || serial.length > SERIAL_MAX_DIGITS) return messages.tag.replaceSerialInvalid;
  return null;
}

/** Upper-cased, letters and digits only. 'abc-1d23' -> 'ABC1D23'. */
export function normalizePlate(value: string): string {
  return value.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

/** Old Brazilian plate (ABC1234) or Mercosul (ABC1D23). */
export function isValidPlate(value: string): boolean {
  return /^[A-Z]{3}\d[A-Z0-9]\d{2}$/.test(normalizePlate(value));
}

export function plateError(value: string): string | null {
  const plate = normalizePlate(value);
  if (plate.length === 0) return messages.tag.plateRequired;
  if (!isValidPlate(plate)) return messages.tag.plateInvalid;
  return null;
}

/** RNTRC (ANTT registry): digits only, 8 or 9 of them. */
export function normalizeRntrc(value: string): string {
  return value.replace(/\D/g, '');
}
export function rntrcError(value: string): string | null {
  const rntrc = normalizeRntrc(value);
  if (value.trim().length === 0) return messages.tag.rntrcRequired;
  if (!/^\d{8,9}$/.test(rntrc) || /[^\d\s.\-/]/.test(value)) return messages.tag.rntrcInvalid;
  return null;
}

export function anttDocumentError(value: string): string | null {
  const document = stripDocument(value);
  if (document.length === 0) return messages.tag.anttDocumentRequired;
  return isValidCpfCnpj(document) ? null : messages.tag.anttDocumentInvalid;
}

/** The axle options, 2 to 20. */
export const AXLE_OPTIONS: readonly number[] = /* @__PURE__ */ Array.from({ length: MAX_AXLES - MIN_AXLES + 1 }, (_v, i) => i + MIN_AXLES);

/** A select's value ('5', 5, '') as an axle count, or null when missing or not a whole number. */
export function parseAxles(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  if (!/^\d+$/.test(text)) return null;
  return Number(text);
}

export function axlesError(value: number | string | null | undefined): string | null {
  const axles = parseAxles(value);
  if (value === null || value === undefined || String(value).trim() === '') return messages.tag.axlesRequired;
  if (axles === null || axles < MIN_AXLES || axles > MAX_AXLES) return messages.tag.axlesInvalid;
  return null;
}

/** spec §9: vehicleType is 1 for 2 axles, otherwise 2. */
export function vehicleTypeFor(axles: number): 1 | 2 {
  return axles === 2 ? 1 : 2;
}

export interface TagRegistrationFields {
  serialNumber: string;
  /** Operator CNPJ. */
  Operadora: string;
  licensePlate: string;
  CpfCnpjAntt: string;
  RntrcAntt: string;
  axles: number | string | null;
  modelo: string;
}

/** spec §5 'Tag register', in its order; the first failing rule of each field. */
export function tagRegistrationErrors(input: TagRegistrationFields): FieldErrors<keyof TagRegistrationFields> {
  const errors: FieldErrors<keyof TagRegistrationFields> = {};
  const serial = serialFormatError(input.serialNumber);
  if (serial === messages.tag.serialRequired) errors.serialNumber = serial;
  else if (isGreenpassSerial(input.serialNumber)) errors.serialNumber = messages.tag.greenpassRefused;
  else if (serial) errors.serialNumber = serial;
  if (stripDocument(input.Operadora).length === 0) errors.Operadora = messages.tag.operatorRequired;
  const plate = plateError(input.licensePlate);
  if (plate) errors.licensePlate = plate;
  const axles = axlesError(input.axles);
  if (axles) errors.axles = axles;
  if (input.modelo.trim().length === 0) errors.modelo = messages.tag.modelRequired;
  const antt = anttDocumentError(input.CpfCnpjAntt);
  if (antt) errors.CpfCnpjAntt = antt;
  const rntrc = rntrcError(input.RntrcAntt);
  if (rntrc) errors.RntrcAntt = rntrc;
  return errors;
}

export interface TagEditFields {
  serialNumber: string;
  Operadora: string;
  LicensePlate: string;
  CpfCnpjAntt: string;
  RntrcAntt: string;
  Axles: number | string | null;
}

/** spec §5 'Edit tag', in its order. */
export function tagEditErrors(input: TagEditFields): FieldErrors<keyof TagEditFields> {
  const errors: FieldErrors<keyof TagEditFields> = {};
  const serial = serialFormatError(input.serialNumber);
  if (serial) errors.serialNumber = serial;
  if (stripDocument(input.Operadora).length === 0) errors.Operadora = messages.tag.operatorRequired;
  const plate = plateError(input.LicensePlate);
  if (plate) errors.LicensePlate = plate;
  const axles = axlesError(input.Axles);
  if (axles) errors.Axles = axles;
  const antt = anttDocumentError(input.CpfCnpjAntt);
  if (antt) errors.CpfCnpjAntt = antt;
  const rntrc = rntrcError(input.RntrcAntt);
  if (rntrc) errors.RntrcAntt = rntrc;
  return errors;
}

/** The billing period before `period` ('2026-01' -> '2025-12'). */
export function previousBillingPeriod(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

/** Decision 53: the fee of a month the tag was used only through VPO, given back ('Mensalidade da tag … devolvida: uso só com VPO em 11/2026'). */
export function tagFeeWaiverPlaceName(serial: string, period: string): string {
  const [year, month] = period.split('-');
  return messages.tag.feeWaiverPlaceName.replace('{serial}', formatSerial(serial)).replace('{period}', `${month}/${year}`);
}

/** 'Mensalidade da tag 1234 5678 9012 3456'. */
export function tagFeePlaceName(serial: string): string {
  return messages.tag.feePlaceName.replace('{serial}', formatSerial(serial));
}

/** The billing month 'YYYY-MM' of an instant, in America/Sao_Paulo. */
export function billingPeriod(at: Date): string {
  const { year, month } = saoPauloWallClock(at);
  return `${year}-${String(month).padStart(2, '0')}`;
}

/** Why an action is not available, for the screens' explanations; null when it is. */
export type TagAction = 'block' | 'release' | 'cancel' | 'activate' | 'replace' | 'edit' | 'remove';

export function tagActionBlocker(action: TagAction, tag: ManageableTag & { statusCode: number | null }): string | null {
  if (action !== 'remove' && !canManage(tag)) return messages.tag.notManageable;
  const code = tag.statusCode;
  switch (action) {
    case 'block':
      return canBlock(code) ? null : messages.tag.cannotBlock;
    case 'release':
      return canRelease(code) ? null : messages.tag.cannotRelease;
    case 'cancel':
      return canCancel(code) ? null : messages.tag.cannotCancel;
    case 'activate':
      return canActivate(code) ? null : messages.tag.cannotActivate;
    case 'replace':
      return canReplace(code) ? null : messages.tag.cannotReplace;
    case 'edit':
      return canEdit(code) ? null : messages.tag.cannotEditState.replace('{state}', statusOf(code).label.toLowerCase());
    case 'remove':
      return canRemove(code) ? null : messages.tag.cannotRemove;
  }
}
