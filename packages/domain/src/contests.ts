import type { Cents } from './money.js';
import { formatBrl } from './money.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * Decision 56: why a driver contests a passage. The codes travel in the API; the labels are what
 * the driver and the operator read.
 */
export const CONTEST_REASONS = ['DUPLICADA', 'CATEGORIA', 'NAO_PASSOU', 'VPO_E_SALDO', 'OUTRO'] as const;
/** Decision 76: why a driver contests a free-flow toll, in one tap. */
export const TOLL_CONTEST_REASONS = ['TAG_PAGOU', 'NAO_PASSOU_PORTICO', 'PLACA_ERRADA'] as const;
export const ALL_CONTEST_REASONS = [...CONTEST_REASONS, ...TOLL_CONTEST_REASONS] as const;
export type TollContestReason = (typeof TOLL_CONTEST_REASONS)[number];
export type ContestReason = (typeof ALL_CONTEST_REASONS)[number];

export const contestReasonLabels: Record<ContestReason, string> = {
  DUPLICADA: 'Cobrança duplicada',
  CATEGORIA: 'Categoria ou eixos diferentes do veículo',
  NAO_PASSOU: 'O veículo não passou nesta praça',
  VPO_E_SALDO: 'Paga pelo VPO e debitada do saldo',
  OUTRO: 'Outro',
  TAG_PAGOU: 'A tag pagou esta passagem',
  NAO_PASSOU_PORTICO: 'Não passei neste pórtico',
  PLACA_ERRADA: 'Placa lida errada',
};

/** The states a contest is stored in; 'atrasada' is read from an open one past its due date. */
export const CONTEST_STATES = ['ABERTA', 'ACEITA', 'RECUSADA'] as const;
export type ContestState = (typeof CONTEST_STATES)[number];

export const contestStateLabels: Record<ContestState, string> = {
  ABERTA: 'Em análise',
  ACEITA: 'Aceita',
  RECUSADA: 'Recusada',
};

/** What the operator decides. */
export const CONTEST_DECISIONS = ['ACEITA', 'RECUSADA'] as const;
export type ContestDecision = (typeof CONTEST_DECISIONS)[number];

/**
 * Decision 56: a passage may be contested for 90 days after it happened (Contran Res. 1.013/2024
 * keeps a passage's images for 90 days: after that the operator has no evidence left to look at).
 */
export const CONTEST_WINDOW_DAYS = 90;

/**
 * Decision 56: the operator answers within 7 calendar days of the contest (Decreto 11.034/2022,
 * art. 13, the SAC rule for the answer to a consumer's demand); after that the contest is overdue.
 */
export const CONTEST_ANSWER_DAYS = 7;

/**
 * Decision 56: two passages of one tag at one plaza this close are flagged as a possible double
 * charge when the second arrives (configurable: DUPLICATE_PASSAGE_MINUTES).
 */
export const DUPLICATE_PASSAGE_MINUTES_DEFAULT = 10;

/** Reason texts: the 'Outro' reason needs one, every reason may carry one. */
export const CONTEST_TEXT_MAX = 500;
export const CONTEST_ANSWER_TEXT_MAX = 500;

export const contestMessages = {
  reasonInvalid: 'Escolha o motivo da contestação',
  textRequired: 'Descreva o motivo da contestação',
  answerReasonRequired: 'Informe o motivo da resposta, que o motorista vai ler',
  decisionInvalid: 'Informe a decisão: ACEITA ou RECUSADA',
  passageNotFound: 'Passagem não encontrada',
  contestNotFound: 'Contestação não encontrada',
  windowClosed: `O prazo para contestar esta passagem terminou: são ${CONTEST_WINDOW_DAYS} dias a partir da passagem`,
  alreadyOpen: 'Esta passagem já tem uma contestação em análise',
  nothingLeft: 'Esta passagem já foi devolvida por inteiro',
  opened: 'Contestação enviada. A operadora tem até {due} para responder.',
  listOk: 'Contestações consultadas com sucesso',
  answered: 'Resposta registrada',
  alreadyAnswered: 'Esta contestação já foi respondida ({state}); nada foi alterado',
  refundInvalid: 'O valor devolvido deve ser maior que zero e no máximo {max}',
  refundMissing: 'Informe o valor devolvido (valor) numa contestação aceita',
  refundOnRefusal: 'Uma contestação recusada não devolve valor: não envie valor',
  stateInvalid: 'Estado inválido: use ABERTA, ACEITA ou RECUSADA',
  dayInvalid: 'Data inválida: use AAAA-MM-DD',
  /** Ledger entries' place names. */
  refundPlace: 'Contestação aceita: {place}',
} as const;

export function contestDueDate(openedAt: Date): Date {
  return new Date(openedAt.getTime() + CONTEST_ANSWER_DAYS * DAY_MS);
}

/** The last instant a passage dated `occurredAt` may be contested. */
export function contestDeadline(occurredAt: Date): Date {
  return new Date(occurredAt.getTime() + CONTEST_WINDOW_DAYS * DAY_MS);
}

export function isContestWindowOpen(occurredAt: Date, now: Date): boolean {
  return now.getTime() <= contestDeadline(occurredAt).getTime();
}

