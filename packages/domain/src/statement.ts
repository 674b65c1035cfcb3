/** Where a ledger entry came from (SPEC 3 'origin'); the first three are the spec's, the rest ours. */
export const STATEMENT_ORIGINS = {
  passage: 'passagem',
  thirdPartyDebit: 'debito-terceiro-movemais',
  thirdPartyCredit: 'credito-terceiro-movemais',
  pixPurchase: 'compra-pix',
  pixRefund: 'estorno-compra-pix',
  pixWithdrawal: 'saque-pix',
  pixWithdrawalReversal: 'devolucao-saque-pix',
  tagFee: 'mensalidade-tag',
} as const;
export type StatementOrigin = (typeof STATEMENT_ORIGINS)[keyof typeof STATEMENT_ORIGINS];

/** place_name of the entries the portal itself writes (the statement shows them with the first word capitalised). */
export const STATEMENT_PLACE_NAMES = {
  pixPurchase: 'Compra de saldo via Pix',
  pixRefund: 'Estorno de compra via Pix',
  pixWithdrawal: 'Saque via Pix',
  pixWithdrawalReversal: 'Devolução de saque via Pix',
} as const;

const USER_ORIGINS: ReadonlySet<string> = new Set([
  STATEMENT_ORIGINS.pixPurchase,
  STATEMENT_ORIGINS.pixRefund,
  STATEMENT_ORIGINS.pixWithdrawal,
  STATEMENT_ORIGINS.pixWithdrawalReversal,
  STATEMENT_ORIGINS.tagFee,
]);

/** SPEC 3 user_transaction: the driver started the movement (purchase, withdrawal, tag fee), not a partner. */
export function isUserTransactionOrigin(origin: string): boolean {
  return USER_ORIGINS.has(origin);
}

/** SPEC 2 event labels. The event is not a column, but it is named where the row is explained. */
export const STATEMENT_EVENTS = { RECEIVED: 'Recebido', OVERDUE: 'Atrasado', REFUND: 'Reembolso' } as const;
export type StatementEvent = keyof typeof STATEMENT_EVENTS;

export interface StatementDescription {
  text: string;
  tooltip: string | null;
  /** 'warning' for third-party debits, 'third' for third-party passages. */
  icon: 'warning' | 'third' | null;
}

/** SPEC 2 '/extrato/listar' description rules by origin. */
export function describeStatementEntry(origin: string, placeName: string, isThird: boolean): StatementDescription {
  switch (origin) {
    case STATEMENT_ORIGINS.thirdPartyDebit:
      return { text: placeName, tooltip: 'Débito de Terceiro', icon: 'warning' };
    case STATEMENT_ORIGINS.thirdPartyCredit:
      return { text: placeName, tooltip: 'Crédito de Terceiro', icon: null };
    case STATEMENT_ORIGINS.passage:
      return isThird
        ? { text: `Passagem por: ${placeName}`, tooltip: 'Passagem de Terceiro', icon: 'third' }
        : { text: `Passagem por: ${placeName}`, tooltip: null, icon: null };
    default:
      return { text: capitalizeFirstWord(placeName), tooltip: null, icon: null };
  }
}

/** Names the lower-casing of SPEC 2 leaves as they are written (issue 10: 'Pix', never 'pix'). */
const PROPER_NAMES: readonly string[] = ['Pix'];

/** 'COMPRA DE SALDO via PIX' -> 'Compra de saldo via Pix'. */
export function capitalizeFirstWord(text: string): string {
  const lower = text.toLocaleLowerCase('pt-BR');
  const sentence = lower.charAt(0).toLocaleUpperCase('pt-BR') + lower.slice(1);
  return PROPER_NAMES.reduce((result, name) => result.replace(new RegExp(`(?<!\\p{L})${name.toLowerCase()}(?!\\p{L})`, 'gu'), name), sentence);
}
