import { saoPauloWallClock } from './dates.js';
import type { Cents } from './money.js';
import { formatBrl } from './money.js';
import type { FieldErrors } from './registration.js';
import { saoPauloMidnight } from './statement.js';

/**
 * Issue 35, decision 70: closing the account ('Encerrar conta'). Possible only when nothing of the
 * driver's money or of a process still under way would be left behind: each blocker says what it
 * is and how to clear it, in the driver's words.
 */

/** Lei 9.613/1998, art. 10, § 2º: the records of an account are kept 5 years from its closing. */
export const CLOSURE_KEEP_YEARS = 5;

/** What a closed account's name reads as (the drivers row stays for the records; the person is gone from it). */
export const CLOSED_ACCOUNT_NAME = 'Conta encerrada';

/** How long the closing receipt's link works without a session. */
export const CLOSURE_RECEIPT_LINK_MINUTES = 15;

/** What the driver ticks, besides the password, to say they mean it (the contract requires `true`). */
export const CLOSURE_CONFIRMATION_TEXT = 'Entendo que minha conta será encerrada e que isso não pode ser desfeito.';

export const CLOSURE_BLOCKERS = [
  'saldo',
  'saldoNegativo',
  'saldoTerceiro',
  'saldoTerceiroNegativo',
  'saque',
  'pix',
  'recargaAutomatica',
  'vpo',
  'dinheiroVpo',
  'contestacao',
] as const;
export type ClosureBlockerKind = (typeof CLOSURE_BLOCKERS)[number];

/** What the server reads of the account, under the driver's lock when closing. */
export interface ClosureFacts {
  ownCents: Cents;
  thirdCents: Cents;
  vpoCents: Cents;
  /** Withdrawals sent to the provider whose outcome is not known yet. */
  withdrawalsInProgress: readonly { amountCents: Cents }[];
  /** Pix purchases waiting for payment and not expired. */
  pendingPurchases: readonly { amountCents: Cents }[];
  /** Automatic top-up debits sent to the payer's bank, not paid nor refused yet. */
  pendingTopUps: readonly { amountCents: Cents }[];
  openVpos: number;
  openContests: number;
}

export interface ClosureBlocker {
  motivo: ClosureBlockerKind;
  /** What blocks and how to clear it, one sentence: 'Saque o saldo de R$ 12,40 antes de encerrar.' */
  mensagem: string;
}

const sum = (items: readonly { amountCents: Cents }[]) => items.reduce((total, i) => total + i.amountCents, 0);
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many.replace('{n}', String(n)));

export const accountClosureMessages = {
  loaded: 'Encerramento da conta',
  ready: 'Nada impede o encerramento da sua conta.',
  closed: 'Sua conta foi encerrada.',
  blocked: (reasons: string) => `Sua conta ainda não pode ser encerrada. ${reasons}`,
  passwordRequired: 'Digite sua senha para encerrar a conta.',
  confirmationRequired: 'Marque a confirmação de que deseja encerrar a conta.',
  receiptExpired: 'Este link do comprovante de encerramento expirou ou não existe.',
  alreadyClosed: 'Esta conta já foi encerrada.',
  topUpCreatedMeanwhile: 'Uma recarga automática foi criada enquanto a conta era encerrada. Nada foi encerrado; tente de novo.',
  topUpProviderFailed: 'Não foi possível cancelar a recarga automática agora. Nada foi encerrado; tente de novo em alguns minutos.',
  blockers: {
    saldo: (amount: string) => `Saque o saldo de ${amount} antes de encerrar.`,
    saldoNegativo: (amount: string) => `Seu saldo está negativo em ${amount}: faça uma recarga por Pix desse valor antes de encerrar.`,
    saldoTerceiro: (amount: string) =>
      `Você tem ${amount} de saldo de terceiros: use-o em pedágios ou peça à plataforma que o creditou que o estorne antes de encerrar.`,
    saldoTerceiroNegativo: (amount: string) =>
      `Seu saldo de terceiros está negativo em ${amount}: acerte-o com a plataforma que o administra antes de encerrar.`,
    saque: (amount: string) => `Aguarde a conclusão do saque de ${amount} em andamento antes de encerrar.`,
    pix: (amount: string) => `Aguarde o pagamento do Pix de ${amount} ou deixe-o expirar antes de encerrar.`,
    recargaAutomatica: (amount: string) => `Aguarde o débito da recarga automática de ${amount} já enviado ao seu banco antes de encerrar.`,
    vpo: (which: string) => `Aguarde o embarcador concluir ${which} antes de encerrar a conta.`,
    dinheiroVpo: (amount: string) => `Há ${amount} reservados para viagens com VPO: aguarde o embarcador encerrá-las antes de encerrar.`,
    contestacao: (which: string) => `Aguarde a operadora responder ${which} antes de encerrar a conta.`,
  },
} as const;

/**
 * Every reason the account cannot be closed now, in the order the screen shows them (empty: it can).
 * One more condition (the free-flow dues when they exist) is one more entry here and in CLOSURE_BLOCKERS.
 */
