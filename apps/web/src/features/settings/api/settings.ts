import { api, type DriverSettings } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { attentionQueryKey } from '../../../lib/attention';
import { keptOffline } from '../../../lib/persist';

const settingsKeys = {
  all: ['motorista', 'preferencias'] as const,
};

/** GET /api/motorista/preferencias (R$ 50,00 until the driver chooses), kept for offline use. */
const settingsQuery = queryOptions({
  ...keptOffline,
  queryKey: settingsKeys.all,
  queryFn: ({ signal }) => request(api.settings, { signal }),
});

export const useSettings = () => useQuery(settingsQuery);

/**
 * POST /api/motorista/preferencias. The answer is the saved settings; the dashboard's notices are
 * asked again, since a new alert level may add or remove 'saldo baixo'.
 */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: DriverSettings) => request(api.updateSettings, { body: settings }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(settingsKeys.all, answer);
      await queryClient.invalidateQueries({ queryKey: attentionQueryKey });
    },
  });
}
