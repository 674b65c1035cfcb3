import { pageQuery } from '@portal/contract';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * The current URL's parameters and a function that changes some of them, keeps the others and
 * opens the result at the top of the screen (a list's new page or order starts at its first row).
 * useLocation/useNavigate rather than useSearchParams: the router's vendor chunk, which /login
 * downloads too, carries them already.
 */
export function useListSearch(): readonly [params: URLSearchParams, change: (edit: (params: URLSearchParams) => void) => void] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const change = useCallback(
    (edit: (params: URLSearchParams) => void) => {
      const params = new URLSearchParams(search);
      edit(params);
      const text = params.toString();
      void navigate({ search: text ? `?${text}` : '' });
      window.scrollTo({ top: 0 });
    },
    [search, navigate],
  );
  return [new URLSearchParams(search), change] as const;
}

/** ?page=N of the current URL (1 when absent or invalid) and a setter that keeps the other parameters. */
export function usePageParam(): readonly [page: number, setPage: (page: number) => void] {
  const [params, change] = useListSearch();
  const setPage = useCallback(
    (next: number) =>
      change((current) => {
        // Page 1 is the list's address without `page`.
        if (next > 1) current.set('page', String(next));
        else current.delete('page');
      }),
    [change],
  );
  // The server's own reading of ?page: anything but a whole number from 1 is page 1.
  return [pageQuery.parse({ page: params.get('page') }).page, setPage] as const;
}
