import type { AttentionNotice, FreeFlowSummary } from '@portal/contract';
import { formatBrl, messages, pixAutomaticMessages, TAG_MONTHLY_FEE_CENTS, vehicleBudgetMessages } from '@portal/domain';
import { formatReais } from '../../lib/format';
import { dueDayText, freeFlowTexts } from '../../lib/freeFlowTexts';
import { receiptPath } from '../../lib/receipts';

export type NoticeTone = 'danger' | 'debt' | 'warning' | 'waiting' | 'security' | 'info';

/** Decision 44's notices: a Pix key saved (was it the driver?) and a payout, with the way to each. */
const PAYOUT_NOTICE = {
  keySavedAction: 'Ver chaves',
  keySavedActionName: 'Ver chaves Pix salvas',
  withdrawalAction: 'Comprovante',
  withdrawalActionName: (value: string) => `Comprovante do saque de ${value}`,
} as const;

/** Issue 35: the name or phone corrected (was it the driver?), with the way to see them. */
const PROFILE_NOTICE = { action: 'Ver dados', actionName: 'Ver seus dados em Configurações' } as const;

/** One notice as the dashboard shows it: a short text and the way to deal with it. */
export interface NoticeView {
  key: string;
  tone: NoticeTone;
  text: string;
  /** What the text means for the driver, on a line of its own below it (issue 25: a negative balance). */
  detail?: string;
  /** The action's visible label, and its accessible name (which starts with the label and says which one). */
  action: string;
  actionName: string;
  to: string;
  /** The action needs a connection (offline it is disabled, saying why). Seeing a Pix already made does not. */
  needsNetwork: boolean;
  /** Decision 56: the action contests this passage in one tap (reason 'Cobrança duplicada'); `to` is then where to look at it first. */
  contestPassageId?: number;
}

/**
 * The most pressing first: a blocked tag stops the truck at the toll plaza; a low balance soon will; a VPO
 * that ran short took money from Saldo (decision 52); a Pix only waits. Then what was done with the money
 * (decision 44): a key saved, the payouts, newest first.
 */
const ORDER: Record<AttentionNotice['tipo'], number> = {
  'tag-bloqueada': 0,
  'orcamento-veiculo': 1,
  'saldo-baixo': 1,
  'saldo-negativo': 1,
  'recarga-automatica-falhou': 2,
  'vpo-insuficiente': 2,
  'cobranca-duplicada': 3,
  'compra-pendente': 4,
  'chave-pix-nova': 5,
  'dados-alterados': 5,
  saque: 6,
};

/** Decision 56: a passage that looks charged twice, contested from the notice in one tap. */
export const DUPLICATE_NOTICE = {
  action: 'Contestar',
  actionName: (place: string, value: string) => `Contestar a cobrança duplicada de ${value} em ${place}`,
  seeStatement: 'Ver no extrato',
} as const;

