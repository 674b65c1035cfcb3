import { api, type WithdrawalRequest } from '@portal/contract';
import { messages } from '@portal/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { attentionQueryKey } from '../../../lib/attention';
import { balanceQueryKey } from '../../../lib/balance';
import { payoutKeys, payoutLimitsQuery, pixKeysQuery } from '../../../lib/payouts';
import { liveRead } from '../../../lib/liveUpdates';
import { getUser } from '../../../lib/storage';

const withdrawalKeys = {
  all: ['saque'] as const,
  eligibility: () => [...withdrawalKeys.all, 'elegibilidade'] as const,
};

/** GET /api/motorista/verificar-saque, asked again on every visit; live (issue 33): a Pix in, a withdrawal returned. */
export const eligibilityQuery = liveRead(
  ['balance', 'withdrawals'],
  queryOptions({
    queryKey: withdrawalKeys.eligibility(),
    queryFn: ({ signal }) => request(api.withdrawalEligibility, { signal }),
    staleTime: 0,
  }),
);

/**
 * Decision 44: the keys saved (offered as quick choices; a key not saved asks for the password) and
 * the limits in force, read by the page once a visit and handed to its form (the form reading them
 * too asked for each a second time).
 */
export const useSavedPixKeys = () => useQuery(pixKeysQuery);
export const usePayoutLimits = () => useQuery(payoutLimitsQuery);

type WithdrawalOrder = Pick<WithdrawalRequest, 'amount' | 'pix' | 'senha'>;

/**
 * POST /api/motorista/sacar to the driver's own document. spec §2: after any response the balance
 * is reloaded (and the eligibility asked again); so are the keys (the password saved a new one), the
 * limits' use and the dashboard's notices (a payout, a key saved).
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
        queryClient.invalidateQueries({ queryKey: payoutKeys.pixKeys }),
        queryClient.invalidateQueries({ queryKey: payoutKeys.limits }),
        queryClient.invalidateQueries({ queryKey: attentionQueryKey }),
      ]),
  });
}
