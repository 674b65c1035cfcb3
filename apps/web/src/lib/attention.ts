import { api } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { request } from './api';
import { liveRead } from './liveUpdates';
import { keptOffline } from './persist';

/**
 * GET /api/motorista/avisos (issue 12): what the dashboard asks the driver to look at and the last
 * three movements. Here, not in a feature, because saving the settings refreshes it too.
 */
export const attentionQueryKey = ['motorista', 'avisos'] as const;

/**
 * Asked again on every visit of the dashboard (a paid fee or a settled Pix shows at once), kept for
 * offline use; live (issue 33): every push names the notices, so any event asks again.
 */
export const attentionQuery = liveRead(
  ['notices'],
  queryOptions({
    ...keptOffline,
    queryKey: attentionQueryKey,
    queryFn: ({ signal }) => request(api.attention, { signal }),
    staleTime: 0,
  }),
);
