import { occurredAtError, parseOffsetDateTime } from './dates.js';
import { messages } from './messages.js';
import type { Cents } from './money.js';
import { formatBrl, isReaisAmount, reaisToCents } from './money.js';
import type { CalendarDay } from './statement.js';
import { parseCalendarDay, saoPauloDay } from './statement.js';
import { isValidPlate, normalizePlate } from './tags.js';
import { TEXT_MAX, textError } from './text.js';

/**
 * Free flow (pedágio eletrônico sem cancela): a toll owed by plate, to be paid within 30 calendar
 * days of the passage (Resolução Contran nº 1.013/2024, art. 7º; moved to the next business day
 * when the last day is not one); unpaid, it is evasion (CTB art. 209-A, Lei nº 14.157/2021).
 *
 * This file is pure and cheap, and is bundled into the web app. The due day itself needs Brazil's
 * national holidays (the date-holidays package): it is computed by the server, with
 * freeFlowDueDay of '@portal/domain/free-flow-deadline', which index.ts does not re-export.
 * The São Paulo day of an instant is statement.ts's saoPauloDay.
 */

/** Calendar days to pay, counted from the passage's São Paulo day (Res. Contran 1.013/2024, art. 7º). */
export const FREE_FLOW_DEADLINE_DAYS = 30;
/** The reminders before the due day: 5 days before, then 1 day before (see deadlineNoticeStage). */
export const FREE_FLOW_NOTICE_DAYS = [5, 1] as const;

/** A free-flow toll's state: stored as paid or cancelled; 'VENCIDO' is read from an open one past its due day. */
export const FREE_FLOW_STATES = ['EM_ABERTO', 'PAGO', 'VENCIDO', 'CANCELADO'] as const;
export type FreeFlowState = (typeof FREE_FLOW_STATES)[number];

export const freeFlowStateLabels: Record<FreeFlowState, string> = {
  EM_ABERTO: 'Em aberto',
  PAGO: 'Pago',
  VENCIDO: 'Vencido',
  CANCELADO: 'Cancelado pela concessionária',
};

/**
 * Why a toll was flagged when it arrived: the plate's tag was active (with money) at the passage, or
 * the tag paid this gantry within minutes. Either way the tag should have paid it: the charge may be undue.
 */
export const FREE_FLOW_FLAGS = ['TAG_ATIVA', 'TAG_PAGOU'] as const;
export type FreeFlowFlag = (typeof FREE_FLOW_FLAGS)[number];

/** Who paid a toll the portal paid: Saldo, the open VPO of the vehicle's trip, or the VPO and then Saldo. */
export const FREE_FLOW_PAYERS = ['SALDO', 'VPO', 'VPO_E_SALDO'] as const;
export type FreeFlowPayer = (typeof FREE_FLOW_PAYERS)[number];

export const freeFlowPayerLabels: Record<FreeFlowPayer, string> = {
  SALDO: 'Saldo',
  VPO: 'VPO da viagem',
  VPO_E_SALDO: 'VPO da viagem e Saldo',
};

/** The axles a free-flow toll may name (a car has 2; the longest road trains, 9). */
export const FREE_FLOW_MIN_AXLES = 2;
export const FREE_FLOW_MAX_AXLES = 9;
/** The highest km a gantry may name (BR-116, the longest highway, has some 4,600 km). */
export const FREE_FLOW_MAX_KM = 10_000;

/**
 * What the driver and the partners read about free flow. The functions take values already
 * formatted ('R$ 12,34', '05/03'): freeFlowInsufficientText formats them. The push notices' texts are
 * notifications.ts's; a toll's contest reasons are contests.ts's contestReasonLabels.
 */