export function closureBlockers(facts: ClosureFacts): ClosureBlocker[] {
  const m = accountClosureMessages.blockers;
  const blockers: ClosureBlocker[] = [];
  const add = (motivo: ClosureBlockerKind, mensagem: string) => blockers.push({ motivo, mensagem });
  if (facts.ownCents > 0) add('saldo', m.saldo(formatBrl(facts.ownCents)));
  if (facts.ownCents < 0) add('saldoNegativo', m.saldoNegativo(formatBrl(-facts.ownCents)));
  if (facts.thirdCents > 0) add('saldoTerceiro', m.saldoTerceiro(formatBrl(facts.thirdCents)));
  if (facts.thirdCents < 0) add('saldoTerceiroNegativo', m.saldoTerceiroNegativo(formatBrl(-facts.thirdCents)));
  if (facts.withdrawalsInProgress.length > 0) add('saque', m.saque(formatBrl(sum(facts.withdrawalsInProgress))));
  if (facts.pendingPurchases.length > 0) add('pix', m.pix(formatBrl(sum(facts.pendingPurchases))));
  if (facts.pendingTopUps.length > 0) add('recargaAutomatica', m.recargaAutomatica(formatBrl(sum(facts.pendingTopUps))));
  if (facts.openVpos > 0) add('vpo', m.vpo(plural(facts.openVpos, 'o VPO em aberto', 'os {n} VPOs em aberto')));
  // With no VPO open their account is empty (decision 52); anything else is still the driver's trip.
  else if (facts.vpoCents !== 0) add('dinheiroVpo', m.dinheiroVpo(formatBrl(facts.vpoCents)));
  if (facts.openContests > 0)
    add('contestacao', m.contestacao(plural(facts.openContests, 'a contestação em aberto', 'as {n} contestações em aberto')));
  return blockers;
}

export interface ClosureRequestFields {
  senha: string;
  confirmacao: unknown;
}

/** The password and the ticked confirmation, each with its message. */
export function closureRequestErrors(input: ClosureRequestFields): FieldErrors<keyof ClosureRequestFields> {
  const errors: FieldErrors<keyof ClosureRequestFields> = {};
  if (input.senha === '') errors.senha = accountClosureMessages.passwordRequired;
  if (input.confirmacao !== true) errors.confirmacao = accountClosureMessages.confirmationRequired;
  return errors;
}

/**
 * The first instant past the 5 years the records of an account closed at `closedAt` are kept: the
 * São Paulo midnight after the day of the same date 5 years on (Código Civil art. 132, § 3: a
 * period of years ends on the day of the same number, 29 February on 1 March).
 */
export function closureKeepUntil(closedAt: Date): Date {
  const d = saoPauloWallClock(closedAt);
  const year = d.year + CLOSURE_KEEP_YEARS;
  const lastOfMonth = new Date(Date.UTC(year, d.month, 0)).getUTCDate();
  const last = d.day > lastOfMonth ? new Date(Date.UTC(year, d.month, 1)) : new Date(Date.UTC(year, d.month - 1, d.day));
  const next = new Date(last.getTime() + 24 * 3_600_000);
  return saoPauloMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
}

/** The closing receipt (PDF): what was erased, and what is kept, why and until when. */
export const closureReceiptText = {
  title: 'Comprovante de encerramento de conta',
  account: 'Conta',
  document: 'CPF/CNPJ do titular',
  closedAt: 'Encerrada em',
  erasedTitle: 'O que foi apagado',
  erased: [
    `Nome e telefone (o nome passa a ser "${CLOSED_ACCOUNT_NAME}")`,
    'Senha: não é mais possível entrar nesta conta',
    'Todas as sessões, encerradas no mesmo instante',
    'Chaves Pix salvas e limites de saque',
    'Notificações dos seus aparelhos e avisos ainda não enviados',
    'Recarga automática por Pix Automático, cancelada no provedor',
    'Tags, canceladas na operadora, e veículos (o documento do titular na ANTT apagado)',
  ],
  keptTitle: 'O que guardamos, por quê e até quando',
  kept: {
    records: {
      what: 'Extrato (cada movimentação), comprovantes de compras por Pix e de saques, VPOs, passagens e contestações',
      why: 'Lei 9.613/1998, art. 10, § 2º: registros das transações guardados por 5 anos após o encerramento da conta',
    },
    document: {
      what: 'Seu CPF/CNPJ, guardado à parte, só para identificar esses registros',
      why: 'Lei 9.613/1998, art. 10, I e § 2º; LGPD, art. 16, I',
    },
    terms: {
      what: 'Seus aceites dos Termos de Uso',
      why: 'LGPD, art. 7º, VI e art. 16, I: prova do contrato sob o qual as movimentações foram feitas',
    },
    access: {
      what: 'Registros de acesso à conta (data, hora e endereço IP)',
      why: 'Marco Civil da Internet (Lei 12.965/2014), art. 15: guardados por 6 meses',
      until: '6 meses após cada acesso',
    },
  },
  until: 'Até',
  newAccount: 'O mesmo CPF/CNPJ pode abrir uma nova conta, que não verá nada desta.',
} as const;

/** The link beside each blocker on the screen: where the driver clears it. */
export const closureBlockerActions: Readonly<Record<ClosureBlockerKind, string>> = {
  saldo: 'Sacar',
  saldoNegativo: 'Comprar saldo',
  saldoTerceiro: 'Ver extrato',
  saldoTerceiroNegativo: 'Ver extrato',
  saque: 'Ver extrato',
  pix: 'Ver extrato',
  recargaAutomatica: 'Recarga automática',
  vpo: 'Ver VPOs',
  dinheiroVpo: 'Ver VPOs',
  contestacao: 'Ver contestações',
};
