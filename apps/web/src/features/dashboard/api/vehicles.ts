import { useLoggedQuery, useReadFailure } from '../../../lib/listQuery';
import { vehiclesPageQuery } from '../../../lib/vehicles';

/**
 * Decision 77: a Motorista's dashboard lists their vehicles: the first page of GET
 * /api/veiculo/listar (the server gives a Motorista only the vehicles assigned to them), the same
 * cache entry as the Veículos screen's first page.
 */
const firstVehiclesQuery = vehiclesPageQuery(1);

export function useFirstVehicles() {
  const vehicles = useLoggedQuery(firstVehiclesQuery, 'Falha ao carregar os veículos do painel');
  return { vehicles, failure: useReadFailure(vehicles, firstVehiclesQuery.queryKey) };
}
