import { onlineManager, QueryClient } from '@tanstack/react-query';
import { isClientError } from './http';

/**
 * Online means what the browser says, from the first moment: TanStack starts out 'online' and
 * learns otherwise only from an 'offline' event, so a page opened with no signal would try (and
 * fail) every read instead of showing what was last seen.
 */
onlineManager.setEventListener((setOnline) => {
  if (typeof window === 'undefined') return undefined;
  const update = () => setOnline(window.navigator.onLine);
  update();
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  return () => {
    window.removeEventListener('online', update);
    window.removeEventListener('offline', update);
  };
});

/**
 * 4xx answers are final (401 already went to /login); network and 5xx failures retry twice, 1 and
 * 2 s apart, while the screen already says the read failed (issue 25: listQuery.ts useReadFailure).
 * With no connection reads wait (TanStack's 'online' network mode) and the screens show the data
 * kept on the phone (persist.ts); when the connection returns every screen on view asks again.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
      refetchOnWindowFocus: true,
      refetchOnReconnect: 'always',
    },
    // Calls that move money retry by themselves, with their Idempotency-Key (api.ts).
    mutations: { retry: false },
  },
});
