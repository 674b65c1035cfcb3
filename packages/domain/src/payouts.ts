import { formatDateTime, saoPauloWallClock } from './dates.js';
import { saoPauloMidnight } from './statement.js';
import type { Cents } from './money.js';
import { formatBrl } from './money.js';
import type { PixKeyType } from './pix.js';
import { maskPixKey, pixKeyTypeLabels } from './pix.js';

/**
 * Payouts protected as the Central Bank asks banks to protect Pix (Resolução BCB nº 142/2021,
 * decision 44): limits per withdrawal, per day and at night, a raise effective only after a
 * waiting time, a lowering at once; saved keys, and a new key capped in its first hours.
 */
export const PAYOUT_LIMIT_KINDS = ['perWithdrawal', 'daily', 'night'] as const;
export type PayoutLimitKind = (typeof PAYOUT_LIMIT_KINDS)[number];

/** Until the driver chooses. The night one is the resolution's default for individuals (R$ 1.000,00). */
export const DEFAULT_PAYOUT_LIMITS_CENTS: Readonly<Record<PayoutLimitKind, Cents>> = {
  perWithdrawal: 500_000,
  daily: 1_000_000,
  night: 100_000,
};
/** The most a driver may set: the portal's largest purchase per withdrawal, twice that a day. */
export const MAX_PAYOUT_LIMITS_CENTS: Readonly<Record<PayoutLimitKind, Cents>> = {
  perWithdrawal: 5_000_000,
  daily: 10_000_000,
  night: 10_000_000,
};
/** 60 withdrawals of R$ 0,01 were 60 provider transfers: a payout costs the operator a fee. */
export const MIN_WITHDRAWAL_CENTS = 100;
/** A key saved less than NEW_PIX_KEY_HOURS ago receives at most this much in that time. */
export const NEW_PIX_KEY_CAP_CENTS = 50_000;
export const NEW_PIX_KEY_HOURS = 24;
/** A raise takes effect this long after it is asked (the resolution: 24 to 48 hours). */
export const PAYOUT_LIMIT_RAISE_HOURS = 24;
/** The night period in São Paulo: from 20h to 6h (the resolution's default). */
export const NIGHT_START_HOUR = 20;
export const NIGHT_END_HOUR = 6;
/** The dashboard shows the payouts and the new keys of this many days. */
export const PAYOUT_NOTICE_DAYS = 7;
/** Wrong passwords confirming a new key, per driver, in PAYOUT_PASSWORD_WINDOW_MINUTES. */
export const PAYOUT_PASSWORD_MAX_FAILURES = 5;
export const PAYOUT_PASSWORD_WINDOW_MINUTES = 15;
export const MAX_SAVED_PIX_KEYS = 20;

export const payoutLimitLabels: Readonly<Record<PayoutLimitKind, string>> = {
  perWithdrawal: 'Limite por saque',
  daily: 'Limite diário',
  night: 'Limite noturno (20h às 6h)',
};

