import { api, type VehicleBudgetRequest } from '@portal/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { fleetQueryRoot } from '../../../lib/fleet';
import { useLoggedQuery, useReadFailure } from '../../../lib/listQuery';
import { keptOffline } from '../../../lib/persist';

/** Decision 78: the company's reads start with the fleet's root, so choosing another account forgets them. */
const budgetsKey = (page: number) => [...fleetQueryRoot, 'orcamentos', page] as const;

/** GET /api/empresa/orcamentos?page=N: each vehicle's budget and what the month spent; the page shown stays while the next loads. */
const budgetsQuery = (page: number) =>
  queryOptions({
    ...keptOffline,
    placeholderData: keepPreviousData,
    staleTime: 0,
    queryKey: budgetsKey(page),
    queryFn: ({ signal }) => request(api.vehicleBudgets, { query: { page }, signal }),
  });

export function useVehicleBudgets(page: number) {
  const options = budgetsQuery(page);
  const budgets = useLoggedQuery(options, 'Falha ao carregar os orçamentos dos veículos');
  return { budgets, failure: useReadFailure(budgets, options.queryKey) };
}

/** POST /api/empresa/veiculos/:id/orcamento (idempotent): the budget, or none (valor null). The list is read again. */
export function useSetVehicleBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: VehicleBudgetRequest & { id: number }) => request(api.setVehicleBudget, { params: { id }, body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...fleetQueryRoot, 'orcamentos'] }),
  });
}
