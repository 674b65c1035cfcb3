import type { Readable } from 'node:stream';
import type { StatementExportFormat, StatementFilters } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { StreamReads } from '../../db/read-replica.js';
import type { Database } from '../../db/schema.js';
import { csvStream } from './export-csv.js';
import { pdfStatement } from './export-pdf.js';
import { exportPlan, exportRows, exportSummary } from './export-rows.js';
import type { WhoseEntries } from './queries.js';

/** The export as the file call sends it (http/route.ts's FileAnswer): its type, its name and its bytes, streamed. */
export interface StatementFile {
  contentType: string;
  fileName: string;
  body: Readable;
}

const CONTENT_TYPES: Record<StatementExportFormat, string> = { csv: 'text/csv; charset=utf-8', pdf: 'application/pdf' };

/** extrato-2026-11-01_2026-11-30.csv, or extrato-completo.pdf for the whole history. */
function exportFileName(firstDay: string | null, lastDay: string | null, format: StatementExportFormat): string {
  return firstDay && lastDay ? `extrato-${firstDay}_${lastDay}.${format}` : `extrato-completo.${format}`;
}

/**
 * The driver's statement for the filters as a streamed file: the plan (period bounds, opening
 * balances, totals; for the PDF its heading's closing balances and row count too) is read first on
 * `db`, so a failure there is an ordinary error answer; then the rows are read in keyset chunks as
 * the client takes the bytes (export-rows.ts), through `later`.
 */
export async function statementExport(
  db: Kysely<Database>,
  later: StreamReads,
  driverId: number,
  format: StatementExportFormat,
  filters: StatementFilters,
  now: Date,
  whose: WhoseEntries | null = null,
): Promise<StatementFile> {
  const plan = await exportPlan(db, driverId, filters, now, whose);
  const fileName = exportFileName(plan.scope.range.firstDay, plan.scope.range.lastDay, format);
  if (format === 'csv')
    return { contentType: CONTENT_TYPES.csv, fileName, body: csvStream(exportRows(later, driverId, plan), plan.totals) };
  const summary = await exportSummary(db, driverId, plan);
  const driver = await db.selectFrom('drivers').select(['name', 'cpf_cnpj']).where('id', '=', driverId).executeTakeFirstOrThrow();
  return {
    contentType: CONTENT_TYPES.pdf,
    fileName,
    body: pdfStatement(
      { driverName: driver.name, cpfCnpj: driver.cpf_cnpj, generatedAt: now },
      plan,
      summary,
      exportRows(later, driverId, plan),
    ),
  };
}
