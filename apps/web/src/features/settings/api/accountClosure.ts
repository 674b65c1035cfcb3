import { api, type ClosureRequest } from '@portal/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api';

export const closureKeys = {
  status: ['motorista', 'encerramento'] as const,
};

/**
 * GET /api/motorista/encerramento: what keeps the account from being closed, read at every opening
 * and never kept offline (a stale 'nothing blocks' would mislead; the server checks again anyway).
 */
const closureStatusQuery = queryOptions({
  queryKey: closureKeys.status,
  queryFn: ({ signal }) => request(api.accountClosure, { signal }),
  staleTime: 0,
});

export const useClosureStatus = () => useQuery(closureStatusQuery);

/** POST /api/motorista/encerramento: answers the closing receipt's short-lived link. */
export function useCloseAccount() {
  return useMutation({
    mutationFn: (body: ClosureRequest) => request(api.closeAccount, { body }),
  });
}
