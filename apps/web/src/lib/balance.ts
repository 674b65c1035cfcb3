import { api } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from './api';
import { liveRead } from './liveUpdates';
import { keptOffline } from './persist';

/**
 * GET /api/motorista/saldo, shared by the dashboard and the balance screens (one cache entry), kept
 * for offline use; live (issue 33): a push that moved money, or every LIVE_POLL_MS on view, asks again.
 */
export const balanceQueryKey = ['motorista', 'saldo'] as const;

const balanceQuery = liveRead(
  ['balance'],
  queryOptions({
    ...keptOffline,
    queryKey: balanceQueryKey,
    queryFn: ({ signal }) => request(api.balance, { signal }),
  }),
);

export function useBalance(options: { refetchOnMount?: boolean | 'always' } = {}) {
  return useQuery({ ...balanceQuery, ...options });
}
