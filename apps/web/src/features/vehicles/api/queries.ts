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
