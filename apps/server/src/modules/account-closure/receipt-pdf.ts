import { closureReceiptText as T, formatDateTime, maskCpfCnpj, messages } from '@portal/domain';
import { createPdf, labelValue, pdfBuffer, pdfSection, pdfText, writeFooter } from '../../pdf/document.js';
import type { ClosingReceipt } from './service.js';

/**
 * Decision 70: the closing receipt the driver keeps: what was erased, and what is kept, why (which
 * law) and until when. The document shows masked, as every screen of the portal does.
 */
export async function closingReceiptPdf(receipt: ClosingReceipt, now: Date = new Date()): Promise<Buffer> {
  const doc = createPdf({ title: T.title });
  const done = pdfBuffer(doc);
  const until = formatDateTime(new Date(receipt.keepUntil.getTime() - 1000));

  labelValue(doc, T.account, String(receipt.driverId));
  labelValue(doc, T.document, maskCpfCnpj(receipt.cpfCnpj));
  labelValue(doc, T.closedAt, formatDateTime(receipt.closedAt));

  pdfSection(doc, T.erasedTitle);
  for (const line of T.erased) doc.text(pdfText(`• ${line}`));

  pdfSection(doc, T.keptTitle);
  for (const item of [T.kept.records, T.kept.document, T.kept.terms]) {
    doc.moveDown(0.4);
    doc.text(pdfText(item.what));
    labelValue(doc, 'Por quê', item.why);
    labelValue(doc, T.until, until);
  }
  doc.moveDown(0.4);
  doc.text(pdfText(T.kept.access.what));
  labelValue(doc, 'Por quê', T.kept.access.why);
  labelValue(doc, T.until, T.kept.access.until);

  doc.moveDown();
  doc.text(pdfText(T.newAccount));
  writeFooter(doc, messages.pdf.generatedAt(formatDateTime(now)), 'left');
  doc.end();
  return done;
}
