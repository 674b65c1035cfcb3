import { cleanText, maskPixKey, stripDocument, TEXT_MAX } from '@portal/domain';
import type { TransferReceiver } from '../../adapters/pix/port.js';

export interface StoredReceiver {
  receiver_name?: string;
  receiver_document?: string;
}

/**
 * What a withdrawal keeps of the holder the provider reported: the name as given (control
 * characters out, bounded) and the document as a receipt prints it. A whole CPF is masked here,
 * as banks print it (***.456.789-**), so the database never holds it; a CNPJ is a company's and
 * stays whole; a document the provider already masked is kept as it came. Only what was reported
 * is returned: a later answer without the holder never erases one already known.
 */
export function storedReceiver(receiver: TransferReceiver | null | undefined): StoredReceiver {
  const name = receiver?.name ? cleanText(receiver.name, TEXT_MAX.name).trim() : '';
  const document = receiver?.document ? receiptDocument(receiver.document) : '';
  return { ...(name ? { receiver_name: name } : {}), ...(document ? { receiver_document: document } : {}) };
}

function receiptDocument(reported: string): string {
  const chars = stripDocument(reported);
  if (/^\d{11}$/.test(chars)) return maskPixKey('CPF', chars);
  if (/^[0-9A-Z]{12}\d{2}$/.test(chars)) return maskPixKey('CNPJ', chars);
  return cleanText(reported, TEXT_MAX.document).trim();
}