export const payoutMessages = {
  passwordRequired: 'Esta chave Pix ainda não está salva: confirme sua senha para salvá-la e sacar.',
  passwordWrong: 'Senha incorreta',
  passwordThrottled: (minutes: number) =>
    `Muitas tentativas de confirmar a senha. Tente de novo em ${minutes} minuto${minutes === 1 ? '' : 's'}.`,
  belowMinimum: `O valor mínimo para saque é de ${formatBrl(MIN_WITHDRAWAL_CENTS)}`,
  limitInvalid: (kind: PayoutLimitKind) => `Digite um valor de R$ 0,00 a ${formatBrl(MAX_PAYOUT_LIMITS_CENTS[kind])}`,
  keySaved: 'Chave Pix salva. Nas primeiras 24 horas ela pode receber até R$ 500,00.',
  keyAlreadySaved: 'Esta chave Pix já está salva.',
  keyRemoved: 'Chave Pix removida.',
  keyNotFound: 'Chave Pix não encontrada.',
  ownKeyAlready: 'Esta é a chave do seu próprio CPF/CNPJ: ela já pode receber saques, sem precisar salvar.',
  tooManyKeys: `Você pode salvar até ${MAX_SAVED_PIX_KEYS} chaves Pix. Remova uma para salvar outra.`,
  limitsSaved: 'Limites de saque salvos: reduções valem na hora.',
  raiseWaits: (label: string, value: string, when: string) => `${label}: o aumento para ${value} vale a partir de ${when}.`,
  limitsSavedRaises: (raises: string) => `Limites de saque salvos: reduções valem na hora. ${raises}`,
  ok: 'Consulta realizada com sucesso',
  perWithdrawalExceeded: (limit: string) =>
    `O valor passa do seu limite por saque, de ${limit}: saque até esse valor de cada vez, ou aumente o limite em Configurações (o aumento vale 24 horas depois).`,
  /** Said as soon as a typed key is not saved yet, before its password is asked (issue 33). */
  newKeyCap: (cap: string) => `Uma chave Pix nova recebe no máximo ${cap} nas primeiras 24 horas.`,
  newKeyCapExceeded: (cap: string) =>
    `Uma chave Pix nova recebe no máximo ${cap} nas primeiras 24 horas: digite até ${cap}, ou saque para uma chave já salva ou para o seu CPF/CNPJ.`,
  newKeyExceeded: (cap: string, until: string, left: string) =>
    `Esta chave Pix foi salva há menos de 24 horas e pode receber no máximo ${cap} até ${until} (ainda ${left}).`,
  nightExceeded: (limit: string, left: string, frees: string) =>
    `O valor passa do seu limite noturno (20h às 6h), de ${limit}: nesta noite você ainda pode sacar ${left}. O limite noturno se renova às ${frees}.`,
  dailyExceeded: (limit: string, left: string, frees: string) =>
    `O valor passa do seu limite diário, de ${limit}: hoje você ainda pode sacar ${left}. O limite diário se renova às ${frees}.`,
} as const;

export interface TimeWindow {
  start: Date;
  end: Date;
}

/** The instant São Paulo's clocks read `hour` o'clock on that day (days may overflow: Date.UTC carries them). */
function saoPauloAt(year: number, month: number, day: number, hour: number): Date {
  const d = new Date(Date.UTC(year, month - 1, day));
  return new Date(saoPauloMidnight(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()).getTime() + hour * 3_600_000);
}

/** The São Paulo calendar day holding the instant. */
export function saoPauloDayWindow(instant: Date): TimeWindow {
  const w = saoPauloWallClock(instant);
  return { start: saoPauloAt(w.year, w.month, w.day, 0), end: saoPauloAt(w.year, w.month, w.day + 1, 0) };
}

/** The night period (20h to 6h São Paulo) holding the instant, or null in the daytime. */
export function nightPeriod(instant: Date): TimeWindow | null {
  const w = saoPauloWallClock(instant);
  if (w.hour >= NIGHT_START_HOUR) {
    return { start: saoPauloAt(w.year, w.month, w.day, NIGHT_START_HOUR), end: saoPauloAt(w.year, w.month, w.day + 1, NIGHT_END_HOUR) };
  }
  if (w.hour < NIGHT_END_HOUR) {
    return { start: saoPauloAt(w.year, w.month, w.day - 1, NIGHT_START_HOUR), end: saoPauloAt(w.year, w.month, w.day, NIGHT_END_HOUR) };
  }
  return null;
}

/** A limit as it stands: the value in force and a raise waiting for its time. */
export interface PayoutLimitState {
  valueCents: Cents;
  pending: { valueCents: Cents; effectiveAt: Date } | null;
}

/**
 * The driver asks for `requested`: a lowering (or the same value) is in force at once and drops a
 * waiting raise; a raise waits PAYOUT_LIMIT_RAISE_HOURS, replacing a raise already waiting. The raise
 * already waiting asked again (Configurações sends the three limits when one changes) keeps its time.
 */
