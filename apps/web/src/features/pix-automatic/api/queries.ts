import { api, type PixAutomaticRequest, type PixAutomaticResponse } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { attentionQueryKey } from '../../../lib/attention';
import { balanceQueryKey } from '../../../lib/balance';
import { livePollMs, liveRead } from '../../../lib/liveUpdates';
import { keptOffline } from '../../../lib/persist';

const pixAutomaticQueryKey = ['motorista', 'pix-automatico'] as const;

/** How often an authorization waiting for its first Pix is asked about (the bank's webhook activates it). */
const WAITING_POLL_MS = 3000;

/**
 * GET /api/motorista/pix-automatico (decision 58): kept on the phone; asked every 3 s while the QR
 * Code waits to be paid, so the screen turns to 'Ativa' by itself; live otherwise (issue 33): the
 * bank's cancel, a cycle paid or refused show without a reload.
 */
const pixAutomaticQuery = liveRead(
  ['automatic'],
  queryOptions({
    ...keptOffline,
    queryKey: pixAutomaticQueryKey,
    queryFn: ({ signal }) => request(api.pixAutomatic, { signal }),
    staleTime: 0,
  }),
);

/** Every 3 s while the QR Code waits, else as any live read. */
const automaticPoll = (query: { readonly state: { status: string; error: Error | null; data?: PixAutomaticResponse } }) => {
  const live = livePollMs(query);
  return live !== false && query.state.data?.RecargaAutomatica?.estado === 'AGUARDANDO' ? WAITING_POLL_MS : live;
};

export const usePixAutomatic = () => useQuery({ ...pixAutomaticQuery, refetchInterval: automaticPoll });

/**
 * The calls that change it answer the whole state: kept as the read's answer. The balance and the
 * dashboard's notices are asked again (a first Pix credits; a cancel ends a notice's reason).
 */
function useAutomaticChange<V>(call: (variables: V) => Promise<PixAutomaticResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (answer) => {
      queryClient.setQueryData(pixAutomaticQueryKey, answer);
      await Promise.all([balanceQueryKey, attentionQueryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}

/** POST /api/motorista/pix-automatico: idempotent (the intent's Idempotency-Key, sent again when no answer came). */
export const useCreateAutomatic = () => useAutomaticChange((body: PixAutomaticRequest) => request(api.createPixAutomatic, { body }));

export const useChangeAutomaticValue = () =>
  useAutomaticChange(({ id, valor }: { id: string; valor: number }) =>
    request(api.changePixAutomaticValue, { params: { id }, body: { valor } }),
  );

export const useCancelAutomatic = () => useAutomaticChange((id: string) => request(api.cancelPixAutomatic, { params: { id } }));
