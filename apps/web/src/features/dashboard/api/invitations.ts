import { api } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { actingAccountsQueryKey } from '../../../lib/actingAccount';
import { request } from '../../../lib/api';

/** Decision 77, GET /api/convites: the companies' invitations waiting for the person's answer (theirs, whichever account is in use). */
const invitationsQueryKey = ['pessoa', 'convites'] as const;

const invitationsQuery = queryOptions({
  queryKey: invitationsQueryKey,
  queryFn: ({ signal }) => request(api.invitations, { signal }),
  staleTime: 0,
});

/** Asked on the person's own account only (`enabled`); a failure says nothing (as the notices). */
export const useInvitations = (enabled: boolean) => useQuery({ ...invitationsQuery, enabled });

/**
 * 'Aceitar' or 'Recusar' (idempotent: a retry sends the same key). Whatever the answer, the
 * invitations and the person's accounts are read again: an accepted company appears in the switch.
 */
export function useAnswerInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, accept }: { id: number; accept: boolean }) =>
      request(accept ? api.acceptInvitation : api.declineInvitation, { params: { id } }),
    onSettled: () =>
      Promise.all([invitationsQueryKey, actingAccountsQueryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
