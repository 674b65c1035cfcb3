import { keepPreviousData, queryOptions, useQuery, type QueryFunction, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import { keptOffline } from './persist';

/**
 * A paginated list's read: the rows shown stay on screen while another page or order loads (the
 * table says 'Carregando...', see isListLoading), and every visit asks the server again. Every
 * page seen is kept on the phone for offline use (persist.ts).
 */
export function listQueryOptions<TData, TKey extends QueryKey>(queryKey: TKey, queryFn: QueryFunction<TData, TKey>) {
  return queryOptions({ ...keptOffline, queryKey, queryFn, placeholderData: keepPreviousData, staleTime: 0 });
}

/** A list's query whose failure is only logged, under `failure` (spec §8: the table then shows empty). */
export function useLoggedQuery<TData, TKey extends QueryKey>(options: UseQueryOptions<TData, Error, TData, TKey>, failure: string) {
  const query = useQuery(options);
  useEffect(() => {
    if (query.isError) console.error(failure, query.error);
  }, [failure, query.isError, query.error]);
  return query;
}
