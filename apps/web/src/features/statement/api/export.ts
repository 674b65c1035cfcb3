import { api, type StatementExportFormat, type StatementFilters } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '../../../lib/api';
import { filterParams } from '../filters';

export interface StatementExportOrder {
  formato: StatementExportFormat;
  filters: StatementFilters;
}

/** GET /api/extrato/exportar?formato=csv|pdf with the list's filters, saved under the server's file name. */
export function useStatementExport() {
  return useMutation({
    // Offline the buttons are disabled; a connection lost on the way fails at once instead of waiting.
    networkMode: 'always',
    mutationFn: ({ formato, filters }: StatementExportOrder) =>
      downloadFile(api.statementExport, { query: { formato, ...filterParams(filters) }, fallbackName: `extrato.${formato}` }),
  });
}
