import { api, type PayoutLimitsRequest, type SavePixKeyRequest } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { attentionQueryKey } from '../../../lib/attention';
import { payoutKeys, payoutLimitsQuery, pixKeysQuery } from '../../../lib/payouts';

export const usePixKeys = () => useQuery(pixKeysQuery);
export const usePayoutLimits = () => useQuery(payoutLimitsQuery);

/**
 * A change of keys or limits is also a notice of the dashboard (a key saved), and the withdrawal
 * screen reads the same entries: both are asked again.
 */
function useRefreshAfter() {
  const queryClient = useQueryClient();
  return (...keys: (readonly string[])[]) =>
    Promise.all([...keys, attentionQueryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** POST /api/motorista/chaves-pix with the password (decision 44: a new key is capped in its first 24 hours). */
export function useSavePixKey() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (key: SavePixKeyRequest) => request(api.savePixKey, { body: key }),
    onSuccess: () => refresh(payoutKeys.pixKeys),
  });
}

/** DELETE /api/motorista/chaves-pix/:id: a withdrawal to that key asks for the password again. */
export function useRemovePixKey() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (id: number) => request(api.removePixKey, { params: { id } }),
    onSettled: () => refresh(payoutKeys.pixKeys),
  });
}

/** POST /api/motorista/limites-saque: the answer is the limits as they now stand (a raise waiting 24 hours). */
export function useUpdatePayoutLimits() {
  const queryClient = useQueryClient();
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (limits: PayoutLimitsRequest) => request(api.updatePayoutLimits, { body: limits }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(payoutLimitsQuery.queryKey, answer);
      await refresh();
    },
  });
}
