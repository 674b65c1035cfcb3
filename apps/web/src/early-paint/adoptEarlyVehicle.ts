import { api } from '@portal/contract';
import { queryClient } from '../lib/queryClient';
import { tagKeys } from '../lib/tags';
import { takeEarlyAnswer } from './earlyAnswer';
import { VEHICLE_ANSWER_ATTRIBUTE } from './vehicleMarkup';

/**
 * The vehicle that the prerendered tag detail page's first script (scripts/boot.ts) fetched and
 * painted before the app arrived: into the cache, as if the app had read it then, so that hydration
 * draws the same cards and, the answer being seconds old, does not ask for it again (issue 25: the
 * vehicle was read twice on every load; the key is features/tags' vehicleDetailQuery's, from
 * lib/tags, and its staleTime keeps the answer). Nothing when it did not paint.
 */
export function adoptEarlyVehicle(): void {
  const answer = takeEarlyAnswer(VEHICLE_ANSWER_ATTRIBUTE);
  if (!answer?.plate) return;
  const vehicle = api.vehicleDetail.response.safeParse(answer.data);
  if (vehicle.success) queryClient.setQueryData(tagKeys.vehicleDetail(answer.plate), vehicle.data, { updatedAt: answer.at });
  else console.error('Veículo antecipado ilegível', vehicle.error);
}
