import { api, type SavedPixKey } from '@portal/contract';
import { normalizePixKey, type PixKeyType } from '@portal/domain';
import { queryOptions } from '@tanstack/react-query';
import { request } from './api';
import { liveRead } from './liveUpdates';

/**
 * Decision 44's reads, shared by Configurações (which changes them) and Sacar (which offers the saved
 * keys and says the limits): here, not in a feature, because both screens read the same entries.
 * Asked again on every visit: whether a key asks for the password must not come from an old copy.
 */
export const payoutKeys = {
  pixKeys: ['motorista', 'chaves-pix'] as const,
  limits: ['motorista', 'limites-saque'] as const,
};

/** GET /api/motorista/chaves-pix: the driver's own CPF/CNPJ first, then the keys saved. */
export const pixKeysQuery = liveRead(
  ['pixKeys'],
  queryOptions({
    queryKey: payoutKeys.pixKeys,
    queryFn: ({ signal }) => request(api.pixKeys, { signal }),
    staleTime: 0,
  }),
);

/** GET /api/motorista/limites-saque: per withdrawal, daily and night, with raises still waiting. */
export const payoutLimitsQuery = liveRead(
  ['withdrawals'],
  queryOptions({
    queryKey: payoutKeys.limits,
    queryFn: ({ signal }) => request(api.payoutLimits, { signal }),
    staleTime: 0,
  }),
);

/** The saved key (or the driver's own) that is this typed key, if any. */
export function findSavedKey(keys: readonly SavedPixKey[], type: PixKeyType, typed: string): SavedPixKey | undefined {
  const key = normalizePixKey(type, typed);
  return keys.find((saved) => saved.tipo === type && saved.chave === key);
}
