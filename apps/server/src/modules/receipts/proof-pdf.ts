import type { ProofFacts } from '@portal/contract';
import { formatDateTime, formatSerial, messages, proofMessages as T, reaisToCents } from '@portal/domain';
import { createPdf, labelValue, pdfBuffer, pdfMoney, pdfSection, pdfText, writeFooter } from '../../pdf/document.js';
import type { TollReceipt } from './proof.js';
import { verifyPath } from './proof.js';

const L = T.labels;

/**
 * Decision 76: the proof for an appeal the driver hands to the traffic authority: exactly the facts
 * the public verification answers for its code (the document masked), the code and where to check
 * it. The portal has no public origin of its own in its settings (SERVER_URL is where the operator's
 * commands reach the server, often 127.0.0.1), so the address is printed as the path of the portal's
 * site, '/verificar/<código>'.
 */
export async function proofPdf(facts: ProofFacts, now: Date = new Date()): Promise<Buffer> {
  const doc = createPdf({ title: T.title });
  const done = pdfBuffer(doc);

  labelValue(doc, L.kind, T.kinds[facts.tipo]);
  labelValue(doc, L.issuedAt, formatDateTime(facts.emitidoEm));

  pdfSection(doc, T.sections.vehicle);
  labelValue(doc, L.plate, facts.placa);
  labelValue(doc, L.holder, facts.titular);
  labelValue(doc, L.document, facts.documentoMascarado);

  pdfSection(doc, T.sections.passage);
  labelValue(doc, L.moment, formatDateTime(facts.momento));
  labelValue(doc, L.place, facts.local);
  labelValue(doc, L.value, pdfMoney(reaisToCents(facts.valor)));

  pdfSection(doc, T.sections.tag);
  if (facts.tag === null) doc.text(pdfText(T.noTag));
  else {
    labelValue(doc, L.tag, formatSerial(facts.tag.serialNumber));
    labelValue(doc, L.operator, facts.tag.operadora);
    labelValue(doc, L.activeSince, facts.tag.ativaDesde === null ? T.never : formatDateTime(facts.tag.ativaDesde));
    labelValue(doc, L.activeThen, facts.tag.ativaNoMomento ? T.yes : T.no);
  }
  labelValue(doc, L.balanceThen, pdfMoney(reaisToCents(facts.saldoNoMomento)));

  pdfSection(doc, T.sections.payment);
  if (facts.pagamento === null) doc.text(pdfText(T.notPaidByPortal));
  else {
    labelValue(doc, L.paidAt, formatDateTime(facts.pagamento.pagoEm));
    labelValue(doc, L.paidBy, facts.pagamento.pagoPor);
    if (facts.pagamento.autenticacao !== null) labelValue(doc, L.authentication, facts.pagamento.autenticacao);
  }

  pdfSection(doc, T.sections.check);
  doc.text(pdfText(T.checkNote));
  doc.moveDown(0.3);
  labelValue(doc, L.code, facts.codigo);
  labelValue(doc, L.checkAt, verifyPath(facts.codigo));
  doc.moveDown(0.6);
  doc.text(pdfText(T.ledgerNote));

  writeFooter(doc, messages.pdf.generatedAt(formatDateTime(now)), 'left');
  doc.end();
  return done;
}

/** The payment receipt of a free-flow toll the portal paid: who it was paid to, where, what, when, with what, and its authentication. */
export async function tollReceiptPdf(receipt: TollReceipt, now: Date = new Date()): Promise<Buffer> {
  const doc = createPdf({ title: T.receiptTitle });
  const done = pdfBuffer(doc);

  labelValue(doc, L.value, pdfMoney(receipt.cents));
  labelValue(doc, L.paidAt, formatDateTime(receipt.paidAt));
  labelValue(doc, L.paidBy, receipt.paidBy);
  labelValue(doc, L.authentication, receipt.authentication ?? '—');
  if (receipt.cancelledAt !== null) labelValue(doc, L.situation, T.cancelledAt(formatDateTime(receipt.cancelledAt)));

  pdfSection(doc, T.sections.passage);
  labelValue(doc, L.concessionaire, receipt.concessionaire);
  labelValue(doc, L.gantry, receipt.gantry);
  labelValue(doc, L.highway, `${receipt.highway} km ${receipt.km.toLocaleString('pt-BR', { maximumFractionDigits: 3 })}`);
  labelValue(doc, L.direction, receipt.direction);
  labelValue(doc, L.plate, receipt.plate);
  labelValue(doc, L.moment, formatDateTime(receipt.occurredAt));
  labelValue(doc, L.externalId, receipt.externalId);

  writeFooter(doc, messages.pdf.generatedAt(formatDateTime(now)), 'left');
  doc.end();
  return done;
}