export function changePayoutLimit(current: PayoutLimitState, requested: Cents, now: Date): PayoutLimitState {
  if (requested <= current.valueCents) return { valueCents: requested, pending: null };
  if (current.pending?.valueCents === requested) return current;
  return {
    valueCents: current.valueCents,
    pending: { valueCents: requested, effectiveAt: new Date(now.getTime() + PAYOUT_LIMIT_RAISE_HOURS * 3_600_000) },
  };
}

/** What is stored read at an instant: a raise whose time has come is the value in force. */
export function payoutLimitAt(stored: PayoutLimitState, now: Date): PayoutLimitState {
  if (stored.pending && stored.pending.effectiveAt.getTime() <= now.getTime())
    return { valueCents: stored.pending.valueCents, pending: null };
  return stored;
}

/** What a withdrawal is weighed against: the limits in force and what was already sent in each period. */
export interface PayoutCheck {
  amountCents: Cents;
  now: Date;
  limits: Readonly<Record<PayoutLimitKind, Cents>>;
  /** Sent (or on its way) today, in São Paulo. */
  usedTodayCents: Cents;
  /** Sent in the current night period (0 in the daytime). */
  usedTonightCents: Cents;
  /** The key's first hours, when it was saved less than NEW_PIX_KEY_HOURS ago. */
  newKey: { savedAt: Date; usedCents: Cents } | null;
}

const remaining = (limit: Cents, used: Cents) => formatBrl(Math.max(0, limit - used));

/** The first limit the withdrawal would pass, as the Portuguese sentence that says which and when it frees. */
export function payoutLimitError(c: PayoutCheck): string | null {
  const { amountCents: amount, limits } = c;
  if (amount > limits.perWithdrawal) return payoutMessages.perWithdrawalExceeded(formatBrl(limits.perWithdrawal));
  if (c.newKey && c.newKey.usedCents + amount > NEW_PIX_KEY_CAP_CENTS) {
    const frees = new Date(c.newKey.savedAt.getTime() + NEW_PIX_KEY_HOURS * 3_600_000);
    return payoutMessages.newKeyExceeded(
      formatBrl(NEW_PIX_KEY_CAP_CENTS),
      formatDateTime(frees),
      remaining(NEW_PIX_KEY_CAP_CENTS, c.newKey.usedCents),
    );
  }
  const night = nightPeriod(c.now);
  if (night && c.usedTonightCents + amount > limits.night) {
    return payoutMessages.nightExceeded(formatBrl(limits.night), remaining(limits.night, c.usedTonightCents), formatDateTime(night.end));
  }
  if (c.usedTodayCents + amount > limits.daily) {
    return payoutMessages.dailyExceeded(
      formatBrl(limits.daily),
      remaining(limits.daily, c.usedTodayCents),
      formatDateTime(saoPauloDayWindow(c.now).end),
    );
  }
  return null;
}

/** A limit the driver typed: whole centavos from R$ 0,00 to the kind's maximum. */
export function payoutLimitValueError(kind: PayoutLimitKind, cents: Cents | null): string | null {
  if (cents === null || !Number.isSafeInteger(cents) || cents < 0 || cents > MAX_PAYOUT_LIMITS_CENTS[kind])
    return payoutMessages.limitInvalid(kind);
  return null;
}

/** 'CPF ***.456.789-**': how a key is named in notices (the bank's way of showing a CPF). */
export function pixKeyDisplay(type: PixKeyType, key: string): string {
  return `${pixKeyTypeLabels[type]} ${maskPixKey(type, key)}`;
}

export const payoutNoticeMessages = {
  keySaved: (key: string, when: string) =>
    `Chave Pix ${key} salva em ${when}. Não foi você? Remova a chave em Configurações e troque sua senha.`,
  withdrawal: (value: string, key: string, when: string, status: string) =>
    `Saque de ${value} para a chave Pix ${key} em ${when}: ${status}.`,
  withdrawalStatus: { PROCESSING: 'em processamento', DONE: 'concluído', FAILED: 'não concluído, valor devolvido' },
} as const;
