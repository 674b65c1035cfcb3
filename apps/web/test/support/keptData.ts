import { cleanup } from '@testing-library/react';
import { del, get } from 'idb-keyval';
import { OFFLINE_STORE_KEY, PERSIST_THROTTLE_MS } from '../../src/lib/persist';
import { queryClient } from '../../src/lib/queryClient';

/** Rounds of waiting before a copy that keeps coming back is called a leak, not a slow write. */
const MAX_ROUNDS = 20;

/**
 * After each test: the screen, the reads in memory and the copy kept on the phone, forgotten so
 * that no read of this test answers for the next one. The screen goes first: mounted, it refetches
 * and saves again. A write already gathering behind the persister's throttle still lands, later
 * than the throttle on a loaded machine (seen: the previous test's positive balance restored where
 * the next one's was negative). So the copy is deleted until a whole throttle window passes with
 * none written.
 */
export async function forgetKeptData(): Promise<void> {
  cleanup();
  queryClient.clear();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    await del(OFFLINE_STORE_KEY);
    await new Promise((resolve) => setTimeout(resolve, PERSIST_THROTTLE_MS + 100));
    if ((await get(OFFLINE_STORE_KEY)) === undefined) return;
  }
  throw new Error(`The data kept offline was still being written after ${MAX_ROUNDS} throttle windows`);
}
