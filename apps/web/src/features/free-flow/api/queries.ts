import { api, type FreeFlowTollsQuery } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { freeFlowPageQuery, freeFlowPlatesQuery } from '../../../lib/freeFlow';
import { useLoggedQuery, useReadFailure } from '../../../lib/listQuery';

/**
 * One page of the driver's free-flow tolls (10 a page, filtered by plate and state) and its Resumo.
 * A failure, or an answer with Sucesso false, is logged and said at once with 'Tentar novamente'
 * (issue 25, `failure`), as the other lists.
 */
export function useFreeFlowPage(query: FreeFlowTollsQuery) {
  const options = freeFlowPageQuery(query);
  const tolls = useLoggedQuery(options, 'Falha ao carregar os pedágios sem cancela');
  return { tolls, failure: useReadFailure(tolls, options.queryKey) };
}

/** The driver's plates (the plate filter's options). */
export const useFreeFlowPlates = () => useQuery(freeFlowPlatesQuery);

/**
 * GET /api/verificar/:codigo (public, no session): the facts of a proof for an appeal, or 404 when
 * the code is not one the portal issued. Not one driver's data: not kept on the phone.
 */
export const proofVerifyQuery = (codigo: string) =>
  queryOptions({
    queryKey: ['verificar', codigo] as const,
    queryFn: ({ signal }) => request(api.verifyProof, { params: { codigo }, signal, token: null }),
    staleTime: 5 * 60_000,
  });
