import type { Receipt, ReceiptParty } from '@portal/contract';
import { formatDateTime, messages, reaisToCents } from '@portal/domain';
import type { PdfDoc } from '../../pdf/document.js';
import {
  bodyStyle,
  createPdf,
  labelValue,
  pdfBuffer,
  pdfSection,
  PDF_CONTENT_WIDTH,
  PDF_FONTS,
  PDF_LAYOUT,
  pdfMoney,
  pdfText,
  writeFooter,
} from '../../pdf/document.js';

const L = messages.receipt.labels;
const RED = '#b00020';
const MUTED = '#555555';

/** A reversed withdrawal says so first, in a red box: the money did not leave. */
function reversedBanner(doc: PdfDoc): void {
  const { margin } = PDF_LAYOUT;
  const text = pdfText(messages.receipt.reversedNotice);
  doc.font(PDF_FONTS.bold).fontSize(12);
  const height = doc.heightOfString(text, { width: PDF_CONTENT_WIDTH - 20 }) + 16;
  const top = doc.y;
  doc.rect(margin, top, PDF_CONTENT_WIDTH, height).lineWidth(1.5).strokeColor(RED).stroke();
  doc.fillColor(RED).text(text, margin + 10, top + 8, { width: PDF_CONTENT_WIDTH - 20 });
  bodyStyle(doc);
  doc.x = margin;
  doc.y = top + height + 14;
}

/** The amount, big, with the status in words under it. */
function amount(doc: PdfDoc, receipt: Receipt): void {
  const { margin } = PDF_LAYOUT;
  doc.x = margin;
  doc.font(PDF_FONTS.regular).fontSize(10).fillColor(MUTED).text(pdfText(L.value));
  doc
    .font(PDF_FONTS.bold)
    .fontSize(26)
    .fillColor('black')
    .text(pdfMoney(reaisToCents(receipt.valor)));
  doc
    .font(PDF_FONTS.bold)
    .fontSize(12)
    .fillColor(receipt.status === 'FAILED' ? RED : 'black')
    .text(pdfText(receipt.statusTexto));
  bodyStyle(doc);
  doc.moveDown(1);
}

/** `holder`: a withdrawal's receiver, named only as the provider reported the key's holder. */
function party(doc: PdfDoc, title: string, p: ReceiptParty, holder = false): void {
  pdfSection(doc, title);
  labelValue(doc, holder ? L.holder : L.name, p.nome ?? messages.receipt.holderUnavailable);
  if (p.documento !== null) labelValue(doc, L.document, p.documento);
  if (p.chavePix !== null) labelValue(doc, p.tipoChave === null ? L.pixKey : `${L.pixKey} (${p.tipoChave})`, p.chavePix);
}

/**
 * The receipt as a one-page PDF on the shared base (pdf/document.ts): title, amount, date and
 * time in São Paulo, payer, receiver (the Pix key masked as the JSON has it), ids and status.
 * Everything drawn comes from the Receipt the JSON call answers, so neither shows more.
 */
export async function receiptPdf(receipt: Receipt, now: Date = new Date()): Promise<Buffer> {
  const doc = createPdf({ title: receipt.titulo });
  const done = pdfBuffer(doc);

  if (receipt.status === 'FAILED') reversedBanner(doc);
  amount(doc, receipt);
  labelValue(doc, L.dateTime, formatDateTime(receipt.dataHora));
  if (receipt.concluidoEm !== null) labelValue(doc, L.completedAt, formatDateTime(receipt.concluidoEm));
  labelValue(doc, L.status, receipt.statusTexto);
  if (receipt.valorDevolvido > 0) labelValue(doc, L.returned, pdfMoney(reaisToCents(receipt.valorDevolvido)));
  if (receipt.descricao !== null) labelValue(doc, L.description, receipt.descricao);
  if (receipt.motivo !== null) labelValue(doc, L.reason, receipt.motivo);

  party(doc, L.payer, receipt.pagador);
  party(doc, L.receiver, receipt.recebedor, receipt.tipo === 'saque');

  pdfSection(doc, L.ids);
  labelValue(doc, L.provider, receipt.provedor);
  labelValue(doc, L.providerId, receipt.idTransacaoProvedor ?? '—');
  labelValue(doc, L.ourId, receipt.id);

  writeFooter(doc, messages.pdf.generatedAt(formatDateTime(now)), 'left');
  doc.end();
  return done;
}
