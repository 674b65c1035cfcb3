import {
  keepPreviousData,
  queryOptions,
  useQuery,
  useQueryClient,
  type QueryFunction,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { LiveTopic } from '@portal/domain';
import { useEffect } from 'react';
import { liveRead } from './liveUpdates';
import { keptOffline } from './persist';

/**
 * A paginated list's read: the rows shown stay on screen while another page or order loads (the
 * table says 'Carregando...', see isListLoading), and every visit asks the server again. Every
 * page seen is kept on the phone for offline use (persist.ts). Live (issue 33): the page on view
 * is asked again when an event changes one of `topics` (liveUpdates.ts).
 */
export function listQueryOptions<TData, TKey extends QueryKey>(
  topics: readonly LiveTopic[],
  queryKey: TKey,
  queryFn: QueryFunction<TData, TKey>,
) {
  return liveRead(topics, queryOptions({ ...keptOffline, queryKey, queryFn, placeholderData: keepPreviousData, staleTime: 0 }));
}

/** A list's query whose failure is logged, under `failure` (spec §8: the table then shows empty; useReadFailure says it). */
export function useLoggedQuery<TData, TKey extends QueryKey>(options: UseQueryOptions<TData, Error, TData, TKey>, failure: string) {
  const query = useQuery(options);
  useEffect(() => {
    if (query.isError) console.error(failure, query.error);
  }, [failure, query.isError, query.error]);
  return query;
}

/** A read that failed, as a screen says it: 'Tentar novamente' asks again at once. */
export interface ReadFailure {
  /** The read asked again by 'Tentar novamente' is under way. */
  retrying: boolean;
  retry: () => void;
}

/**
 * Issue 25: a read whose first attempt failed, said at once. TanStack retries a failed read twice,
 * 1 s and 2 s apart (queryClient.ts): on a weak link the screen stayed silent about 3 s after the
 * failure, 7 s after the tap. The retries go on behind the notice (one that succeeds replaces it
 * with the data); 'Tentar novamente' stops the wait between them and asks at once. Null while the
 * read has not failed.
 */
export function useReadFailure(
  query: Pick<UseQueryResult, 'isError' | 'failureCount' | 'isFetching' | 'refetch'>,
  queryKey: QueryKey,
): ReadFailure | null {
  const client = useQueryClient();
  if (!query.isError && query.failureCount === 0) return null;
  return {
    // An attempt that has not failed yet is the one 'Tentar novamente' asked for (a retry's wait counts as failed).
    retrying: query.isFetching && query.failureCount === 0,
    retry: () => void client.cancelQueries({ queryKey, exact: true }).then(() => query.refetch()),
  };
}
