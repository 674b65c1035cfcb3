import { api } from '@portal/contract';
import { request } from '../../../lib/api';
import { listQueryOptions, useLoggedQuery, useReadFailure } from '../../../lib/listQuery';
import { vehiclesPageQuery } from '../../../lib/vehicles';

/** One page of the vehicle list (lib/vehicles.ts); a failure is logged and the table shows empty (spec §8), said at once (issue 25). */
export function useVehiclesPage(page: number) {
  const options = vehiclesPageQuery(page);
  const vehicles = useLoggedQuery(options, 'Falha ao carregar os veículos');
  return { vehicles, failure: useReadFailure(vehicles, options.queryKey) };
}

/**
 * Decision 77: GET /api/veiculo/passagens?page=N: the passages of the account's vehicles (a
 * Motorista's, of the vehicles assigned to them), newest first, 20 a page; live: a passage debited
 * (the statement's topic) or a contest answered.
 */
const passagesPageQuery = (page: number) =>
  listQueryOptions(['statement', 'contests'], ['veiculos', 'passagens', page] as const, ({ signal }) =>
    request(api.vehiclePassages, { query: { page }, signal }),
  );

export function useVehiclePassages(page: number) {
  const options = passagesPageQuery(page);
  const passages = useLoggedQuery(options, 'Falha ao carregar as passagens dos veículos');
  return { passages, failure: useReadFailure(passages, options.queryKey) };
}
