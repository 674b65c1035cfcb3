import { api } from '@portal/contract';
import { request } from '../../../lib/api';
import { listQueryOptions, useLoggedQuery, useReadFailure } from '../../../lib/listQuery';
import { tagKeys } from '../../../lib/tags';

/** GET /api/veiculo/listar?page=N (founding decision 7): 10 vehicles a page with their tag's status. */
const vehiclesPageQuery = (page: number) =>
  listQueryOptions(['tags'], tagKeys.vehicleList(page), ({ signal }) => request(api.vehicles, { query: { page }, signal }));

/** One page of the vehicle list; a failure is logged and the table shows empty (spec §8), said at once (issue 25). */
export function useVehiclesPage(page: number) {
  const options = vehiclesPageQuery(page);
  const vehicles = useLoggedQuery(options, 'Falha ao carregar os veículos');
  return { vehicles, failure: useReadFailure(vehicles, options.queryKey) };
}
