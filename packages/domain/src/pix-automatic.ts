import { MAX_PURCHASE_CENTS, MIN_PURCHASE_CENTS, PIX_CHARGE_TTL_MINUTES } from './constants.js';
import type { Cents } from './money.js';
import { formatBrl, isReaisAmount, parseBrlInput, reaisToCents } from './money.js';
import type { CalendarDay } from './statement.js';
import { parseCalendarDay, saoPauloDay } from './statement.js';

/**
 * Decision 58: the balance topped up by Pix Automático, the Central Bank's recurring Pix (Regulamento
 * do Pix, arts. 11-Q to 11-U; IN BCB 436/2023), in force since 16 June 2025. The driver authorizes
 * it once in the bank app by paying a first Pix whose QR Code also carries the consent (Asaas's
 * "Jornada 3"); then one debit per cycle, each credited once like a purchase.
 */

/** What the driver chooses (IN BCB 436/2023 art. 2 allows weekly to yearly; a toll balance needs these two). */
export const PIX_AUTOMATIC_FREQUENCIES = ['SEMANAL', 'MENSAL'] as const;
export type PixAutomaticFrequency = (typeof PIX_AUTOMATIC_FREQUENCIES)[number];

export const pixAutomaticFrequencyLabels: Record<PixAutomaticFrequency, string> = {
  SEMANAL: 'Semanal (toda semana)',
  MENSAL: 'Mensal (todo mês)',
};

/** The frequency inside a sentence ('R$ 150,00, semanal'). */
export const pixAutomaticFrequencyWords: Record<PixAutomaticFrequency, string> = { SEMANAL: 'semanal', MENSAL: 'mensal' };

/** An authorization's state, as the driver reads it (the provider's CREATED, ACTIVE, REFUSED, CANCELLED, EXPIRED). */
export const PIX_AUTOMATIC_STATES = ['AGUARDANDO', 'ATIVA', 'RECUSADA', 'CANCELADA', 'EXPIRADA'] as const;
export type PixAutomaticState = (typeof PIX_AUTOMATIC_STATES)[number];

export const pixAutomaticStateLabels: Record<PixAutomaticState, string> = {
  AGUARDANDO: 'Aguardando autorização',
  ATIVA: 'Ativa',
  RECUSADA: 'Recusada',
  CANCELADA: 'Cancelada',
  EXPIRADA: 'Expirada',
};

/** One cycle's debit: scheduled at the bank, paid (credited), refused or failed, or cancelled. */
export const PIX_AUTOMATIC_CYCLE_STATES = ['AGENDADA', 'PAGA', 'RECUSADA', 'CANCELADA'] as const;
export type PixAutomaticCycleState = (typeof PIX_AUTOMATIC_CYCLE_STATES)[number];

export const pixAutomaticCycleStateLabels: Record<PixAutomaticCycleState, string> = {
  AGENDADA: 'Agendada',
  PAGA: 'Paga',
  RECUSADA: 'Não debitada',
  CANCELADA: 'Cancelada',
};

/** The first Pix (the QR Code that carries the consent) is payable as long as a purchase's Pix. */
export const PIX_AUTOMATIC_QR_TTL_MINUTES = PIX_CHARGE_TTL_MINUTES;
/**
 * The receiver sends each cycle's payment instruction 2 to 10 days before the debit (Regulamento do
 * Pix; Asaas counts business days). The portal sends it when the debit is at most this many days away
 * (7 calendar days are at most 5 business days and, but for holidays, at least 4)...
 */
export const PIX_AUTOMATIC_SCHEDULE_AHEAD_DAYS = 7;
/** ...and never with less than this many days left: a late instruction moves the debit to this far ahead. */
export const PIX_AUTOMATIC_MIN_NOTICE_DAYS = 4;
/** A cycle that was not debited is on the dashboard for this many days (unless a later one was paid). */
export const PIX_AUTOMATIC_NOTICE_DAYS = 7;

/**
 * Texts of the recurring top-up: the driver's screens, the answers' Mensagem, the dashboard's
 * notice. Every refusal names what to do.
 */
