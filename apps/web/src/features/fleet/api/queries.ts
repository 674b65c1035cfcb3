import { api, type AuditFilters } from '@portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { useLoggedQuery, useReadFailure } from '../../../lib/listQuery';
import { keptOffline } from '../../../lib/persist';

/**
 * Decision 77: the company's own reads, for its Gestores. Every one starts with the root: a change of
 * a member or of a vehicle's Motoristas asks them all again (the plates of a member, the trail). They
 * belong to the account in use: choosing another forgets them (lib/actingAccount.ts).
 */
export const fleetQueryRoot = ['empresa'] as const;

const fleetKeys = {
  members: [...fleetQueryRoot, 'membros'] as const,
  vehicles: (page: number) => [...fleetQueryRoot, 'veiculos', page] as const,
  audit: (filters: AuditFilters) => [...fleetQueryRoot, 'auditoria', filters] as const,
};

/** GET /api/empresa/membros: members and invitations, kept on the phone, asked again on every visit. */
const membersQuery = queryOptions({
  ...keptOffline,
  queryKey: fleetKeys.members,
  queryFn: ({ signal }) => request(api.members, { signal }),
  staleTime: 0,
});

/** A paged list of the company's: the page shown stays while the next loads; asked again on every visit. */
const pagedOptions = { ...keptOffline, placeholderData: keepPreviousData, staleTime: 0 } as const;

/** GET /api/empresa/veiculos?page=N: 20 vehicles a page, each with the member ids of its Motoristas. */
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

/** The members; a failure is logged and said at once with 'Tentar novamente' (issue 25), as the other lists. */
export function useMembers() {
  const members = useLoggedQuery(membersQuery, 'Falha ao carregar os membros da empresa');
  return { members, failure: useReadFailure(members, membersQuery.queryKey) };
}

export function useFleetVehicles(page: number) {
  const options = fleetVehiclesQuery(page);
  const vehicles = useLoggedQuery(options, 'Falha ao carregar os veículos da empresa');
  return { vehicles, failure: useReadFailure(vehicles, options.queryKey) };
}

export function useAuditEvents(filters: AuditFilters) {
  const options = auditQuery(filters);
  const events = useLoggedQuery(options, 'Falha ao carregar o registro de ações');
  return { events, failure: useReadFailure(events, options.queryKey) };
}
