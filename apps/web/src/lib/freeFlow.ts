/**
 * Decision 76: free-flow tolls ('pedágio sem cancela'). Here, not in features/free-flow, what other
 * screens read or write too: the tolls' first page (the dashboard's tile and notice come from its
 * Resumo), the plates' choice (Veículos and Configurações switch it), and a tag passage's proof for
 * an appeal (the statement and a VPO's passages offer it). The free-flow screen's own reads and
 * writes are features/free-flow/api/.
 */
import { api, type FreeFlowPlateRequest, type FreeFlowTollsQuery } from '@portal/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { downloadFile, request } from './api';
import { listQueryOptions } from './listQuery';
import { liveRead } from './liveUpdates';
import { keptOffline } from './persist';

/** Every free-flow read starts with it: a free-flow write or the 'freeFlow' topic asks them all again. */
export const freeFlowQueryRoot = ['livre-passagem'] as const;

const freeFlowKeys = {
  all: freeFlowQueryRoot,
  page: (query: FreeFlowTollsQuery) => [...freeFlowQueryRoot, 'lista', query] as const,
  plates: [...freeFlowQueryRoot, 'placas'] as const,
};

/**
 * GET /api/livre-passagem?page=N&placa&estado: 10 tolls a page and the Resumo of what is owed, kept
 * on the phone; live on the 'freeFlow' topic (a toll arrived, paid, short of Saldo, near or past its
 * day). An answer with Sucesso false is a failure.
 */
export const freeFlowPageQuery = (query: FreeFlowTollsQuery) =>
  listQueryOptions(['freeFlow'], freeFlowKeys.page(query), async ({ signal }) => {
    const answer = await request(api.freeFlowTolls, { query, signal });
    if (!answer.Sucesso) throw new Error(answer.Mensagem);
    return answer;
  });

/** The dashboard's read: the first page of every plate and state, the same cache entry as the screen's first page. */
export const freeFlowSummaryQuery = freeFlowPageQuery({ page: 1 });

/**
 * GET /api/livre-passagem/placas: each vehicle's plate and its choice (on, paid automatically),
 * kept on the phone; live on 'freeFlow' and 'tags' (a vehicle added or deleted).
 */
export const freeFlowPlatesQuery = liveRead(
  ['freeFlow', 'tags'],
  queryOptions({
    ...keptOffline,
    queryKey: freeFlowKeys.plates,
    queryFn: async ({ signal }) => {
      const answer = await request(api.freeFlowPlates, { signal });
      if (!answer.Sucesso) throw new Error(answer.Mensagem);
      return answer;
    },
    staleTime: 0,
  }),
);

/**
 * POST /api/livre-passagem/placas `{veiculoId?, ativo, automatico}` (no veiculoId: every vehicle):
 * idempotent (request sends the intent's Idempotency-Key). The answer's plates replace the ones
 * shown; every free-flow read is asked again (turning a plate off erases its open tolls).
 */
export function useSetFreeFlowPlates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FreeFlowPlateRequest) => request(api.setFreeFlowPlates, { body }),
    onSuccess: (answer) => {
      if (answer.Sucesso) queryClient.setQueryData(freeFlowKeys.plates, answer);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: freeFlowQueryRoot }),
  });
}

/** GET /api/passagens/:id/comprovante-recurso: a tag passage's proof for an appeal (PDF with its verification code). */
export function usePassageProof() {
  return useMutation({
    // Offline the button is disabled; a connection lost on the way fails at once instead of waiting.
    networkMode: 'always',
    mutationFn: (id: number) => downloadFile(api.passageProof, { params: { id }, fallbackName: `comprovante-recurso-passagem-${id}.pdf` }),
  });
}