export const pixAutomaticMessages = {
  title: 'Recarga automática por Pix',
  valueRequired: 'Por favor digite o valor da recarga automática',
  belowMinimum: 'O valor mínimo da recarga automática é de R$ 100,00',
  aboveMaximum: 'O valor máximo da recarga automática é de R$ 50.000,00',
  valueInvalid: 'Digite um valor válido para a recarga, com no máximo 2 casas decimais',
  frequencyRequired: 'Escolha a frequência da recarga: semanal ou mensal',
  ok: 'Recarga automática consultada com sucesso',
  created: 'QR Code gerado! Pague o primeiro Pix no app do seu banco para autorizar a recarga automática.',
  valueChanged:
    'Novo QR Code gerado com o novo valor. A autorização anterior foi cancelada: pague este Pix no app do banco para autorizar o novo valor.',
  cancelled: 'Recarga automática cancelada. Nenhum novo débito será feito.',
  notFound: 'Recarga automática não encontrada',
  alreadyActive: 'Você já tem uma recarga automática ativa. Para mudar o valor, use “Alterar valor”; para parar, cancele-a.',
  cannotChange: 'Só uma recarga automática ativa ou aguardando autorização pode ter o valor alterado',
  alreadyEnded: 'Esta recarga automática já foi encerrada ({state}); nada foi alterado',
  sameValue: 'O novo valor é igual ao atual: nada foi alterado',
  unavailable: 'A recarga automática por Pix ainda não está disponível. Enquanto isso, use “Comprar saldo”.',
  providerUnavailable: 'Não foi possível falar com o banco agora. Tente novamente em instantes: nada foi alterado.',
  /** What the driver reads before choosing (the Central Bank's rules, decision 58). */
  howItWorks:
    'Escolha um valor e a frequência. Você paga o primeiro Pix agora, pelo QR Code: ele já entra como saldo e autoriza os próximos débitos no seu banco. Depois, o valor cai no seu saldo a cada semana ou mês, sem você fazer nada.',
  free: 'O Pix Automático é gratuito para você e não precisa de cartão de crédito.',
  bankAppCancel: 'Você pode cancelar a qualquer momento aqui ou no app do seu banco, na área de Pix Automático.',
  noticeBefore: 'O seu banco avisa cada débito antes de ele acontecer, e você pode recusar um débito pelo app do banco até o dia anterior.',
  changeExplained:
    'O Pix Automático não permite mudar o valor de uma autorização já dada. Para mudar, a autorização atual é cancelada e um novo QR Code é gerado com o novo valor: pague-o no app do banco para autorizar (esse primeiro Pix também entra como saldo).',
  cancelConfirm: 'Nenhum novo débito será feito; o que já entrou no seu saldo continua lá.',
  qrTitle: 'Pague o primeiro Pix para autorizar',
  qrHelp: 'Ao pagar este Pix no app do banco, você autoriza a recarga automática com o valor e a frequência abaixo.',
  qrExpired: 'O QR Code expirou sem pagamento. Gere um novo para ativar a recarga automática.',
  /** Why an authorization ended, in the driver's words. */
  endReasons: {
    driver: 'Cancelada por você no portal',
    bank: 'Cancelada no app do banco',
    replaced: 'Substituída por um novo QR Code',
    valueChanged: 'Substituída por uma autorização com novo valor',
    qrExpired: 'O QR Code expirou sem pagamento',
    refused: 'Não autorizada: o QR Code não foi pago a tempo ou o banco recusou',
    expired: 'A autorização chegou ao fim da vigência',
  },
  /** A cycle the bank did not debit (the dashboard's notice, a push). */
  defaultRefusal: 'o banco não fez o débito',
  overdue: 'o débito não aconteceu no dia marcado (saldo ou limite insuficiente no banco?)',
  cancelledAtBank: 'o débito foi cancelado no app do banco',
  cycleFailed: (value: string, day: string, reason: string) =>
    `A recarga automática de ${value} de ${day} não foi debitada: ${reason}. Compre saldo se precisar antes da próxima.`,
  cycleFailedShort: (value: string) => `Recarga automática de ${value} não debitada`,
  noticeAction: 'Ver recarga',
  noticeActionName: (value: string) => `Ver recarga automática de ${value}`,
  /** Asaas's description of the authorization and of each cycle's payment (at most 35 characters). */
  providerDescription: 'Recarga automática de saldo',
} as const;

