import type { ReceiptKind } from '@portal/contract';

/** The printable receipt of a Pix purchase ('compra') or a withdrawal ('saque'): /comprovantes/<tipo>/<id>. */
export function receiptPath(tipo: ReceiptKind, id: string): string {
  return `/comprovantes/${tipo}/${encodeURIComponent(id)}`;
}

/** The accessible name of every link to a receipt (statement rows, success screens). */
export const RECEIPT_LINK_LABEL = 'Ver comprovante';
