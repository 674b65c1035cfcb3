import { api, type VposQuery } from '@portal/contract';
import { useEffect } from 'react';
import { request } from '../../../lib/api';
import { listQueryOptions, useLoggedQuery } from '../../../lib/listQuery';

const vpoKeys = {
  all: ['vpos'] as const,
  page: (query: VposQuery) => [...vpoKeys.all, query] as const,
};

/** GET /api/pedagio/motoristaVpos?page=N&sort&direction: 10 VPOs a page, sorted by the server across all pages. */
const vposPageQuery = (query: VposQuery) =>
  listQueryOptions(vpoKeys.page(query), ({ signal }) => request(api.driverVpos, { query, signal }));

/**
 * One page of the driver's VPOs and whether the list must show empty: spec §8, a failure is only
 * logged, and an answer with Sucesso false logs its Mensagem and empties the list.
 */
export function useVposPage(query: VposQuery) {
  const vpos = useLoggedQuery(vposPageQuery(query), 'Falha ao carregar os VPOs');
  const refusal = vpos.data?.Sucesso === false ? vpos.data.Mensagem : undefined;
  useEffect(() => {
    if (refusal !== undefined) console.error('VPOs não consultados:', refusal);
  }, [refusal]);
  return { vpos, empty: vpos.isError || refusal !== undefined };
}