export const freeFlowMessages = {
  /** The vehicle's toggle. */
  optInLabel: 'Pedágio sem cancela',
  /** What the driver reads before turning the toggle on (the consent). */
  consent:
    'Ao ligar “Pedágio sem cancela” para esta placa, você autoriza as concessionárias a enviar ao portal as passagens dela pelos pórticos sem cancela: placa, pórtico, rodovia e km, data e hora, valor e vencimento. O portal guarda só os débitos das placas com esta opção ligada e os mostra para você. Ele os paga com o seu Saldo quando você pede ou, com “Pagar automaticamente” ligado, assim que chegam, se houver saldo. Ao desligar, os débitos em aberto guardados desta placa são apagados.',
  pay: 'Pagar',
  autoPay: 'Pagar automaticamente',
  autoPayHelp: 'Cada novo pedágio sem cancela desta placa é pago com o seu Saldo assim que chega, se houver saldo.',
  /** 'Pagar' answered: who paid says where the money came from (freeFlowPayerLabels' codes). */
  paid: (value: string, payer: FreeFlowPayer) =>
    `Pedágio sem cancela de ${value} pago ${payer === 'SALDO' ? 'com o seu Saldo' : payer === 'VPO' ? 'pelo VPO da viagem' : 'pelo VPO da viagem e pelo seu Saldo'}. Guarde o comprovante.`,
  overdue: 'Prazo vencido: risco de multa por evasão (CTB art. 209-A)',
  overdueWhatToDo: 'Pague agora, aqui com o seu Saldo ou no site da concessionária, e guarde o comprovante.',
  /** On a flagged toll (FREE_FLOW_FLAGS): the plate's tag should have paid it. */
  tagWasActive: 'Sua tag estava ativa: esta cobrança pode ser indevida',
  contested: 'Contestação enviada. Veja a resposta em Contestações.',
  contestAlreadyOpen: 'Este pedágio sem cancela já tem uma contestação em análise',
  contestReasonInvalid: 'Escolha o motivo da contestação: a tag pagou, não passei neste pórtico ou placa lida errada',
  insufficientBalance: (value: string, due: string) =>
    `Saldo insuficiente para pagar o pedágio sem cancela de ${value}: adicione crédito até ${due}`,
  /** Refusals. */
  alreadyPaid: 'Este pedágio sem cancela já foi pago; nada foi alterado',
  cancelled: 'Este pedágio sem cancela foi cancelado pela concessionária: não há nada a pagar',
  notFound: 'Pedágio sem cancela não encontrado',
  vehicleNotFound: 'Veículo não encontrado',
  /** The plate is opted in on another vehicle of the portal (one vehicle receives a plate's tolls). */
  plateUnavailable: (plate: string) =>
    `Não foi possível ligar “Pedágio sem cancela” para a placa ${plate}: ela já está ligada em outro cadastro. Fale com o suporte.`,
  /** Answers of the driver's calls. */
  listOk: 'Pedágios sem cancela consultados com sucesso',
  platesOk: 'Placas consultadas com sucesso',
  optedIn: 'Pedágio sem cancela ligado. Os novos débitos aparecem aqui assim que a concessionária os enviar.',
  optedOut: 'Pedágio sem cancela desligado. Os débitos em aberto guardados foram apagados.',
  /** To a partner: the same answers whether the plate is a driver's of the portal or not. */
  received: 'Débito de pedágio sem cancela recebido',
  withdrawn: 'Retirada do débito registrada',
  paymentsOk: 'Pagamentos consultados com sucesso',
  /** To a partner: one answer for a plate the portal does not know and one whose toggle is off. */
  plateNotOptedIn: 'Nenhum veículo com “Pedágio sem cancela” ligado tem esta placa (placa): o débito não foi guardado',
  /** The driver's choice for a plate (ativo, automatico). */
  choiceInvalid: 'Informe ativo e automatico como true ou false',
  /** The partner's fields. */
  plateRequired: 'Informe a placa do veículo (placa)',
  plateInvalid: 'Placa inválida (placa). Use o formato ABC1234 ou ABC1D23.',
  gantryRequired: 'Informe o pórtico da passagem (portico)',
  highwayRequired: 'Informe a rodovia da passagem (rodovia), por exemplo BR-116',
  kmInvalid: 'Km inválido (km): use um número de 0 a 10.000, com no máximo 3 casas decimais',
  directionRequired: 'Informe o sentido da passagem (sentido)',
  axlesInvalid: `O número de eixos (eixos) deve ser um número inteiro de ${FREE_FLOW_MIN_AXLES} a ${FREE_FLOW_MAX_AXLES}`,
  valueInvalid: 'O valor (valor) deve ser em reais, maior que zero, com no máximo 2 casas decimais',
  occurredAtInvalid: messages.partner.occurredAtInvalid,
  occurredAtOutOfRange: messages.partner.occurredAtOutOfRange,
  dueDayInvalid: 'Vencimento inválido (vencimento): use AAAA-MM-DD',
  dueDayBeforePassage: 'O vencimento (vencimento) não pode ser antes do dia da passagem',
  /** Any other day of the API (desde, ate). */
  dayInvalid: 'Data inválida: use AAAA-MM-DD',
  batchInvalid: 'Envie um objeto com a lista de débitos: {"debitos": [ ... ]}',
  batchSize: 'O lote deve ter de 1 a 1.000 débitos (debitos)',
} as const;

