/**
 * The last data a driver saw, kept on the phone (founding architecture §22): the balance, the statement
 * pages, tags, vehicles, VPOs and the catalogues behind them, in IndexedDB, so that with no
 * connection the screens show them with their date (offline.ts). It belongs to one driver: the
 * buster is the driver's id, so another driver's shell never restores it, and wipeOfflineData
 * forgets it on 'Sair', on a 401 and at every sign-in.
 */
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { Query } from '@tanstack/react-query';
import type { PersistQueryClientOptions } from '@tanstack/query-persist-client-core';
import { del, get, set } from 'idb-keyval';
import { queryClient } from './queryClient';

/** The IndexedDB entry (idb-keyval's default database 'keyval-store'). */
export const OFFLINE_STORE_KEY = 'portal-do-motorista:dados-offline';

/**
 * Bumped when the shape of what is kept changes: older copies are then dropped, not read.
 * 2: a VPO carries its trip and money, a statement entry its VPO (decision 52).
 * 3: a statement entry and a VPO's passage carry their passage's contest (decision 56).
 * 4: a statement entry carries its account and that account's balance after it, a statement page
 *    the period's totals per account, a contest where its refund went (issue 33).
 * 5: a statement entry carries its vehicle and cost centre (decision 79).
 * 6: a statement page's totals say which line is the other VPOs' (decision 83).
 */
const CACHE_VERSION = 6;

/** How long the last data stays usable offline (a long trip), and in memory meanwhile. */
const OFFLINE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** queryOptions of a read kept on the phone: spread into the read's options. */
export const keptOffline = { meta: { offline: true }, gcTime: OFFLINE_MAX_AGE_MS } as const;

function shouldKeep(query: Query): boolean {
  return query.meta?.offline === true && query.state.status === 'success';
}

/** No IndexedDB (private mode in old browsers, tests): nothing is kept, nothing fails. */
const hasIndexedDb = () => typeof indexedDB !== 'undefined';

/** How long the cache's writes to the phone are gathered before one is made. */
export const PERSIST_THROTTLE_MS = 500;

const persister = createAsyncStoragePersister({
  storage: {
    getItem: async (key) => (hasIndexedDb() ? ((await get<string>(key)) ?? null) : null),
    setItem: async (key, value: string) => {
      if (hasIndexedDb()) await set(key, value);
    },
    removeItem: async (key) => {
      if (hasIndexedDb()) await del(key);
    },
  },
  key: OFFLINE_STORE_KEY,
  throttleTime: PERSIST_THROTTLE_MS,
});

/** OfflineDataProvider's options for the signed-in driver. */
export function persistOptions(driverId: number | undefined): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister,
    buster: `v${CACHE_VERSION}:motorista:${driverId ?? 'desconhecido'}`,
    maxAge: OFFLINE_MAX_AGE_MS,
    dehydrateOptions: { shouldDehydrateQuery: shouldKeep, shouldDehydrateMutation: () => false },
  };
}

/** Forgets every read, in memory and on the phone. Never throws (a blocked IndexedDB is logged). */
export async function wipeOfflineData(): Promise<void> {
  queryClient.clear();
  try {
    await persister.removeClient();
  } catch (error) {
    console.error('Falha ao apagar os dados offline', error);
  }
}
