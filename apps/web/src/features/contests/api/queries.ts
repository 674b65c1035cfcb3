import { api } from '@portal/contract';
import type { ContestState } from '@portal/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { downloadFile, request } from '../../../lib/api';
import { contestsQueryRoot } from '../../../lib/contests';
import { listQueryOptions, useReadFailure } from '../../../lib/listQuery';

const contestKeys = {
  all: contestsQueryRoot,
  page: (page: number, estado: ContestState | null) => [...contestKeys.all, page, estado ?? 'todas'] as const,
};

/**
 * GET /api/motorista/contestacoes?page=N&estado=: 10 contests a page, newest first (decision 56),
 * kept on the phone. An answer with Sucesso false is a failure: the page says so, with 'Tentar
 * novamente', as soon as the first attempt fails (issue 25, `failure`).
 */
export function useContestsPage(page: number, estado: ContestState | null) {
  const options = listQueryOptions(['contests'], contestKeys.page(page, estado), async ({ signal }) => {
    const answer = await request(api.driverContests, { query: { page, estado: estado ?? undefined }, signal });
    if (!answer.Sucesso) throw new Error(answer.Mensagem);
    return answer;
  });
  const contests = useQuery(options);
  return { contests, failure: useReadFailure(contests, options.queryKey) };
}

/** GET /api/motorista/contestacoes/:id/pdf: the contest's record, saved under the server's file name. */
export function useContestPdf() {
  return useMutation({
    // Offline the button is disabled; a connection lost on the way fails at once instead of waiting.
    networkMode: 'always',
    mutationFn: (id: number) => downloadFile(api.driverContestPdf, { params: { id }, fallbackName: `contestacao-${id}.pdf` }),
  });
}