function view(notice: AttentionNotice): NoticeView {
  switch (notice.tipo) {
    case 'tag-bloqueada':
      return {
        key: `tag-${notice.serialNumber}`,
        tone: 'danger',
        text: messages.attention.tagBlockedShort(notice.placa),
        action: messages.attention.tagBlockedAction,
        actionName: `${messages.attention.tagBlockedAction} ${notice.placa}`,
        to: `/tags/detalhes/${encodeURIComponent(notice.placa)}`,
        needsNetwork: true,
      };
    case 'orcamento-veiculo':
      // Decision 78: the server's text names the plate and how much of the month's budget is spent (or that the tag was blocked).
      return {
        key: `orcamento-${notice.veiculoId}`,
        tone: notice.bloqueada ? 'danger' : 'warning',
        text: notice.Mensagem,
        action: vehicleBudgetMessages.noticeAction,
        actionName: vehicleBudgetMessages.noticeActionName(notice.placa),
        to: '/empresa/orcamentos',
        needsNetwork: true,
      };
    case 'saldo-baixo':
      return {
        key: 'saldo-baixo',
        tone: 'warning',
        text: messages.attention.lowBalanceShort(formatReais(notice.nivelAlerta)),
        action: messages.attention.lowBalanceAction,
        actionName: messages.attention.lowBalanceAction,
        to: '/saldo/comprar',
        needsNetwork: true,
      };
    case 'saldo-negativo':
      // Issue 25: not only low: what it means for the next passage and for the tag's month.
      return {
        key: 'saldo-negativo',
        tone: 'debt',
        text: messages.attention.negativeBalanceTitle(formatReais(notice.saldo)),
        detail: messages.attention.negativeBalanceMeaning(formatBrl(TAG_MONTHLY_FEE_CENTS)),
        action: messages.attention.lowBalanceAction,
        actionName: messages.attention.lowBalanceAction,
        to: '/saldo/comprar',
        needsNetwork: true,
      };
    case 'recarga-automatica-falhou':
      // Decision 58: the server's text says which debit, when and why: 'A recarga automática de R$ X de dd/mm/aaaa não foi debitada: ...'.
      return {
        key: `recarga-${notice.cicloId}`,
        tone: 'warning',
        text: notice.Mensagem,
        action: pixAutomaticMessages.noticeAction,
        actionName: pixAutomaticMessages.noticeActionName(formatReais(notice.valor)),
        to: '/saldo/recarga-automatica',
        needsNetwork: true,
      };
    case 'compra-pendente':
      return {
        key: `pix-${notice.cobrancaId}`,
        tone: 'waiting',
        text: messages.attention.pendingPurchaseShort(formatReais(notice.valor)),
        action: messages.attention.pendingPurchaseAction,
        actionName: `${messages.attention.pendingPurchaseAction} da compra de ${formatReais(notice.valor)}`,
        to: '/saldo/comprar',
        needsNetwork: false,
      };
    case 'vpo-insuficiente':
      // The server's text names the shipper and what Saldo paid: 'VPO de … insuficiente: R$ … pagos do seu saldo'.
      return {
        key: `vpo-${notice.vpoId}`,
        tone: 'warning',
        text: notice.Mensagem,
        action: messages.vpo.noticeAction,
        actionName: messages.vpo.noticeActionName.replace('{shipper}', notice.embarcador),
        to: '/vpos/listar',
        // The VPOs seen last are kept on the phone: looking at them needs no connection.
        needsNetwork: false,
      };
    case 'cobranca-duplicada':
      // The server's text: 'Possível cobrança duplicada: <praça>, R$ X em dd/mm/aaaa hh:mm'.
      return {
        key: `duplicada-${notice.passagemId}`,
        tone: 'warning',
        text: notice.Mensagem,
        action: DUPLICATE_NOTICE.action,
        actionName: DUPLICATE_NOTICE.actionName(notice.praca, formatReais(notice.valor)),
        to: '/extrato/listar',
        needsNetwork: true,
        contestPassageId: notice.passagemId,
      };
    case 'chave-pix-nova':
      // The server's text names the key (masked) and when: 'Não foi você? Remova a chave...'.
      return {
        key: `chave-${notice.chaveId}`,
        tone: 'security',
        text: notice.Mensagem,
        action: PAYOUT_NOTICE.keySavedAction,
        actionName: PAYOUT_NOTICE.keySavedActionName,
        to: '/configuracoes#chaves-pix',
        needsNetwork: true,
      };
    case 'dados-alterados':
      // The server's text names what changed and when: 'Se não foi você, troque sua senha...'.
      return {
        key: `dados-${notice.alteracaoId}`,
        tone: 'security',
        text: notice.Mensagem,
        action: PROFILE_NOTICE.action,
        actionName: PROFILE_NOTICE.actionName,
        to: '/configuracoes#seus-dados',
        needsNetwork: true,
      };
    case 'saque':
      return {
        key: `saque-${notice.saqueId}`,
        tone: 'info',
        text: notice.Mensagem,
        action: PAYOUT_NOTICE.withdrawalAction,
        actionName: PAYOUT_NOTICE.withdrawalActionName(formatReais(notice.valor)),
        to: receiptPath('saque', notice.saqueId),
        needsNetwork: true,
      };
  }
}

/** The notices in the order the driver should deal with them (stable within a kind: the server's order). */
export function noticeViews(notices: readonly AttentionNotice[]): NoticeView[] {
  return [...notices].sort((a, b) => ORDER[a.tipo] - ORDER[b.tipo]).map(view);
}

/**
 * Decision 76: free-flow tolls open or overdue, one notice computed here from the Resumo of GET
 * /api/livre-passagem?page=1 (the attention endpoint does not carry them): overdue ones in debt's
 * tone with a low balance's rank (an evasion fine is near), open ones as a warning with the VPOs'.
 * Null when nothing is owed.
 */
function freeFlowNotice(summary: FreeFlowSummary | undefined): { rank: number; view: NoticeView } | null {
  if (!summary || (summary.emAberto === 0 && summary.vencidos === 0)) return null;
  const value = formatReais(summary.valorEmAberto);
  const overdue = summary.vencidos > 0;
  return {
    rank: overdue ? ORDER['saldo-negativo'] : ORDER['vpo-insuficiente'],
    view: {
      key: 'livre-passagem',
      tone: overdue ? 'debt' : 'warning',
      text: overdue
        ? freeFlowTexts.noticeOverdue(summary.vencidos)
        : freeFlowTexts.noticeOpen(summary.emAberto, value, summary.proximoVencimento ? dueDayText(summary.proximoVencimento) : '—'),
      action: freeFlowTexts.noticeAction,
      actionName: freeFlowTexts.noticeActionName,
      to: '/livre-passagem',
      // The tolls seen last are kept on the phone: looking at them needs no connection.
      needsNetwork: false,
    },
  };
}

/** The dashboard's notices: the server's (noticeViews) and the free-flow one in its place, the most pressing first. */
export function dashboardNoticeViews(notices: readonly AttentionNotice[], freeFlow: FreeFlowSummary | undefined): NoticeView[] {
  const ranked = [...notices]
    .sort((a, b) => ORDER[a.tipo] - ORDER[b.tipo])
    .map((notice) => ({ rank: ORDER[notice.tipo], view: view(notice) }));
  const tolls = freeFlowNotice(freeFlow);
  if (tolls) {
    const at = ranked.findIndex((entry) => entry.rank > tolls.rank);
    ranked.splice(at === -1 ? ranked.length : at, 0, tolls);
  }
  return ranked.map((entry) => entry.view);
}
