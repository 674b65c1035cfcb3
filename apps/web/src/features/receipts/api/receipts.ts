import { api, type ReceiptKind } from '@portal/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { downloadFile, request } from '../../../lib/api';
import { keptOffline } from '../../../lib/persist';

const receiptKeys = {
  all: ['comprovante'] as const,
  one: (tipo: ReceiptKind, id: string) => [...receiptKeys.all, tipo, id] as const,
};

/**
 * GET /api/comprovantes/:tipo/:id, asked again on every visit (a withdrawal in processing ends);
 * kept on the phone, so a receipt seen once can be shown with no signal.
 */
export const receiptQuery = (tipo: ReceiptKind, id: string) =>
  queryOptions({
    ...keptOffline,
    queryKey: receiptKeys.one(tipo, id),
    queryFn: ({ signal }) => request(api.receipt, { params: { tipo, id }, signal }),
    staleTime: 0,
  });

/** GET /api/comprovantes/:tipo/:id/pdf, saved under the server's file name. */
export function useReceiptPdf() {
  return useMutation({
    // Offline the button is disabled; a connection lost on the way fails at once instead of waiting.
    networkMode: 'always',
    mutationFn: ({ tipo, id }: { tipo: ReceiptKind; id: string }) =>
      downloadFile(api.receiptPdf, { params: { tipo, id }, fallbackName: `comprovante-${tipo}.pdf` }),
  });
}