export function isContestOverdue(contest: { state: ContestState; dueAt: Date }, now: Date): boolean {
  return contest.state === 'ABERTA' && now.getTime() > contest.dueAt.getTime();
}

/** Two passages of one tag at one plaza closer than this are a possible double charge. */
export function isPossibleDuplicate(first: Date, second: Date, windowMinutes: number): boolean {
  return Math.abs(second.getTime() - first.getTime()) <= windowMinutes * MINUTE_MS;
}

/**
 * Issue 33: where an accepted contest's money went. Saldo or SaldoTerceiro (the driver's), a VPO
 * still open (its trip's money, to spend on the trip), or the shipper itself (the VPO had closed:
 * its share went on to the shipper, decision 56).
 */
export const REFUND_DESTINATIONS = ['SALDO', 'SALDO_TERCEIRO', 'VPO', 'EMBARCADOR'] as const;
export type RefundDestination = (typeof REFUND_DESTINATIONS)[number];

/** One part of a refund: where it went (with the VPO's shipper) and how much. */
export interface RefundPart {
  destino: RefundDestination;
  /** The shipper's name for 'VPO' and 'EMBARCADOR'; null otherwise. */
  embarcador: string | null;
  cents: Cents;
}

/** 'Devolvido ao seu saldo', 'Devolvido ao VPO de <embarcador>', 'Devolvido ao embarcador <nome>'. */
export function refundDestinationLabel(destino: RefundDestination, embarcador: string | null): string {
  const shipper = embarcador ?? '';
  switch (destino) {
    case 'SALDO':
      return 'Devolvido ao seu saldo';
    case 'SALDO_TERCEIRO':
      return 'Devolvido ao seu saldo em outras plataformas';
    case 'VPO':
      return shipper ? `Devolvido ao VPO de ${shipper}` : 'Devolvido ao VPO';
    case 'EMBARCADOR':
      return shipper ? `Devolvido ao embarcador ${shipper}` : 'Devolvido ao embarcador';
  }
}

/** Every part with its value: 'Devolvido ao seu saldo: R$ 10,00 · Devolvido ao VPO de Transportes X: R$ 12,40'. */
export function refundPartsText(parts: readonly RefundPart[]): string {
  return parts.map((p) => `${refundDestinationLabel(p.destino, p.embarcador)}: ${formatBrl(p.cents)}`).join(' · ');
}

/** What one account paid of a passage, and what was given back to it already. */
export interface PassagePayment {
  /** 'own' (Saldo), 'third' (SaldoTerceiro), or a VPO's money. */
  account: 'own' | 'third' | 'vpo';
  vpoId: number | null;
  paidCents: Cents;
  refundedCents: Cents;
}

/**
 * Decision 56: a refund goes back in the reverse of the order the passage was paid. A passage is
 * paid by its VPOs first and by the balance for what they could not pay: the part a correct charge
 * would not have taken is the last one paid, so Saldo (or SaldoTerceiro) is given back first, then
 * the VPOs, the last one first. Returns the shares, or null when more is asked than is left.
 */
export function splitRefund(refundCents: Cents, payments: readonly PassagePayment[]): { index: number; cents: Cents }[] | null {
  const order = payments.map((p, index) => ({ p, index })).sort((a, b) => rank(a.p) - rank(b.p) || b.index - a.index);
  const shares: { index: number; cents: Cents }[] = [];
  let rest = refundCents;
  for (const { p, index } of order) {
    if (rest === 0) break;
    const cents = Math.min(rest, p.paidCents - p.refundedCents);
    if (cents > 0) shares.push({ index, cents });
    rest -= cents;
  }
  return rest === 0 ? shares : null;
}

function rank(p: PassagePayment): number {
  return p.account === 'vpo' ? 1 : 0;
}

export function refundableCents(payments: readonly PassagePayment[]): Cents {
  return payments.reduce((sum, p) => sum + p.paidCents - p.refundedCents, 0);
}

export function refundOutOfRange(maxCents: Cents): string {
  return contestMessages.refundInvalid.replace('{max}', formatBrl(maxCents));
}

/**
 * Decision 56: what the driver reads around a contest (the web app), shared by the statement, the VPO's details,
 * the dashboard's notice and the contests page. The reasons' and states' labels are the domain's
 * (contestReasonLabels, contestStateLabels); the server writes its own answers (Mensagem).
 */
export const contestTexts = {
  action: 'Contestar',
  /** The action's accessible name: which passage it contests. */
  actionName: (place: string, when: string) => `Contestar a passagem por ${place} de ${when}`,
  dialogTitle: 'Contestar passagem',
  passage: 'Passagem',
  reason: 'Motivo',
  text: 'Descreva o motivo',
  textRequired: 'Obrigatório quando o motivo é “Outro”.',
  textOptional: 'Opcional: conte o que aconteceu.',
  textCount: (used: number) => `${used} de ${CONTEST_TEXT_MAX} caracteres`,
  whatHappens: `A operadora tem até ${CONTEST_ANSWER_DAYS} dias para responder. Se ela aceitar, o valor volta para a conta que pagou a passagem.`,
  submit: 'Enviar contestação',
  back: 'Voltar',
  flagged: 'Possível cobrança duplicada',
  overdue: 'Resposta atrasada',
} as const;
