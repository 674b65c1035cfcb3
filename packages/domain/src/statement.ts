import { saoPauloWallClock } from './dates.js';
import { messages } from './messages.js';
import { vpoRoute } from './vpos.js';

/** Where a ledger entry came from (spec §3 'origin'); the first three are the spec's, the rest ours. */
export const STATEMENT_ORIGINS = {
  passage: 'passagem',
  thirdPartyDebit: 'debito-terceiro-movemais',
  thirdPartyCredit: 'credito-terceiro-movemais',
  pixPurchase: 'compra-pix',
  pixRefund: 'estorno-compra-pix',
  pixWithdrawal: 'saque-pix',
  pixWithdrawalReversal: 'devolucao-saque-pix',
  /** Decision 60: a withdrawal given back whose transfer the bank completed after all: debited again, unguarded. */
  pixWithdrawalAfterReversal: 'saque-pix-apos-devolucao',
  tagFee: 'mensalidade-tag',
  /** Decision 53: the fee of a month the tag was used only through VPO, back to Saldo. */
  tagFeeWaiver: 'devolucao-mensalidade-tag',
  /** Decision 52: the movements of a VPO's money (never Saldo): issued, a passage it paid, the rest back to the shipper. */
  vpoIssued: 'vpo-recebido',
  vpoPassage: 'passagem-vpo',
  vpoRefund: 'devolucao-vpo',
  /** Decision 56: an accepted contest gives a passage back to the account that paid it. */
  passageRefund: 'estorno-passagem',
  vpoPassageRefund: 'estorno-passagem-vpo',
  /** Decision 58: a cycle of the recurring top-up by Pix Automático (its first Pix included). */
  pixAutomaticTopUp: 'recarga-pix-automatico',
  /** Decision 76: a free-flow toll paid by Saldo or by a VPO of the trip, and given back (withdrawn or contested). */
  freeFlowToll: 'pedagio-sem-cancela',
  freeFlowTollVpo: 'pedagio-sem-cancela-vpo',
  freeFlowRefund: 'estorno-pedagio-sem-cancela',
  freeFlowVpoRefund: 'estorno-pedagio-sem-cancela-vpo',
} as const;
export type StatementOrigin = (typeof STATEMENT_ORIGINS)[keyof typeof STATEMENT_ORIGINS];

/** place_name of the entries the portal itself writes (the statement shows them with the first word capitalised). */
export const STATEMENT_PLACE_NAMES = {
  pixPurchase: 'Compra de saldo via Pix',
  pixRefund: 'Estorno de compra via Pix',
  pixWithdrawal: 'Saque via Pix',
  pixWithdrawalReversal: 'Devolução de saque via Pix',
  pixAutomaticTopUp: 'Recarga automática via Pix',
  /**
   * Decision 60: the provider's truth applied after the portal had settled the other way. A withdrawal
   * given back whose transfer the bank completed after all (a debit); a purchase
   * taken back whose payment the bank confirms (a credit, 'compra-pix'); a purchase credited whose
   * payment the bank undid (a debit, 'estorno-compra-pix').
   */
  pixWithdrawalAfterReversal: 'Saque via Pix concluído pelo banco após a devolução',
  pixPurchaseConfirmedLate: 'Compra via Pix confirmada pelo banco após o estorno',
  pixPurchaseUndone: 'Compra via Pix desfeita pelo banco após o crédito',
} as const;

const USER_ORIGINS: ReadonlySet<string> = new Set([
  STATEMENT_ORIGINS.pixPurchase,
  STATEMENT_ORIGINS.pixAutomaticTopUp,
  STATEMENT_ORIGINS.pixRefund,
  STATEMENT_ORIGINS.pixWithdrawal,
  STATEMENT_ORIGINS.pixWithdrawalReversal,
  STATEMENT_ORIGINS.pixWithdrawalAfterReversal,
  STATEMENT_ORIGINS.tagFee,
  STATEMENT_ORIGINS.tagFeeWaiver,
]);