/** The same bounds as a purchase (spec §5 and founding decision 14): no rule asks for others. */
export function pixAutomaticAmountError(cents: Cents | null): string | null {
  if (cents === null) return pixAutomaticMessages.valueInvalid;
  if (cents <= 0) return pixAutomaticMessages.valueRequired;
  if (cents < MIN_PURCHASE_CENTS) return pixAutomaticMessages.belowMinimum;
  if (cents > MAX_PURCHASE_CENTS) return pixAutomaticMessages.aboveMaximum;
  return null;
}

/** The rule for the value on the wire (reais; NaN when absent or not a number). */
export function pixAutomaticValueError(reais: number): string | null {
  if (Number.isNaN(reais) || reais <= 0) return pixAutomaticMessages.valueRequired;
  if (reais > MAX_PURCHASE_CENTS / 100) return pixAutomaticMessages.aboveMaximum;
  if (!isReaisAmount(reais)) return pixAutomaticMessages.valueInvalid;
  return pixAutomaticAmountError(reaisToCents(reais));
}

/** The rule for what the driver typed ('' asks for a value). */
export function pixAutomaticInputError(text: string): string | null {
  if (text.trim() === '') return pixAutomaticMessages.valueRequired;
  return pixAutomaticAmountError(parseBrlInput(text));
}

const DAY_MS = 86_400_000;

function dayParts(day: CalendarDay): { year: number; month: number; day: number } {
  const parts = parseCalendarDay(day);
  if (!parts) throw new RangeError(`Data inválida: ${day}`);
  return parts;
}

const dayText = (d: Date): CalendarDay => d.toISOString().slice(0, 10);

/** 'YYYY-MM-DD' plus n days. */
export function addCalendarDays(day: CalendarDay, n: number): CalendarDay {
  const p = dayParts(day);
  return dayText(new Date(Date.UTC(p.year, p.month - 1, p.day + n)));
}

/** Days from `from` to `to` (negative when `to` is earlier). */
export function calendarDaysBetween(from: CalendarDay, to: CalendarDay): number {
  const a = dayParts(from);
  const b = dayParts(to);
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS);
}

/**
 * The debit after `previous`: a week later, or the next month on the authorization's day of the month
 * (`anchorDay`, the day it started: 31 falls on the month's last day, and comes back in the next long month).
 */
export function nextDebitDay(frequency: PixAutomaticFrequency, previous: CalendarDay, anchorDay: number): CalendarDay {
  if (frequency === 'SEMANAL') return addCalendarDays(previous, 7);
  const p = dayParts(previous);
  const year = p.month === 12 ? p.year + 1 : p.year;
  const month = p.month === 12 ? 1 : p.month + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return dayText(new Date(Date.UTC(year, month - 1, Math.min(anchorDay, last))));
}

/** The first debit after the authorization: one period after the day its first Pix was paid. */
export function firstDebitDay(frequency: PixAutomaticFrequency, activatedAt: Date): CalendarDay {
  const day = saoPauloDay(activatedAt);
  return nextDebitDay(frequency, day, dayParts(day).day);
}

/** Whether today is inside the window to send the instruction of the debit scheduled for `scheduled`. */
export function isInstructionDue(scheduled: CalendarDay, today: CalendarDay): boolean {
  return calendarDaysBetween(today, scheduled) <= PIX_AUTOMATIC_SCHEDULE_AHEAD_DAYS;
}

/** The debit's day once its instruction is sent today: never fewer than PIX_AUTOMATIC_MIN_NOTICE_DAYS ahead. */
export function instructionDueDay(scheduled: CalendarDay, today: CalendarDay): CalendarDay {
  const earliest = addCalendarDays(today, PIX_AUTOMATIC_MIN_NOTICE_DAYS);
  return calendarDaysBetween(earliest, scheduled) >= 0 ? scheduled : earliest;
}

/** 'YYYY-MM-DD' -> 'DD/MM/YYYY' (the screens' day). */
export function formatCalendarDay(day: CalendarDay): string {
  const p = dayParts(day);
  return `${String(p.day).padStart(2, '0')}/${String(p.month).padStart(2, '0')}/${p.year}`;
}

/** The notice of a cycle not debited, as the dashboard and the push say it. */
export function cycleFailedText(cents: Cents, day: CalendarDay, reason: string | null): string {
  return pixAutomaticMessages.cycleFailed(formatBrl(cents), formatCalendarDay(day), reason ?? pixAutomaticMessages.defaultRefusal);
}
