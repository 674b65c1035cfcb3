import {
  formatCpfCnpj,
  formatDateTime,
  messages,
  periodTotalLabel,
  serverMessages,
  STATEMENT_KINDS,
  statementKindLabels,
  statementPeriodLabels,
} from '@portal/domain';
import type { StatementKind } from '@portal/domain';
import type { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import {
  bodyStyle,
  createPdf,
  fitText,
  labelValue,
  moneyLine,
  PDF_BODY_BOTTOM,
  PDF_BODY_TOP,
  PDF_CONTENT_WIDTH,
  PDF_FONTS,
  PDF_LAYOUT,
  pdfMoney,
  pdfText,
  streamPdf,
  writeFooter,
} from '../../pdf/index.js';
import type { PdfDoc } from '../../pdf/index.js';
import type { ExportPlan, ExportRow, ExportSummary } from './export-rows.js';

export interface PdfStatementHeader {
  driverName: string;
  cpfCnpj: string;
  /** The moment written on every page's footer. */
  generatedAt: Date;
}

const ROW_HEIGHT = 13;
/** Rows drawn between two turns of the event loop (drawing is CPU: about 0.3 ms a row). */
const ROWS_PER_TURN = 50;
const TABLE_FONT_SIZE = 8;
const TABLE_HEADER_HEIGHT = 18;
/** The totals blocks at the end: by kind (title, every kind, 'Outros'), then by account (title and one line each). */
const totalsHeight = (accounts: number) => 16 + (STATEMENT_KINDS.length + 1) * 14 + 12 + 16 + accounts * 14 + 12;

const labels = serverMessages.statement.exportLabels;
const columns = serverMessages.statement.exportColumns;

/**
 * Column widths (points, 515 in all) and alignment: date, description, kind, account, value, balance
 * after (issue 33: the account whose balance 'Saldo após' is). `fits`: the column's texts always fit
 * (a date, a kind's label), so they are not measured to be cut; a long description is cut with '…'.
 */
const COLUMNS: ReadonlyArray<{ title: string; width: number; align: 'left' | 'right'; fits: boolean }> = [
  { title: columns.date, width: 82, align: 'left', fits: true },
  { title: columns.description, width: PDF_CONTENT_WIDTH - 82 - 74 - 114 - 56 - 56, align: 'left', fits: false },
  { title: columns.kind, width: 74, align: 'left', fits: true },
  { title: columns.account, width: 114, align: 'left', fits: false },
  { title: columns.value, width: 56, align: 'right', fits: false },
  { title: columns.balanceAfter, width: 56, align: 'right', fits: false },
];
const CELL_PADDING = 4;

const kindLabel = (kind: StatementKind | null) => (kind ? statementKindLabels[kind] : labels.otherKind);
const dayText = (day: string) => day.split('-').reverse().join('/');

/** How many pages the statement takes: its layout is fixed (one line a row), so it is known before the first row. */
function pageCount(rowCount: number, firstTableTop: number, accounts: number): number {
  const perPage = Math.floor((PDF_BODY_BOTTOM - PDF_BODY_TOP - TABLE_HEADER_HEIGHT) / ROW_HEIGHT);
  const onFirst = Math.floor((PDF_BODY_BOTTOM - firstTableTop - TABLE_HEADER_HEIGHT) / ROW_HEIGHT);
  const rows = Math.max(rowCount, 1); // an empty statement still has its one line
  const pages = rows <= onFirst ? 1 : 1 + Math.ceil((rows - onFirst) / perPage);
  const onLast = rows <= onFirst ? rows : rows - onFirst - (pages - 2) * perPage;
  const lastTop = pages === 1 ? firstTableTop : PDF_BODY_TOP;
  const endOfRows = lastTop + TABLE_HEADER_HEIGHT + onLast * ROW_HEIGHT;
  return endOfRows + totalsHeight(accounts) > PDF_BODY_BOTTOM ? pages + 1 : pages;
}

/**
 * The PDF statement, drawn while it is sent: the summary (driver, CPF/CNPJ as the screens show
 * it, period, kind, opening and closing balances), then one line a row as exportRows yields them,
 * then the totals by kind. Every page says 'Página N de M': the layout is fixed (a description
 * too long for its column is cut with '…'), so M is counted from the row count before drawing,
 * and no page is kept in memory to number it afterwards.
 */
export function pdfStatement(
  header: PdfStatementHeader,
  plan: ExportPlan,
  summary: ExportSummary,
  rows: AsyncIterable<ExportRow[]>,
): Readable {
  const doc = createPdf({ title: serverMessages.statement.exportTitle });
  const { range, kind } = plan.scope;
  labelValue(doc, labels.driver, header.driverName);
  labelValue(doc, labels.document, formatCpfCnpj(header.cpfCnpj));
  labelValue(
    doc,
    labels.period,
    range.firstDay && range.lastDay
      ? messages.statement.exportPeriod(dayText(range.firstDay), dayText(range.lastDay))
      : statementPeriodLabels.tudo,
  );
  if (kind) labelValue(doc, labels.kind, statementKindLabels[kind]);
  if (plan.scope.whose) labelValue(doc, labels.whose, plan.scope.whose.label);
  moneyLine(doc, labels.openingBalance, plan.opening.own);
  moneyLine(doc, labels.closingBalance, summary.closing.own);
  if (summary.hasThird) {
    moneyLine(doc, labels.openingThirdBalance, plan.opening.third);
    moneyLine(doc, labels.closingThirdBalance, summary.closing.third);
  }
  if (summary.hasVpo) {
    moneyLine(doc, labels.openingVpoBalance, plan.opening.vpo);
    moneyLine(doc, labels.closingVpoBalance, summary.closing.vpo);
  }
  doc.x = PDF_LAYOUT.margin;
  doc.text(labels.movements(summary.rowCount));
  const tableTop = doc.y + 10;
  const total = pageCount(summary.rowCount, tableTop, plan.totals.length);
  const generated = messages.pdf.generatedAt(formatDateTime(header.generatedAt));
  let pageNumber = 1;
  const footer = () => {
    writeFooter(doc, generated, 'left');
    writeFooter(doc, serverMessages.pdf.page(pageNumber, total), 'right');
  };
  footer();
  doc.on('pageAdded', () => {
    pageNumber += 1;
    footer();
  });

  async function* draw(): AsyncGenerator<void> {
    let y = tableHeader(doc, tableTop);
    let drawn = 0;
    const totals = new Map<StatementKind | null, number>();
    for await (const chunk of rows) {
      for (const row of chunk) {
        if (y + ROW_HEIGHT > PDF_BODY_BOTTOM) {
          doc.addPage();
          y = tableHeader(doc, PDF_BODY_TOP);
        }
        tableRow(doc, y, row, drawn % 2 === 1);
        totals.set(row.kind, (totals.get(row.kind) ?? 0) + row.amountCents);
        y += ROW_HEIGHT;
        drawn += 1;
        if (drawn % ROWS_PER_TURN === 0) {
          yield; // hand over what is drawn
          await setImmediate(); // and let the server's other requests run
        }
      }
    }
    if (drawn === 0) {
      doc
        .font(PDF_FONTS.regular)
        .fontSize(TABLE_FONT_SIZE)
        .text(serverMessages.statement.exportEmpty, PDF_LAYOUT.margin + CELL_PADDING, y + 3, { lineBreak: false });
      y += ROW_HEIGHT;
    }
    totalsBlock(doc, y, totals, plan.totals);
  }
  return streamPdf(doc, draw());
}

function tableHeader(doc: PdfDoc, top: number): number {
  doc.rect(PDF_LAYOUT.margin, top, PDF_CONTENT_WIDTH, TABLE_HEADER_HEIGHT - 2).fill('#e8ecef');
  doc.font(PDF_FONTS.bold).fontSize(TABLE_FONT_SIZE).fillColor('black');
  cells(
    doc,
    top + 5,
    COLUMNS.map((c) => c.title),
  );
  bodyStyle(doc);
  return top + TABLE_HEADER_HEIGHT;
}

function tableRow(doc: PdfDoc, y: number, row: ExportRow, shaded: boolean): void {
  if (shaded) doc.rect(PDF_LAYOUT.margin, y, PDF_CONTENT_WIDTH, ROW_HEIGHT).fill('#f5f6f7');
  doc.font(PDF_FONTS.regular).fontSize(TABLE_FONT_SIZE).fillColor('black');
  cells(doc, y + 3, [
    formatDateTime(row.createdAt),
    // Decision 79: the plate first, where a long description's cut never reaches it.
    row.plate ? `${row.plate} · ${row.description}` : row.description,
    kindLabel(row.kind),
    row.account,
    pdfMoney(row.amountCents),
    pdfMoney(row.balanceAfterCents),
  ]);
}

/**
 * One line of cells at y, each cut to its column. Drawn without pdfkit's line wrapper (no width
 * option): a right-aligned cell is placed by its own width. The wrapper measured every word of
 * every cell again, and a 100,000-row statement is 500,000 cells.
 */
function cells(doc: PdfDoc, y: number, values: readonly string[]): void {
  let x = PDF_LAYOUT.margin;
  COLUMNS.forEach((column, i) => {
    const width = column.width - 2 * CELL_PADDING;
    const value = values[i] ?? '';
    if (column.align === 'right') {
      // Money is never cut: a value too wide for its column (tens of millions) is written smaller.
      const text = pdfText(value);
      const measured = doc.widthOfString(text);
      if (measured > width) doc.fontSize((TABLE_FONT_SIZE * width) / measured);
      doc.text(text, x + column.width - CELL_PADDING - Math.min(measured, width), y, { lineBreak: false });
      doc.fontSize(TABLE_FONT_SIZE);
    } else {
      doc.text(column.fits ? pdfText(value) : fitText(doc, value, width), x + CELL_PADDING, y, { lineBreak: false });
    }
    x += column.width;
  });
}

/**
 * The totals by kind (each kind moves one account: VPO the VPOs', Terceiros SaldoTerceiro, the others
 * Saldo), then the period's total per account (issue 33): never one sum across accounts, which
 * would add the shippers' VPO money to the driver's.
 */
function totalsBlock(doc: PdfDoc, y: number, totals: Map<StatementKind | null, number>, byAccount: ExportPlan['totals']): void {
  if (y + totalsHeight(byAccount.length) > PDF_BODY_BOTTOM) {
    doc.addPage();
    y = PDF_BODY_TOP;
  }
  doc.x = PDF_LAYOUT.margin;
  doc.y = y + 12;
  doc.font(PDF_FONTS.bold).fontSize(11).text(labels.totalsByKind);
  bodyStyle(doc);
  for (const kind of [...STATEMENT_KINDS, null]) {
    const cents = totals.get(kind);
    if (cents === undefined) continue;
    moneyLine(doc, kindLabel(kind), cents);
  }
  if (byAccount.length === 0) return;
  doc.moveDown(0.5);
  doc.font(PDF_FONTS.bold).fontSize(11).text(labels.totalsByAccount);
  bodyStyle(doc);
  for (const total of byAccount) moneyLine(doc, periodTotalLabel(total.account), total.cents);
}
