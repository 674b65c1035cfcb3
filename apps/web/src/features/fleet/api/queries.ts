import { api, type AuditFilters } from '@portal/contract';
import { keepPreviousData, queryOptions, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { costCentresQuery, fleetQueryRoot, membersQuery, wholeCompanyRead } from '../../../lib/fleet';
import { useLoggedQuery, useReadFailure } from '../../../lib/listQuery';
import { keptOffline } from '../../../lib/persist';

/**
 * Decision 77: the company's own reads, for its Gestores. Every one starts with the root
 * (lib/fleet.ts, with the members' and the cost centres' reads the statement's filter shares): a
 * change of a member or of a vehicle's Motoristas asks them all again (the plates of a member, the
 * trail). They belong to the account in use: choosing another forgets them (lib/actingAccount.ts).
 */
const fleetKeys = {
  vehicles: (page: number) => [...fleetQueryRoot, 'veiculos', page] as const,
  audit: (filters: AuditFilters) => [...fleetQueryRoot, 'auditoria', filters] as const,
  withdrawalApprovals: [...fleetQueryRoot, 'aprovacao-saques'] as const,
};

/** GET /api/empresa/aprovacao-saques: the dual control's threshold (and a change waiting) and the withdrawals that asked for it. */
const withdrawalApprovalsQuery = wholeCompanyRead(api.withdrawalApprovals, fleetKeys.withdrawalApprovals);

/** A paged list of the company's: the page shown stays while the next loads; asked again on every visit. */
const pagedOptions = { ...keptOffline, placeholderData: keepPreviousData, staleTime: 0 } as const;

/** GET /api/empresa/veiculos?page=N: 20 vehicles a page, each with the member ids of its Motoristas and its cost centre. */
const fleetVehiclesQuery = (page: number) =>
  queryOptions({
    ...pagedOptions,
    queryKey: fleetKeys.vehicles(page),
    queryFn: ({ signal }) => request(api.fleetVehicles, { query: { page }, signal }),
  });

/** GET /api/empresa/auditoria?page&membro&resultado&desde&ate: 20 records a page, newest first. */
const auditQuery = (filters: AuditFilters) =>
  queryOptions({
    ...pagedOptions,
    queryKey: fleetKeys.audit(filters),
    queryFn: ({ signal }) => request(api.auditEvents, { query: auditParams(filters), signal }),
  });

/** The filters as the address and the export send them (the ones not chosen left out). */
export function auditParams(filters: AuditFilters): Record<string, string | number | undefined> {
  const { page, membro, resultado, desde, ate } = filters;
  return { page, membro, resultado, desde, ate };
}

/** A read whose failure is logged and said at once with 'Tentar novamente' (issue 25), as the other lists. */
function useRead<TData, TKey extends QueryKey>(options: UseQueryOptions<TData, Error, TData, TKey> & { queryKey: TKey }, log: string) {
  const query = useLoggedQuery(options, log);
  return [query, useReadFailure(query, options.queryKey)] as const;
}

export function useMembers() {
  const [members, failure] = useRead(membersQuery, 'Falha ao carregar os membros da empresa');
  return { members, failure };
}

export function useFleetVehicles(page: number) {
  const [vehicles, failure] = useRead(fleetVehiclesQuery(page), 'Falha ao carregar os veículos da empresa');
  return { vehicles, failure };
}

export function useAuditEvents(filters: AuditFilters) {
  const [events, failure] = useRead(auditQuery(filters), 'Falha ao carregar o registro de ações');
  return { events, failure };
}

export function useCostCentres() {
  const [centres, failure] = useRead(costCentresQuery, 'Falha ao carregar os centros de custo');
  return { centres, failure };
}

export function useWithdrawalApprovals() {
  const [approvals, failure] = useRead(withdrawalApprovalsQuery, 'Falha ao carregar a dupla aprovação');
  return { approvals, failure };
}
