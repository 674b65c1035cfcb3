import { api, type VposQuery } from '@portal/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { downloadFile, request } from '../../../lib/api';
import { vposQueryRoot } from '../../../lib/contests';
import { listQueryOptions, useLoggedQuery, useReadFailure, type ReadFailure } from '../../../lib/listQuery';
import { liveRead } from '../../../lib/liveUpdates';
import { keptOffline } from '../../../lib/persist';

const vpoKeys = {
  all: vposQueryRoot,
  page: (query: VposQuery) => [...vpoKeys.all, query] as const,
  one: (id: string) => [...vpoKeys.all, 'detalhes', id] as const,
};

/** GET /api/pedagio/motoristaVpos?page=N&sort&direction: 10 VPOs a page, sorted by the server across all pages. */
const vposPageQuery = (query: VposQuery) =>
  listQueryOptions(['vpos'], vpoKeys.page(query), ({ signal }) => request(api.driverVpos, { query, signal }));

/**
 * One page of the driver's VPOs and whether the list must show empty: spec §8, a failure is
 * logged, and an answer with Sucesso false logs its Mensagem and empties the list. Issue 25: either
 * is said at once, with 'Tentar novamente' (`failure`).
 */
export function useVposPage(query: VposQuery) {
  const options = vposPageQuery(query);
  const vpos = useLoggedQuery(options, 'Falha ao carregar os VPOs');
  const readFailure = useReadFailure(vpos, options.queryKey);
  const refusal = vpos.data?.Sucesso === false ? vpos.data.Mensagem : undefined;
  useEffect(() => {
    if (refusal !== undefined) console.error('VPOs não consultados:', refusal);
  }, [refusal]);
  const refused: ReadFailure | null = refusal === undefined ? null : { retrying: vpos.isFetching, retry: () => void vpos.refetch() };
  const failure = readFailure ?? refused;
  return { vpos, empty: failure !== null, failure };
}

/**
 * GET /api/pedagio/motoristaVpos/:id (decision 52): one VPO with its money as it is now and the
 * passages of its trip, with who paid each. Asked again each time 'Detalhes do VPO' opens (a trip
 * under way pays passages); kept on the phone, so a VPO seen once shows its passages offline.
 */
export const vpoDetailsQuery = (id: string) =>
  liveRead(
    ['vpos'],
    queryOptions({
      ...keptOffline,
      queryKey: vpoKeys.one(id),
      queryFn: ({ signal }) => request(api.driverVpo, { params: { id }, signal }),
      staleTime: 0,
    }),
  );

/** GET /api/pedagio/motoristaVpos/:id/pdf: the VPO's record (for the shipper or ANTT), saved under the server's file name. */
export function useVpoPdf() {
  return useMutation({
    // Offline the button is disabled; a connection lost on the way fails at once instead of waiting.
    networkMode: 'always',
    mutationFn: (id: string) => downloadFile(api.driverVpoPdf, { params: { id }, fallbackName: `vpo-${id}.pdf` }),
  });
}
