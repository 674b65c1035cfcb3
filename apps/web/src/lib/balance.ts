import { api } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from './api';
import { keptOffline } from './persist';

/** GET /api/motorista/saldo, shared by the dashboard and the balance screens (one cache entry), kept for offline use. */
export const balanceQueryKey = ['motorista', 'saldo'] as const;

const balanceQuery = queryOptions({
  ...keptOffline,
  queryKey: balanceQueryKey,
  queryFn: ({ signal }) => request(api.balance, { signal }),
});

export function useBalance(options: { refetchOnMount?: boolean | 'always' } = {}) {
  return useQuery({ ...balanceQuery, ...options });
}
