import { vposQuery, type VposQuery } from '@portal/contract';
import { useCallback } from 'react';
import { useListSearch } from '../../lib/usePageParam';

type VpoOrder = Pick<VposQuery, 'sort' | 'direction'>;

/** The server's default order (newest first), which the URL leaves out. */
const DEFAULT_ORDER: VpoOrder = vposQuery.parse({});

/**
 * ?sort=valor|placa|data&direction=asc|desc, read as the server reads them (anything unknown is the
 * default order), and a setter that starts the new order on page 1.
 */
export function useVpoOrder(): readonly [order: VpoOrder, setOrder: (order: VpoOrder) => void] {
  const [params, change] = useListSearch();
  const { sort, direction } = vposQuery.parse({ sort: params.get('sort'), direction: params.get('direction') });
  const setOrder = useCallback(
    (next: VpoOrder) =>
      change((current) => {
        current.delete('page');
        if (next.sort === DEFAULT_ORDER.sort && next.direction === DEFAULT_ORDER.direction) {
          current.delete('sort');
          current.delete('direction');
        } else {
          current.set('sort', next.sort);
          current.set('direction', next.direction);
        }
      }),
    [change],
  );
  return [{ sort, direction }, setOrder] as const;
}
