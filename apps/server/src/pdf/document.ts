import { formatBrl, serverMessages } from '@portal/domain';
import type { Cents } from '@portal/domain';
import { createRequire } from 'node:module';
import type PDFKitDocument from 'pdfkit';

/**
 * The shared base of every PDF the portal makes (statement export, receipts): A4, Helvetica
 * (the standard font's WinAnsi encoding covers Portuguese accents, nothing to embed), a header on
 * every page ('Portal do Motorista' and the document's title), helpers for label/value lines and
 * money, and a footer line (page numbers) written inside the bottom margin.
 *
 * Conventions: every helper leaves the document in the body style (regular 10 pt, black) and
 * the cursor at the left margin; text from outside (place names, keys, names) goes through
 * pdfText first.
 */
export type PdfDoc = PDFKit.PDFDocument;

let pdfKit: typeof PDFKitDocument | undefined;

/**
 * pdfkit is loaded at the first PDF, not with the module: the server and every CLI command start
 * without it (it and its fonts' code are a good part of a start's module loading).
 */
function loadPdfKit(): typeof PDFKitDocument {
  pdfKit ??= createRequire(import.meta.url)('pdfkit') as typeof PDFKitDocument;
  return pdfKit;
}

/** A4 in points and the room kept for the header and footer bands. */
export const PDF_LAYOUT = {
  width: 595.28,
  height: 841.89,
  margin: 40,
  /** Brand, title and a rule above the body. */
  headerHeight: 44,
  /** The footer line below the body. */
  footerHeight: 24,
} as const;

export const PDF_FONTS = { regular: 'Helvetica', bold: 'Helvetica-Bold' } as const;
const PDF_BODY_SIZE = 10;
const MUTED = '#555555';

export interface CreatePdfOptions {
  /** On every page's header and in the file's metadata, e.g. serverMessages.statement.exportTitle. */
  title: string;
}

/** The width the body may use (between the side margins). */
export const PDF_CONTENT_WIDTH = PDF_LAYOUT.width - 2 * PDF_LAYOUT.margin;

/** The y the body starts at on each page, below the header. */
export const PDF_BODY_TOP = PDF_LAYOUT.margin + PDF_LAYOUT.headerHeight;

/** The y the body must not pass on each page; the footer is below it. */
export const PDF_BODY_BOTTOM = PDF_LAYOUT.height - PDF_LAYOUT.margin - PDF_LAYOUT.footerHeight;

/** A new document with its first page (header drawn); every page added later gets the header too. */
export function createPdf({ title }: CreatePdfOptions): PdfDoc {
  const safeTitle = pdfText(title);
  const PDFDocument = loadPdfKit();
  const doc = new PDFDocument({
    size: 'A4',
    autoFirstPage: false,
    margins: {
      top: PDF_BODY_TOP,
      bottom: PDF_LAYOUT.height - PDF_BODY_BOTTOM,
      left: PDF_LAYOUT.margin,
      right: PDF_LAYOUT.margin,
    },
    info: { Title: safeTitle, Author: serverMessages.pdf.brand, Creator: serverMessages.pdf.brand },
    lang: 'pt-BR',
    displayTitle: true,
  });
  doc.on('pageAdded', () => drawHeader(doc, safeTitle));
  doc.addPage();
  return doc;
}

function drawHeader(doc: PdfDoc, title: string): void {
  const { margin, width } = PDF_LAYOUT;
  doc.font(PDF_FONTS.bold).fontSize(9).fillColor(MUTED).text(serverMessages.pdf.brand, margin, margin, { lineBreak: false });
  doc
    .font(PDF_FONTS.bold)
    .fontSize(14)
    .fillColor('black')
    .text(title, margin, margin + 13, { lineBreak: false });
  doc
    .moveTo(margin, margin + 34)
    .lineTo(width - margin, margin + 34)
    .lineWidth(0.5)
    .strokeColor('#999999')
    .stroke();
  bodyStyle(doc);
  doc.x = margin;
  doc.y = PDF_BODY_TOP;
}

/** Regular 10 pt black: the style every helper leaves behind. */
export function bodyStyle(doc: PdfDoc): PdfDoc {
  return doc.font(PDF_FONTS.regular).fontSize(PDF_BODY_SIZE).fillColor('black');
}

/** 'Label: value' on its own line(s), the label in bold. */
export function labelValue(doc: PdfDoc, label: string, value: string): void {
  doc.x = PDF_LAYOUT.margin;
  doc
    .font(PDF_FONTS.bold)
    .fontSize(PDF_BODY_SIZE)
    .fillColor('black')
    .text(`${pdfText(label)}: `, { continued: true, width: PDF_CONTENT_WIDTH })
    .font(PDF_FONTS.regular)
    .text(pdfText(value));
  bodyStyle(doc);
}

/** Money as the screens write it ('R$ 1.234,56', '-R$ 15,90'), safe for the PDF's font. */
export function pdfMoney(cents: Cents): string {
  return pdfText(formatBrl(cents));
}

/** 'Label: R$ 1.234,56'. */
export function moneyLine(doc: PdfDoc, label: string, cents: Cents): void {
  labelValue(doc, label, pdfMoney(cents));
}

/**
 * Writes one line in the current page's footer band (e.g. serverMessages.pdf.page(n, total) on the
 * right, messages.pdf.generatedAt(...) on the left), without adding a page or moving the cursor.
 */
export function writeFooter(doc: PdfDoc, text: string, align: 'left' | 'center' | 'right' = 'right'): void {
  const { x, y } = doc;
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0; // text inside the bottom margin would otherwise open a new page
  doc
    .font(PDF_FONTS.regular)
    .fontSize(8)
    .fillColor(MUTED)
    .text(pdfText(text), PDF_LAYOUT.margin, PDF_LAYOUT.height - PDF_LAYOUT.margin - 10, {
      width: PDF_CONTENT_WIDTH,
      align,
      lineBreak: false,
    });
  doc.page.margins.bottom = bottom;
  bodyStyle(doc);
  doc.x = x;
  doc.y = y;
}

/** The characters of Windows-1252 above Latin-1's control range, which Helvetica's WinAnsi encoding draws. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * Text made drawable by the standard fonts: NFC (a decomposed 'ã' becomes one letter), no-break
 * and other spaces as plain spaces, the minus sign as '-', anything outside WinAnsi as '?'.
 */
export function pdfText(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0;
    if (/\s/u.test(ch)) out += ' ';
    else if (ch === '\u2212') out += '-';
    else if ((code >= 0x20 && code < 0x7f) || (code >= 0xa1 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else out += '?';
  }
  return out;
}

/** Truncates text with '…' to fit `width` points in the current font and size (a one-line table cell). */
export function fitText(doc: PdfDoc, text: string, width: number): string {
  const safe = pdfText(text);
  if (doc.widthOfString(safe) <= width) return safe;
  let lo = 0;
  let hi = safe.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (doc.widthOfString(`${safe.slice(0, mid)}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${safe.slice(0, lo).trimEnd()}…`;
}

/** A section title in bold, then the body style again. */
export function pdfSection(doc: PdfDoc, title: string): void {
  doc.moveDown(0.6);
  doc.x = PDF_LAYOUT.margin;
  doc.font(PDF_FONTS.bold).fontSize(12).fillColor('black').text(pdfText(title));
  bodyStyle(doc);
  doc.moveDown(0.2);
}

/** The whole document as one Buffer once `doc.end()` is called (small, one-page documents). */
export function pdfBuffer(doc: PdfDoc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
