import { api } from '@portal/contract';
import { balanceQueryKey } from '../lib/balance';
import { queryClient } from '../lib/queryClient';
import { takeEarlyAnswer } from './earlyAnswer';
import { ANSWER_ATTRIBUTE } from './balanceMarkup';

/**
 * The balance that the prerendered dashboard's first script (scripts/boot.ts) fetched and painted
 * before the app arrived: into the cache, as if the app had fetched it then, so that hydration
 * draws the same figures and nothing asks again. Once only; nothing when it did not paint.
 */
export function adoptEarlyBalance(): void {
  const answer = takeEarlyAnswer(ANSWER_ATTRIBUTE);
  if (!answer) return;
  const balance = api.balance.response.safeParse(answer.data);
  if (balance.success) queryClient.setQueryData(balanceQueryKey, balance.data, { updatedAt: answer.at });
  else console.error('Saldo antecipado ilegível', balance.error);
}
