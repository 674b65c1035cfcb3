import { api, type ReceiptKind } from '@portal/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { downloadFile, request } from '../../../lib/api';
import { liveRead } from '../../../lib/liveUpdates';
import { keptOffline } from '../../../lib/persist';

const receiptKeys = {
  all: ['comprovante'] as const,
  one: (kind: ReceiptKind, id: string) => [...receiptKeys.all, kind, id] as const,
};

/**
 * GET /api/comprovantes/:tipo/:id, asked again on every visit and, live, when a withdrawal in
 * processing ends (issue 33); kept on the phone, so a receipt seen once can be shown with no signal.
 */
export const receiptQuery = (kind: ReceiptKind, id: string) =>
  liveRead(
    ['withdrawals', 'statement'],
    queryOptions({
      ...keptOffline,
      queryKey: receiptKeys.one(kind, id),
      queryFn: ({ signal }) => request(api.receipt, { params: { tipo: kind, id }, signal }),
      staleTime: 0,
    }),
  );

/** GET /api/comprovantes/:tipo/:id/pdf, saved under the server's file name. */
export function useReceiptPdf() {
  return useMutation({
    // Offline the button is disabled; a connection lost on the way fails at once instead of waiting.
    networkMode: 'always',
    mutationFn: ({ kind, id }: { kind: ReceiptKind; id: string }) =>
      downloadFile(api.receiptPdf, { params: { tipo: kind, id }, fallbackName: `comprovante-${kind}.pdf` }),
  });
}