function dayNumber(day: CalendarDay): number {
  const p = parseCalendarDay(day);
  if (!p) throw new RangeError(`Data inválida: ${day}`);
  return Date.UTC(p.year, p.month - 1, p.day) / 86_400_000;
}

/** Calendar days from today's São Paulo day to the due day: 0 on the due day itself, negative once past. */
export function daysLeft(dueDay: CalendarDay, now: Date): number {
  // Not pix-automatic's calendarDaysBetween: importing pix-automatic.js first enters the cycle
  // statement -> vpos -> serverMessages -> pix-automatic at the wrong end ('@portal/domain/free-flow-deadline'
  // is imported on its own by the server).
  return dayNumber(dueDay) - dayNumber(saoPauloDay(now));
}

export interface FreeFlowStateInput {
  /** A Date or an ISO text as stored; null when not paid (not cancelled). */
  paidAt: Date | string | null;
  cancelledAt: Date | string | null;
  dueDay: CalendarDay;
}

/** CANCELADO if cancelled, PAGO if paid, VENCIDO once today's São Paulo day is past the due day, else EM_ABERTO. */
export function freeFlowState(toll: FreeFlowStateInput, now: Date): FreeFlowState {
  if (toll.cancelledAt) return 'CANCELADO';
  if (toll.paidAt) return 'PAGO';
  return daysLeft(toll.dueDay, now) < 0 ? 'VENCIDO' : 'EM_ABERTO';
}

/** The reminders of an open toll: 5 days before, 1 day before (or on the day), and once overdue. */
export type FreeFlowNoticeStage = 'five' | 'one' | 'overdue';

/**
 * The reminder an open toll is due now, given those already sent, or null. Each stage is sent once,
 * on the first run that finds it due, so a missed day (the job did not run, the toll arrived late)
 * still gets its notice, and a notice overtaken by a later one is skipped:
 * - 'overdue' once daysLeft < 0;
 * - 'one' when daysLeft is 1 or 0;
 * - 'five' when daysLeft is 2 to 5 (5 on time; 2 to 4 when that day was missed).
 * Call it for EM_ABERTO and VENCIDO tolls only: a paid or cancelled toll has nothing to remind.
 */
export function deadlineNoticeStage(dueDay: CalendarDay, now: Date, sent: readonly FreeFlowNoticeStage[] = []): FreeFlowNoticeStage | null {
  const left = daysLeft(dueDay, now);
  const [first, last] = FREE_FLOW_NOTICE_DAYS;
  const stage: FreeFlowNoticeStage | null = left < 0 ? 'overdue' : left <= last ? 'one' : left <= first ? 'five' : null;
  return stage && !sent.includes(stage) ? stage : null;
}