/** spec §3 user_transaction: the driver started the movement (purchase, withdrawal, tag fee), not a partner. */
export function isUserTransactionOrigin(origin: string): boolean {
  return USER_ORIGINS.has(origin);
}

/** spec §2 event labels. The event is not a column, but it is named where the row is explained. */
export const STATEMENT_EVENTS = { RECEIVED: 'Recebido', OVERDUE: 'Atrasado', REFUND: 'Reembolso' } as const;
export type StatementEvent = keyof typeof STATEMENT_EVENTS;

export interface StatementDescription {
  text: string;
  tooltip: string | null;
  /** 'warning' for third-party debits, 'third' for third-party passages. */
  icon: 'warning' | 'third' | null;
}

/** spec §2 '/extrato/listar' description rules by origin. */
export function describeStatementEntry(origin: string, placeName: string, isThird: boolean): StatementDescription {
  switch (origin) {
    case STATEMENT_ORIGINS.thirdPartyDebit:
      return { text: placeName, tooltip: 'Débito de Terceiro', icon: 'warning' };
    case STATEMENT_ORIGINS.thirdPartyCredit:
      return { text: placeName, tooltip: 'Crédito de Terceiro', icon: null };
    case STATEMENT_ORIGINS.vpoPassage:
      return { text: `Passagem por: ${placeName} (paga pelo VPO)`, tooltip: null, icon: null };
    case STATEMENT_ORIGINS.vpoIssued:
      return { text: `VPO recebido: ${placeName}`, tooltip: null, icon: null };
    case STATEMENT_ORIGINS.vpoRefund:
      return { text: `Sobra do VPO devolvida: ${placeName}`, tooltip: null, icon: null };
    case STATEMENT_ORIGINS.passageRefund:
      return {
        text: `Passagem devolvida: ${placeName} (contestação aceita)`,
        tooltip: isThird ? 'Passagem de Terceiro' : null,
        icon: isThird ? 'third' : null,
      };
    case STATEMENT_ORIGINS.vpoPassageRefund:
      return { text: `Passagem devolvida ao VPO: ${placeName} (contestação aceita)`, tooltip: null, icon: null };
    case STATEMENT_ORIGINS.freeFlowToll:
      return { text: `Pedágio sem cancela: ${placeName}`, tooltip: null, icon: null };
    case STATEMENT_ORIGINS.freeFlowTollVpo:
      return { text: `Pedágio sem cancela: ${placeName} (pago pelo VPO)`, tooltip: null, icon: null };
    case STATEMENT_ORIGINS.freeFlowRefund:
      return { text: `Pedágio sem cancela devolvido: ${placeName}`, tooltip: null, icon: null };
    case STATEMENT_ORIGINS.freeFlowVpoRefund:
      return { text: `Pedágio sem cancela devolvido ao VPO: ${placeName}`, tooltip: null, icon: null };
    case STATEMENT_ORIGINS.passage:
      return isThird
        ? { text: `Passagem por: ${placeName}`, tooltip: 'Passagem de Terceiro', icon: 'third' }
        : { text: `Passagem por: ${placeName}`, tooltip: null, icon: null };
    default:
      return { text: capitalizeFirstWord(placeName), tooltip: null, icon: null };
  }
}

/** Names the lower-casing of spec §2 leaves as they are written (issue 10: 'Pix', never 'pix'). */
const PROPER_NAMES: readonly string[] = ['Pix'];

/** 'COMPRA DE SALDO via PIX' -> 'Compra de saldo via Pix'. */
export function capitalizeFirstWord(text: string): string {
  const lower = text.toLocaleLowerCase('pt-BR');
  const sentence = lower.charAt(0).toLocaleUpperCase('pt-BR') + lower.slice(1);
  return PROPER_NAMES.reduce(
    (result, name) => result.replace(new RegExp(`(?<!\\p{L})${name.toLowerCase()}(?!\\p{L})`, 'gu'), name),
    sentence,
  );
}

