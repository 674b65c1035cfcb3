import { api, type ProfileUpdateRequest } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { attentionQueryKey } from '../../../lib/attention';
import { liveRead } from '../../../lib/liveUpdates';
import { keptOffline } from '../../../lib/persist';
import { getUser, setUser } from '../../../lib/storage';

const profileKeys = {
  all: ['motorista', 'dados'] as const,
};

/**
 * GET /api/motorista/dados: the name, CPF/CNPJ and phone, kept for offline use; read again when
 * another device corrects them, and at every opening (staleTime 0): a copy restored from the phone
 * may predate a correction saved just before a reload (the cache is written to the phone 500 ms late).
 */
const profileQuery = liveRead(
  ['profile'],
  queryOptions({
    ...keptOffline,
    queryKey: profileKeys.all,
    queryFn: ({ signal }) => request(api.profile, { signal }),
    staleTime: 0,
  }),
);

export const useProfile = () => useQuery(profileQuery);

/**
 * POST /api/motorista/dados. The answer is the data as kept; the header greets by the new name, and
 * the dashboard's notices are asked again (the correction is one of them).
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (correction: ProfileUpdateRequest) => request(api.updateProfile, { body: correction }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(profileKeys.all, answer);
      const user = getUser();
      if (user) setUser({ ...user, name: answer.Dados.nome });
      await queryClient.invalidateQueries({ queryKey: attentionQueryKey });
    },
  });
}
