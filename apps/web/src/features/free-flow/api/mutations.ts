import { api } from '@portal/contract';
import type { TollContestReason } from '@portal/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { downloadFile, request } from '../../../lib/api';
import { attentionQueryKey } from '../../../lib/attention';
import { balanceQueryKey } from '../../../lib/balance';
import { contestsQueryRoot, statementQueryRoot } from '../../../lib/contests';
import { freeFlowQueryRoot } from '../../../lib/freeFlow';

/**
 * POST /api/livre-passagem/:id/pagar: paid from Saldo, once (request sends the intent's
 * Idempotency-Key, and the same key again when no answer came). Whatever the answer, the tolls,
 * the balance, the statement and the dashboard's notices are read again.
 */
export function usePayFreeFlowToll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(api.payFreeFlowToll, { params: { id } }),
    onSettled: () =>
      Promise.all(
        [freeFlowQueryRoot, balanceQueryKey, statementQueryRoot, attentionQueryKey].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/** POST /api/livre-passagem/:id/contestar `{motivo}`: one tap, idempotent; the tolls and the contests are read again. */
export function useContestFreeFlowToll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, motivo }: { id: number; motivo: TollContestReason }) =>
      request(api.contestFreeFlowToll, { params: { id }, body: { motivo } }),
    onSettled: () =>
      Promise.all([freeFlowQueryRoot, contestsQueryRoot, attentionQueryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/** GET /api/livre-passagem/:id/comprovante: the payment's receipt (PDF), saved under the server's name. */
export function useFreeFlowReceipt() {
  return useMutation({
    // Offline the button is disabled; a connection lost on the way fails at once instead of waiting.
    networkMode: 'always',
    mutationFn: (id: number) => downloadFile(api.freeFlowTollReceipt, { params: { id }, fallbackName: `pedagio-sem-cancela-${id}.pdf` }),
  });
}

/** GET /api/livre-passagem/:id/comprovante-recurso: the proof for an appeal (PDF with its verification code). */
export function useFreeFlowProof() {
  return useMutation({
    networkMode: 'always',
    mutationFn: (id: number) =>
      downloadFile(api.freeFlowTollProof, { params: { id }, fallbackName: `comprovante-recurso-pedagio-${id}.pdf` }),
  });
}