/** 'YYYY-MM-DD' -> 'DD/MM' (a notice's due day). */
function formatDayMonth(day: CalendarDay): string {
  const p = parseCalendarDay(day);
  if (!p) throw new RangeError(`Data inválida: ${day}`);
  return `${String(p.day).padStart(2, '0')}/${String(p.month).padStart(2, '0')}`;
}

/** The notice of an automatic payment the balance could not cover. */
export function freeFlowInsufficientText(cents: Cents, dueDay: CalendarDay): string {
  return freeFlowMessages.insufficientBalance(formatBrl(cents), formatDayMonth(dueDay));
}

/** A toll as a concessionaire sends it (the partner API's fields). */
export interface FreeFlowTollInput {
  placa: string;
  portico: string;
  rodovia: string;
  /** The gantry's km on the highway. */
  km: number;
  sentido: string;
  eixos: number;
  /** Reais, 2 decimals at most. */
  valor: number;
  /** ISO 8601 with its offset. */
  occurredAt: string;
  /** 'YYYY-MM-DD', the concessionaire's due day; absent, the portal computes it (freeFlowDueDay). */
  vencimento?: string | undefined;
}

export type FreeFlowTollField = keyof FreeFlowTollInput;

/** Whether a km has at most 3 decimals (float noise allowed, as reaisToCents allows it for centavos: 1.005 is 1005 m). */
function hasAtMostThreeDecimals(km: number): boolean {
  const scaled = km * 1000;
  const whole = Math.round(scaled);
  return Math.abs(whole - scaled) <= Math.max(1e-6, Math.abs(scaled) * 8 * Number.EPSILON);
}

function requiredTextError(value: unknown, max: number, required: string): string | null {
  if (typeof value !== 'string' || value.trim() === '') return required;
  return textError(value, max);
}

/** The field errors (pt-BR) of a toll a concessionaire sends, none when it can be kept. */
export function freeFlowFieldErrors(input: FreeFlowTollInput, now: Date = new Date()): Partial<Record<FreeFlowTollField, string>> {
  const m = freeFlowMessages;
  const errors: Partial<Record<FreeFlowTollField, string>> = {};
  if (typeof input.placa !== 'string' || normalizePlate(input.placa) === '') errors.placa = m.plateRequired;
  else if (input.placa.length > TEXT_MAX.plate || !isValidPlate(input.placa)) errors.placa = m.plateInvalid;
  const portico = requiredTextError(input.portico, TEXT_MAX.place, m.gantryRequired);
  if (portico) errors.portico = portico;
  const rodovia = requiredTextError(input.rodovia, TEXT_MAX.code, m.highwayRequired);
  if (rodovia) errors.rodovia = rodovia;
  if (typeof input.km !== 'number' || !(input.km >= 0 && input.km <= FREE_FLOW_MAX_KM) || !hasAtMostThreeDecimals(input.km)) {
    errors.km = m.kmInvalid;
  }
  const sentido = requiredTextError(input.sentido, TEXT_MAX.code, m.directionRequired);
  if (sentido) errors.sentido = sentido;
  if (!Number.isInteger(input.eixos) || input.eixos < FREE_FLOW_MIN_AXLES || input.eixos > FREE_FLOW_MAX_AXLES)
    errors.eixos = m.axlesInvalid;
  if (typeof input.valor !== 'number' || !(input.valor > 0) || !isReaisAmount(input.valor) || reaisToCents(input.valor) <= 0) {
    errors.valor = m.valueInvalid;
  }
  const occurredAt = typeof input.occurredAt === 'string' ? occurredAtError(input.occurredAt, now) : m.occurredAtInvalid;
  if (occurredAt) errors.occurredAt = occurredAt;
  if (input.vencimento !== undefined) {
    if (typeof input.vencimento !== 'string' || !parseCalendarDay(input.vencimento)) errors.vencimento = m.dueDayInvalid;
    else {
      const passage = typeof input.occurredAt === 'string' ? parseOffsetDateTime(input.occurredAt) : null;
      if (passage && input.vencimento < saoPauloDay(passage)) errors.vencimento = m.dueDayBeforePassage;
    }
  }
  return errors;
}
