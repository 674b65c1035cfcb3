import { api } from '@portal/contract';
import { ANSWER_ATTRIBUTE } from '../boot/earlyBalanceMarkup';
import { balanceQueryKey } from './balance';
import { queryClient } from './queryClient';

/**
 * The balance that the prerendered dashboard's first script (boot/boot.ts) fetched and painted
 * before the app arrived: into the cache, as if the app had fetched it then, so that hydration
 * draws the same figures and nothing asks again. Once only; nothing when it did not paint.
 */
export function adoptEarlyBalance(): void {
  const root = document.documentElement;
  const raw = root.getAttribute(ANSWER_ATTRIBUTE);
  if (raw === null) return;
  root.removeAttribute(ANSWER_ATTRIBUTE);
  try {
    const { data, at } = JSON.parse(raw) as { data: unknown; at: number };
    queryClient.setQueryData(balanceQueryKey, api.balance.response.parse(data), { updatedAt: at });
  } catch (error) {
    console.error('Saldo antecipado ilegível', error);
  }
}
