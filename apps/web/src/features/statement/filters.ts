import type { StatementFilters } from '@portal/contract';
import { messages, normalizePlate, statementKindLabels, statementPeriodLabels } from '@portal/domain';

/**
 * The statement's filters as the URL carries them (?periodo=&de=&ate=&tipo=, and decision 79's
 * ?placa=, ?centro= or ?motorista=: the contract's names), kept as typed: the filter form shows
 * them, and the contract's statementFilters says what is wrong with them.
 */
export interface StatementFilterForm {
  periodo: string;
  de: string;
  ate: string;
  tipo: string;
  /** Decision 79: a plate of the account, a cost centre's id or a Motorista's membership id; one at a time. */
  placa: string;
  centro: string;
  motorista: string;
}

/** Decision 79: whose entries the statement keeps (one of them at a time, or none: the whole account's). */
export const WHOSE_FILTERS = ['placa', 'centro', 'motorista'] as const satisfies readonly (keyof StatementFilterForm)[];
export type WhoseFilter = (typeof WHOSE_FILTERS)[number];

const FILTER_PARAMS = ['periodo', 'de', 'ate', 'tipo', ...WHOSE_FILTERS] as const satisfies readonly (keyof StatementFilterForm)[];

/** No filter: the whole history, every kind (the list's address without parameters). */
export const NO_FILTERS: StatementFilters = { periodo: 'tudo' };

export function readFilterForm(params: URLSearchParams): StatementFilterForm {
  return {
    periodo: params.get('periodo') || 'tudo',
    de: params.get('de') ?? '',
    ate: params.get('ate') ?? '',
    tipo: params.get('tipo') ?? '',
    placa: params.get('placa') ?? '',
    centro: params.get('centro') ?? '',
    motorista: params.get('motorista') ?? '',
  };
}

/** Only what the period uses: the days belong to a chosen range ('intervalo'), nowhere else. */
export function normalizeFilters(filters: StatementFilters): StatementFilters {
  const { periodo, tipo, placa, centro, motorista } = filters;
  return {
    periodo,
    ...(periodo === 'intervalo' ? { de: filters.de, ate: filters.ate } : {}),
    ...(tipo ? { tipo } : {}),
    ...(placa ? { placa } : {}),
    ...(centro !== undefined ? { centro } : {}),
    ...(motorista !== undefined ? { motorista } : {}),
  };
}

/** The filters in the URL's parameters (and the API's query): the defaults are left out. */
export function filterParams(filters: StatementFilters): Partial<Record<(typeof FILTER_PARAMS)[number], string>> {
  const f = normalizeFilters(filters);
  return {
    ...(f.periodo !== 'tudo' ? { periodo: f.periodo } : {}),
    ...(f.de ? { de: f.de } : {}),
    ...(f.ate ? { ate: f.ate } : {}),
    ...(f.tipo ? { tipo: f.tipo } : {}),
    ...(f.placa ? { placa: f.placa } : {}),
    ...(f.centro !== undefined ? { centro: String(f.centro) } : {}),
    ...(f.motorista !== undefined ? { motorista: String(f.motorista) } : {}),
  };
}

/** Writes the filters into the URL's parameters; a new filter starts on page 1. */
export function writeFilters(params: URLSearchParams, filters: StatementFilters): void {
  params.delete('page');
  // Always in the same order: one address for one set of filters.
  for (const name of FILTER_PARAMS) params.delete(name);
  for (const [name, value] of Object.entries(filterParams(filters))) params.set(name, value);
}

export function hasFilters(filters: StatementFilters): boolean {
  return Object.keys(filterParams(filters)).length > 0;
}

/** '2026-11-05' -> '05/11/2026'. */
function dayLabel(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

/** What the chips say: 'Este mês', '01/11/2026 a 15/11/2026'; 'Compras de saldo', 'Todos os tipos'. */
export function filterLabels(filters: StatementFilters): { period: string; kind: string } {
  const period =
    filters.periodo === 'intervalo' && filters.de && filters.ate
      ? messages.statement.exportPeriod(dayLabel(filters.de), dayLabel(filters.ate))
      : statementPeriodLabels[filters.periodo];
  return { period, kind: filters.tipo ? statementKindLabels[filters.tipo] : ALL_KINDS_LABEL };
}

export const ALL_KINDS_LABEL = 'Todos os tipos';

/**
 * Decision 79: the filter of whose entries the statement keeps, if any, as the form's select names
 * it ('placa:FRT1A11', 'centro:3', 'motorista:5'); from the form's texts or the applied filters.
 */
export function whoseValueOf(filters: Partial<Record<WhoseFilter, string | number>>): string | null {
  for (const field of WHOSE_FILTERS) {
    const value = filters[field];
    if (value !== undefined && value !== '') return `${field}:${field === 'placa' ? normalizePlate(String(value)) : value}`;
  }
  return null;
}

/** 'centro:3' -> the form's three fields, that one set and the others empty (one at a time); null -> all empty. */
export function whoseFields(value: string | null): Pick<StatementFilterForm, WhoseFilter> {
  const fields = { placa: '', centro: '', motorista: '' };
  const at = value?.indexOf(':') ?? -1;
  if (value && at > 0) {
    const field = value.slice(0, at);
    if ((WHOSE_FILTERS as readonly string[]).includes(field)) fields[field as WhoseFilter] = value.slice(at + 1);
  }
  return fields;
}
