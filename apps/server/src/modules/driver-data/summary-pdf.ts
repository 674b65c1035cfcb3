import {
  DRIVER_DATA_KINDS,
  type DriverDataKind,
  driverDataMessages,
  formatCpfCnpj,
  formatDateTime,
  formatPhone,
  messages,
} from '@portal/domain';
import {
  bodyStyle,
  createPdf,
  labelValue,
  moneyLine,
  pdfBuffer,
  pdfSection,
  pdfText,
  PDF_CONTENT_WIDTH,
  PDF_LAYOUT,
  writeFooter,
} from '../../pdf/document.js';

const S = driverDataMessages.summary;

export interface DataSummary {
  name: string;
  cpfCnpj: string;
  phone: string;
  since: string;
  balances: { own: number; third: number; vpo: number };
  counts: Record<DriverDataKind, number>;
  generatedAt: Date;
}

function bullet(doc: PDFKit.PDFDocument, text: string): void {
  doc.x = PDF_LAYOUT.margin;
  doc.text(pdfText(`•  ${text}`), { width: PDF_CONTENT_WIDTH });
}

/**
 * The ZIP's readable page: who the data is of, the balances, each file with what it holds and how
 * many records, what is not in the ZIP and why, and where each right is served. A summary, not the
 * rows: a long history stays in the JSON files, so the PDF costs the same for every driver.
 */
export function dataSummaryPdf(summary: DataSummary): Promise<Buffer> {
  const doc = createPdf({ title: S.title });
  const done = pdfBuffer(doc);
  const footer = messages.pdf.generatedAt(formatDateTime(summary.generatedAt));
  writeFooter(doc, footer, 'left');
  doc.on('pageAdded', () => writeFooter(doc, footer, 'left'));
  doc.x = PDF_LAYOUT.margin;
  doc.text(pdfText(S.intro), { width: PDF_CONTENT_WIDTH });

  pdfSection(doc, S.you);
  labelValue(doc, S.name, summary.name);
  labelValue(doc, S.document, formatCpfCnpj(summary.cpfCnpj));
  labelValue(doc, S.phone, formatPhone(summary.phone));
  labelValue(doc, S.since, formatDateTime(summary.since));

  pdfSection(doc, S.balances);
  moneyLine(doc, S.balanceOwn, summary.balances.own);
  moneyLine(doc, S.balanceThird, summary.balances.third);
  moneyLine(doc, S.balanceVpo, summary.balances.vpo);

  pdfSection(doc, S.files);
  for (const [kind, about] of Object.entries(DRIVER_DATA_KINDS) as [DriverDataKind, (typeof DRIVER_DATA_KINDS)[DriverDataKind]][]) {
    labelValue(doc, `${about.title} (${about.file})`, `${S.records(summary.counts[kind])}. ${about.holds}.`);
    doc.moveDown(0.15);
  }

  pdfSection(doc, S.notExported);
  for (const item of S.notExportedItems) bullet(doc, item);
  pdfSection(doc, S.rights);
  for (const item of S.rightsItems) bullet(doc, item);
  bodyStyle(doc);

  doc.end();
  return done;
}
