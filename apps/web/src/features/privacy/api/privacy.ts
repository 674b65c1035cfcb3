import { api } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api';

/**
 * GET /api/privacidade: the encarregado the operator configured (decision 72). Public (the notice
 * is read before signing in), so it is not one driver's data kept offline.
 */
const privacyQuery = queryOptions({
  queryKey: ['privacidade'] as const,
  queryFn: ({ signal }) => request(api.privacy, { signal }),
  staleTime: 10 * 60_000,
});

export const usePrivacyOfficer = () => useQuery(privacyQuery);
