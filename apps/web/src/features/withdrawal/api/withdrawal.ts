import { api, type WithdrawalRequest } from '@portal/contract';
import { messages } from '@portal/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { balanceQueryKey } from '../../../lib/balance';
import { getUser } from '../../../lib/storage';

const withdrawalKeys = {
  all: ['saque'] as const,
  eligibility: () => [...withdrawalKeys.all, 'elegibilidade'] as const,
};

/** GET /api/motorista/verificar-saque, asked again on every visit. */
export const eligibilityQuery = queryOptions({
  queryKey: withdrawalKeys.eligibility(),
  queryFn: ({ signal }) => request(api.withdrawalEligibility, { signal }),
  staleTime: 0,
});

type WithdrawalOrder = Pick<WithdrawalRequest, 'amount' | 'pix'>;

/**
 * POST /api/motorista/sacar to the driver's own document. SPEC 2: after any response the balance
 * is reloaded (and the eligibility asked again).
 */
export function useWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (order: WithdrawalOrder) =>
      request(api.withdraw, {
        body: { ...order, description: messages.withdrawal.defaultDescription, receiver_document: getUser()?.cpfCnpj ?? '' },
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: balanceQueryKey }),
        queryClient.invalidateQueries({ queryKey: withdrawalKeys.eligibility() }),
      ]),
  });
}
