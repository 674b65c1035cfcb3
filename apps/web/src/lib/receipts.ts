import type { ReceiptKind } from '@portal/contract';

/** The printable receipt of a Pix purchase ('compra') or a withdrawal ('saque'): /comprovantes/<kind>/<id>. */
export function receiptPath(kind: ReceiptKind, id: string): string {
  return `/comprovantes/${kind}/${encodeURIComponent(id)}`;
}

/** The accessible name of every link to a receipt (statement rows, success screens). */
export const RECEIPT_LINK_LABEL = 'Ver comprovante';
