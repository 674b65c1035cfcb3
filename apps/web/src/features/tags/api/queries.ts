import { api } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { listQueryOptions, useLoggedQuery } from '../../../lib/listQuery';
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

/** GET /api/veiculo/detail/{plate}: the vehicle and its tag, always asked again (the tag's state moves); kept offline. */
export const vehicleDetailQuery = (plate: string) =>
  queryOptions({
    ...keptOffline,
    queryKey: tagKeys.vehicleDetail(plate),
    queryFn: ({ signal }) => request(api.vehicleDetail, { params: { licensePlate: plate }, signal }),
    staleTime: 0,
  });

/** GET /api/tag/listar?page=N: 10 tags a page. */
const tagsPageQuery = (page: number) =>
  listQueryOptions(tagKeys.list(page), ({ signal }) => request(api.tags, { query: { page }, signal }));

export function useOperators() {
  return useQuery(operatorsQuery);
}

export function useVehicleModels() {
  return useQuery(vehicleModelsQuery);
}

/** One page of the tag list; a failure is only logged and the table shows empty (spec §8). */
export const useTagsPage = (page: number) => useLoggedQuery(tagsPageQuery(page), 'Falha ao carregar as tags');
