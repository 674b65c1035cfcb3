import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
  type PersistQueryClientOptions,
} from '@tanstack/query-persist-client-core';
import { IsRestoringProvider, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';

interface OfflineDataProviderProps {
  client: QueryClient;
  persistOptions: Omit<PersistQueryClientOptions, 'queryClient'>;
  children: ReactNode;
}

/**
 * TanStack Query's PersistQueryClientProvider (the reads wait while the data kept on the phone is
 * restored, then the cache is saved on every change), but the restore's end is a transition: every
 * read of the screen then subscribes and draws its kept data at once, which as an urgent update was
 * one 200–300 ms task on a mid-range phone right after the page came alive. In a transition React
 * draws it in slices and the page keeps answering taps.
 */
export function OfflineDataProvider({ client, persistOptions, children }: OfflineDataProviderProps) {
  const [isRestoring, setIsRestoring] = useState(true);
  const restoreStarted = useRef(false);

  useEffect(() => {
    const options = { ...persistOptions, queryClient: client };
    if (!restoreStarted.current) {
      restoreStarted.current = true;
      persistQueryClientRestore(options)
        // A copy that cannot be read is dropped by the restore itself: the screen reads the network.
        .catch(() => undefined)
        .finally(() => startTransition(() => setIsRestoring(false)));
    }
    return isRestoring ? undefined : persistQueryClientSubscribe(options);
  }, [client, persistOptions, isRestoring]);

  return (
    <QueryClientProvider client={client}>
      <IsRestoringProvider value={isRestoring}>{children}</IsRestoringProvider>
    </QueryClientProvider>
  );
}
