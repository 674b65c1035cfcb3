import { formatDateTime, serverMessages, statementKindLabels } from '@portal/domain';
import { Readable } from 'node:stream';
import type { ExportPlan, ExportRow } from './export-rows.js';

/**
 * The statement as a CSV Excel opens right in pt-BR: UTF-8 with a BOM (or Excel reads it as
 * Windows-1252), ';' between fields (Excel's list separator where the decimal mark is ','), CRLF
 * line ends, amounts as 1234,56 (no thousands separator, debits with '-'), fields quoted RFC 4180
 * style when they hold ';', '"', CR or LF.
 */
const CSV_BOM = '\uFEFF';
const SEPARATOR = ';';
const EOL = '\r\n';

const columns = serverMessages.statement.exportColumns;
const CSV_HEADER = [
  columns.date,
  columns.description,
  columns.kind,
  columns.account,
  `${columns.value} (R$)`,
  `${columns.balanceAfter} (R$)`,
  columns.plate,
  columns.costCentre,
];

/** 123456 -> '1234,56'; -1590 -> '-15,90'. Integer arithmetic only. */
export function csvMoney(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.trunc(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/**
 * A text field: quoted when it must be; a text that a spreadsheet would run as a formula (it
 * starts with = + - @ or a tab: a partner's place name is not ours to trust) is kept as text
 * with a leading apostrophe, as OWASP advises for CSV injection.
 */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csvLine(fields: readonly string[]): string {
  return fields.join(SEPARATOR) + EOL;
}

function csvRow(row: ExportRow): string {
  return csvLine([
    formatDateTime(row.createdAt),
    csvText(row.description),
    csvText(row.kind ? statementKindLabels[row.kind] : serverMessages.statement.exportLabels.otherKind),
    csvText(row.account),
    csvMoney(row.amountCents),
    csvMoney(row.balanceAfterCents),
    csvText(row.plate ?? ''),
    csvText(row.costCentre ?? ''),
  ]);
}

/** Issue 33: after the rows, one line per account: 'Total do período', the account, its total (never summed across accounts). */
function csvTotal(total: ExportPlan['totals'][number]): string {
  return csvLine(['', csvText(serverMessages.statement.exportLabels.total), '', csvText(total.account), csvMoney(total.cents), '', '', '']);
}

async function* csvChunks(chunks: AsyncIterable<ExportRow[]>, totals: ExportPlan['totals']): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(CSV_HEADER.map(csvText));
  for await (const rows of chunks) {
    if (rows.length > 0) yield rows.map(csvRow).join('');
  }
  if (totals.length > 0) yield totals.map(csvTotal).join('');
}

/** The CSV as a byte stream, one chunk of rows read each time the client takes the last one, then the totals per account. */
export function csvStream(chunks: AsyncIterable<ExportRow[]>, totals: ExportPlan['totals'] = []): Readable {
  return Readable.from(csvChunks(chunks, totals), { objectMode: false });
}
