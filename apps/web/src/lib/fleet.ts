/**
 * Decision 77: the company's reads that more than one feature shows. Its cost centres and its
 * members are the Gestor's screens' (features/fleet) and the statement's filter's too (decision 79:
 * by cost centre or by Motorista): one cache entry each, which a change made in the fleet's screens
 * asks again (every key starts with the root).
 */
import { api, type Endpoint, type ResponseOf } from '@portal/contract';
import { queryOptions, type QueryKey } from '@tanstack/react-query';
import { request } from './api';
import { keptOffline } from './persist';

/** The company's own reads: they belong to the account in use (choosing another forgets them, lib/actingAccount.ts). */
export const fleetQueryRoot = ['empresa'] as const;

/** A whole read of the company's (no page): kept on the phone, asked again on every visit. */
export const wholeCompanyRead = <E extends Endpoint, K extends QueryKey>(endpoint: E, queryKey: K) =>
  queryOptions({
    ...keptOffline,
    queryKey,
    queryFn: ({ signal }): Promise<ResponseOf<E>> => request(endpoint, { signal }),
    staleTime: 0,
  });

/** GET /api/empresa/membros: members and invitations (Gestor). */
export const membersQuery = wholeCompanyRead(api.members, [...fleetQueryRoot, 'membros'] as const);

/** GET /api/empresa/centros-de-custo: the company's cost centres (name, code, how many vehicles) (Gestor and Financeiro). */
export const costCentresQuery = wholeCompanyRead(api.costCentres, [...fleetQueryRoot, 'centros-de-custo'] as const);