/**
 * The statement's kinds of movement (issue 12 filters and totals). Every entry is of exactly one
 * kind, so the totals by kind add up to the period's total: a third-party entry (a passage on
 * another platform, a third-party debit or credit) is 'terceiros' whatever its origin.
 */
export const STATEMENT_KINDS = ['passagens', 'compras', 'saques', 'mensalidades', 'terceiros', 'vpo'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

export const statementKindLabels: Record<StatementKind, string> = {
  passagens: 'Passagens',
  compras: 'Compras de saldo',
  saques: 'Saques',
  mensalidades: 'Mensalidades',
  terceiros: 'Terceiros',
  vpo: 'VPO',
};

/** The origins of each kind's own-account entries ('terceiros' is every third-party entry). */
export const STATEMENT_KIND_ORIGINS: Record<Exclude<StatementKind, 'terceiros'>, readonly StatementOrigin[]> = {
  passagens: [STATEMENT_ORIGINS.passage, STATEMENT_ORIGINS.passageRefund, STATEMENT_ORIGINS.freeFlowToll, STATEMENT_ORIGINS.freeFlowRefund],
  compras: [STATEMENT_ORIGINS.pixPurchase, STATEMENT_ORIGINS.pixAutomaticTopUp, STATEMENT_ORIGINS.pixRefund],
  saques: [STATEMENT_ORIGINS.pixWithdrawal, STATEMENT_ORIGINS.pixWithdrawalReversal, STATEMENT_ORIGINS.pixWithdrawalAfterReversal],
  mensalidades: [STATEMENT_ORIGINS.tagFee, STATEMENT_ORIGINS.tagFeeWaiver],
  vpo: [
    STATEMENT_ORIGINS.vpoIssued,
    STATEMENT_ORIGINS.vpoPassage,
    STATEMENT_ORIGINS.vpoRefund,
    STATEMENT_ORIGINS.vpoPassageRefund,
    STATEMENT_ORIGINS.freeFlowTollVpo,
    STATEMENT_ORIGINS.freeFlowVpoRefund,
  ],
};

const THIRD_PARTY_ORIGINS: ReadonlySet<string> = new Set([STATEMENT_ORIGINS.thirdPartyDebit, STATEMENT_ORIGINS.thirdPartyCredit]);

/** The one kind of an entry; null for an origin the portal does not know (shown only without a kind filter). */
export function statementKindOf(origin: string, isThird: boolean): StatementKind | null {
  if (isThird || THIRD_PARTY_ORIGINS.has(origin)) return 'terceiros';
  for (const kind of ['passagens', 'compras', 'saques', 'mensalidades', 'vpo'] as const) {
    if ((STATEMENT_KIND_ORIGINS[kind] as readonly string[]).includes(origin)) return kind;
  }
  return null;
}

/** Decision 52: the entry moved the VPOs' money (their account), not Saldo nor SaldoTerceiro. */
export function isVpoMoneyOrigin(origin: string): boolean {
  return (STATEMENT_KIND_ORIGINS.vpo as readonly string[]).includes(origin);
}

/**
 * Whose money a statement row moved (issue 33): the driver's Saldo, the balance held on other
 * platforms (SaldoTerceiro), or one VPO's money, the shipper's (decision 52). Each row's 'Saldo
 * após' is its own account's, and the period's totals are per account, never summed across.
 */
export const STATEMENT_ACCOUNTS = ['SALDO', 'SALDO_TERCEIRO', 'VPO'] as const;
export type StatementAccount = (typeof STATEMENT_ACCOUNTS)[number];

/** The ledger's account kinds (own, third, vpo) as the statement names them. */
export const STATEMENT_ACCOUNT_OF_KIND = { own: 'SALDO', third: 'SALDO_TERCEIRO', vpo: 'VPO' } as const satisfies Record<
  'own' | 'third' | 'vpo',
  StatementAccount
>;

export const statementAccountLabels = {
  SALDO: 'Saldo',
  SALDO_TERCEIRO: 'Saldo em outras plataformas',
  VPO: 'VPO',
} as const satisfies Record<StatementAccount, string>;

/** 'Saldo', 'Saldo em outras plataformas', 'VPO de <embarcador>' ('VPO' when the shipper's name did not come). */
export function statementAccountName(account: StatementAccount, shipper: string | null, route: string | null = null): string {
  if (account !== 'VPO' || !shipper) return statementAccountLabels[account];
  const named = messages.vpo.shipperBadge.replace('{shipper}', shipper);
  return route ? `${named}: ${route}` : named;
}

/** A VPO account's route as its name shows it ('Campinas/SP – Santos/SP'); null when the VPO has none. */
export function vpoAccountRoute(origin: string | null, destination: string | null): string | null {
  return origin || destination ? vpoRoute(origin, destination) : null;
}

/** 'Saldo após (Saldo)', 'Saldo após (VPO de Transportes X)': the running balance named by its account. */
export function balanceAfterLabel(accountName: string): string {
  return `Saldo após (${accountName})`;
}

/** The totals' title and each account's line: 'Total do período (Saldo)'. */
export const statementTotalsTitle = 'Totais do período por conta';

/**
 * Decision 83: the statement screen names at most this many VPOs in its totals, the ones that moved
 * last in the period; the others' net is one line. A carrier moves thousands of VPOs a year: one line
 * each would make the screen and its answer grow with the history. The exports name every VPO.
 */
export const STATEMENT_LISTED_VPO_TOTALS = 10;
export const otherVposTotalLabel = 'Outros VPOs do período';
export const otherVposTotalHint = `Acima, os ${STATEMENT_LISTED_VPO_TOTALS} VPOs movimentados por último. O total de cada um dos outros está no extrato exportado (CSV ou PDF).`;
export function periodTotalLabel(accountName: string): string {
  return `Total do período (${accountName})`;
}

export function isStatementKind(value: unknown): value is StatementKind {
  return typeof value === 'string' && (STATEMENT_KINDS as readonly string[]).includes(value);
}

/** The statement's periods: everything, this month, last month, or a chosen range of days. */
export const STATEMENT_PERIODS = ['tudo', 'este-mes', 'mes-passado', 'intervalo'] as const;
export type StatementPeriodName = (typeof STATEMENT_PERIODS)[number];

export const statementPeriodLabels: Record<StatementPeriodName, string> = {
  tudo: 'Todo o período',
  'este-mes': 'Este mês',
  'mes-passado': 'Mês passado',
  intervalo: 'Escolher datas',
};

/** A day of the calendar, 'YYYY-MM-DD', as the driver picks it (São Paulo days). */
export type CalendarDay = string;

/** What the driver asked for: a period by name, with its two days when it is 'intervalo'. */
export interface StatementPeriodInput {
  periodo: StatementPeriodName;
  de?: CalendarDay;
  ate?: CalendarDay;
}

/** The instants a period covers: from (inclusive) to (exclusive); null = unbounded on that side. */
export interface StatementRange {
  from: Date | null;
  to: Date | null;
  /** The first and last São Paulo day of the period, for titles and file names; null when unbounded. */
  firstDay: CalendarDay | null;
  lastDay: CalendarDay | null;
}

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses 'YYYY-MM-DD' naming a real day (2026-02-30 is not one). */
/** The São Paulo midnight of a YYYY-MM-DD day, plus `days`, as ISO; null when not a real day (a filter's 'desde' and 'ate'). */
export function saoPauloDayStartIso(value: string, days = 0): string | null {
  const day = parseCalendarDay(value);
  if (!day) return null;
  return new Date(saoPauloMidnight(day.year, day.month, day.day).getTime() + days * 86_400_000).toISOString();
}

export function parseCalendarDay(value: string): { year: number; month: number; day: number } | null {
  const m = CALENDAR_DAY.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 2000 || year > 2100 || month < 1 || month > 12 || day < 1) return null;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= last ? { year, month, day } : null;
}

