/**
 * What features/tags and features/vehicles share: the query keys of the driver's tags and vehicles
 * (a tag hangs from a vehicle, so a change to one refreshes both) and how their writes end
 * (a failed one's toast is components/ui/toastFailure.ts).
 */
import type { ActionResponse } from '@portal/contract';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';
import { answerFailure } from './errors';

export const tagKeys = {
  /** Everything a tag or vehicle write can change: the lists of both and each vehicle's detail. */
  all: ['tags-e-veiculos'] as const,
  list: (page: number) => [...tagKeys.all, 'tags', page] as const,
  vehicleList: (page: number) => [...tagKeys.all, 'veiculos', page] as const,
  vehicleDetail: (plate: string) => [...tagKeys.all, 'veiculo', plate] as const,
  /** The catalogues (operators, vehicle models): outside `all`, no write changes them. */
  operators: ['catalogo', 'operadoras'] as const,
  vehicleModels: ['catalogo', 'modelos'] as const,
};

/** After any tag or vehicle write. */
export function invalidateTagData(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: tagKeys.all });
}

/** spec §8: an unsuccessful 200 answer fails the write with its text (answerFailure). */
export function succeeded<T extends ActionResponse>(answer: T): T {
  const failure = answerFailure(answer);
  if (failure !== null) throw new ApiError(200, failure, {}, { Sucesso: false, Mensagem: failure });
  return answer;
}
