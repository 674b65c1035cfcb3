import { api } from '@portal/contract';
import { request } from '../../../lib/api';
import { listQueryOptions, useLoggedQuery, useReadFailure } from '../../../lib/listQuery';
import { tagKeys } from '../../../lib/tags';

/**
 * Decision 77: a Motorista's dashboard lists their vehicles: the first page of GET
 * /api/veiculo/listar (the server gives a Motorista only the vehicles assigned to them), the same
 * cache entry as the Veículos screen's first page.
 */
const firstVehiclesQuery = listQueryOptions(['tags'], tagKeys.vehicleList(1), ({ signal }) =>
  request(api.vehicles, { query: { page: 1 }, signal }),
);

export function useFirstVehicles() {
  const vehicles = useLoggedQuery(firstVehiclesQuery, 'Falha ao carregar os veículos do painel');
  return { vehicles, failure: useReadFailure(vehicles, firstVehiclesQuery.queryKey) };
}