/** The São Paulo day of an instant, 'YYYY-MM-DD'. */
export function saoPauloDay(instant: Date): CalendarDay {
  const w = saoPauloWallClock(instant);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/**
 * The instant São Paulo's clocks read 00:00 on that day (the zone's offset is asked of Intl, so a
 * return of daylight saving time would still be right).
 */
export function saoPauloMidnight(year: number, month: number, day: number): Date {
  const guess = Date.UTC(year, month - 1, day, 3); // UTC-3, São Paulo's offset since 2019
  const w = saoPauloWallClock(new Date(guess));
  const wallAsUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const offset = wallAsUtc - guess;
  return new Date(Date.UTC(year, month - 1, day) - offset);
}

function addDays(day: { year: number; month: number; day: number }, n: number): { year: number; month: number; day: number } {
  const d = new Date(Date.UTC(day.year, day.month - 1, day.day + n));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const dayText = (d: { year: number; month: number; day: number }): CalendarDay =>
  `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** The longest range a driver may choose (a year and a day: a whole year from any day). */
export const STATEMENT_MAX_RANGE_DAYS = 366;

/** The field errors of a period (pt-BR), none when it can be resolved. */
export function statementPeriodErrors(input: StatementPeriodInput): { de?: string; ate?: string } {
  if (input.periodo !== 'intervalo') return {};
  const errors: { de?: string; ate?: string } = {};
  const from = input.de ? parseCalendarDay(input.de) : null;
  const to = input.ate ? parseCalendarDay(input.ate) : null;
  if (!input.de) errors.de = messages.statement.fromRequired;
  else if (!from) errors.de = messages.statement.dayInvalid;
  if (!input.ate) errors.ate = messages.statement.toRequired;
  else if (!to) errors.ate = messages.statement.dayInvalid;
  if (from && to) {
    const span = (Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / 86_400_000;
    if (span < 0) errors.ate = messages.statement.toBeforeFrom;
    else if (span + 1 > STATEMENT_MAX_RANGE_DAYS) errors.ate = messages.statement.rangeTooLong;
  }
  return errors;
}

/**
 * The instants of a period in São Paulo days: 'este-mes' from the 1st of the current month to now
 * (the month's end), 'mes-passado' the whole previous month, 'intervalo' from 00:00 of 'de' to
 * 00:00 of the day after 'ate'. Call statementPeriodErrors first: an invalid range throws.
 */
export function statementRange(input: StatementPeriodInput, now: Date = new Date()): StatementRange {
  if (input.periodo === 'tudo') return { from: null, to: null, firstDay: null, lastDay: null };
  if (input.periodo === 'intervalo') {
    const from = input.de ? parseCalendarDay(input.de) : null;
    const to = input.ate ? parseCalendarDay(input.ate) : null;
    if (!from || !to || Object.keys(statementPeriodErrors(input)).length > 0) throw new Error(messages.statement.dayInvalid);
    const after = addDays(to, 1);
    return {
      from: saoPauloMidnight(from.year, from.month, from.day),
      to: saoPauloMidnight(after.year, after.month, after.day),
      firstDay: dayText(from),
      lastDay: dayText(to),
    };
  }
  const today = saoPauloWallClock(now);
  const first =
    input.periodo === 'este-mes'
      ? { year: today.year, month: today.month, day: 1 }
      : today.month === 1
        ? { year: today.year - 1, month: 12, day: 1 }
        : { year: today.year, month: today.month - 1, day: 1 };
  const next = first.month === 12 ? { year: first.year + 1, month: 1, day: 1 } : { year: first.year, month: first.month + 1, day: 1 };
  return {
    from: saoPauloMidnight(first.year, first.month, 1),
    to: saoPauloMidnight(next.year, next.month, 1),
    firstDay: dayText(first),
    lastDay: dayText(addDays(next, -1)),
  };
}
