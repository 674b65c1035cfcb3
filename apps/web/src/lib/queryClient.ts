import { QueryClient } from '@tanstack/react-query';
import { isClientError } from './api';

/** 4xx answers are final (401 already went to /login); network and 5xx failures retry twice. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
      refetchOnWindowFocus: true,
    },
    mutations: { retry: false },
  },
});
