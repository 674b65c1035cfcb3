import { api } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { listQueryOptions, useLoggedQuery, useReadFailure } from '../../../lib/listQuery';
import { liveRead } from '../../../lib/liveUpdates';
import { keptOffline } from '../../../lib/persist';
import { tagKeys } from '../../../lib/tags';

const HOUR = 60 * 60 * 1000;

/** GET /api/operadoras: the one list of operators the server enforces (changes rarely). */
const operatorsQuery = queryOptions({
  ...keptOffline,
  queryKey: tagKeys.operators,
  queryFn: ({ signal }) => request(api.operators, { signal }),
  staleTime: HOUR,
});

/** GET /api/veiculo/modelos: brands and their models. */
const vehicleModelsQuery = queryOptions({
  ...keptOffline,
  queryKey: tagKeys.vehicleModels,
  queryFn: ({ signal }) => request(api.vehicleModels, { signal }),
  staleTime: HOUR,
});

/**
 * Issue 25: an answer of the last seconds is the tag's state on screen. The page's first script reads
 * the vehicle a moment before the app adopts it (early-paint/adoptEarlyVehicle.ts): with a staleTime
 * of 0 the app asked for it again as it came alive, the same vehicle twice on every load. Any later
 * visit, a return to the tab or a write of the driver's (invalidateTagData) asks again.
 */
const VEHICLE_FRESH_MS = 10_000;

/**
 * GET /api/veiculo/detail/{plate}: the vehicle and its tag, asked again after VEHICLE_FRESH_MS (the
 * tag's state moves); kept offline; live (issue 33).
 */
export const vehicleDetailQuery = (plate: string) =>
  liveRead(
    ['tags'],
    queryOptions({
      ...keptOffline,
      queryKey: tagKeys.vehicleDetail(plate),
      queryFn: ({ signal }) => request(api.vehicleDetail, { params: { licensePlate: plate }, signal }),
      staleTime: VEHICLE_FRESH_MS,
    }),
  );

/** GET /api/tag/listar?page=N: 10 tags a page. */
const tagsPageQuery = (page: number) =>
  listQueryOptions(['tags'], tagKeys.list(page), ({ signal }) => request(api.tags, { query: { page }, signal }));

export function useOperators() {
  return useQuery(operatorsQuery);
}

export function useVehicleModels() {
  return useQuery(vehicleModelsQuery);
}

/** One page of the tag list; a failure is logged and the table shows empty (spec §8), said at once (issue 25). */
export function useTagsPage(page: number) {
  const options = tagsPageQuery(page);
  const tags = useLoggedQuery(options, 'Falha ao carregar as tags');
  return { tags, failure: useReadFailure(tags, options.queryKey) };
}
