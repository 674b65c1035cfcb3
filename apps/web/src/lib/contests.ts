/**
 * Decision 56: contesting a toll passage. Here, not in a feature, because the statement, the VPO's
 * details and the dashboard's notice all open a contest, and a contest changes what each of them
 * shows (the row's badge, the passage's badge, the notice): the keys those reads start with live here.
 */
import { api, type OpenContestRequest } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from './api';
import { attentionQueryKey } from './attention';

/** The driver's contests (features/contests' pages start with it). */
export const contestsQueryRoot = ['contestacoes'] as const;

/** The statement's pages (features/statement's keys start with it). */
export const statementQueryRoot = ['extrato'] as const;

/** The driver's VPOs and their details, whose passages carry their contest (features/vpos' keys start with it). */
export const vposQueryRoot = ['vpos'] as const;

/**
 * POST /api/motorista/contestacoes: idempotent (request sends the intent's Idempotency-Key and sends
 * it again when no answer came). Whatever the answer (a 409 says one is already open), every read
 * that shows the passage's contest is asked again: the statement, the contests, the dashboard's
 * notices (a double charge contested leaves them) and the VPOs' passages.
 */
export function useOpenContest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OpenContestRequest) => request(api.openContest, { body }),
    onSettled: () =>
      Promise.all(
        [statementQueryRoot, contestsQueryRoot, attentionQueryKey, vposQueryRoot].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
