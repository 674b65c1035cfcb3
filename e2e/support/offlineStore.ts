import type { Page } from '@playwright/test';

/** Where the app keeps its reads on the phone (lib/persist.ts, idb-keyval's database). */
const OFFLINE_STORE = { db: 'keyval-store', store: 'keyval', key: 'portal-do-motorista:dados-offline' };

/** The query hashes the app keeps on the phone (IndexedDB), [] when none. */
export function keptQueries(page: Page): Promise<string[]> {
  return page.evaluate(async ({ db, store, key }) => {
    // Never create the database here: the app's library would then find it without its store.
    if (!(await indexedDB.databases()).some((d) => d.name === db)) return [];
    return new Promise<string[]>((resolve, reject) => {
      const open = indexedDB.open(db);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const connection = open.result;
        if (!connection.objectStoreNames.contains(store)) {
          connection.close();
          resolve([]);
          return;
        }
        const read = connection.transaction(store, 'readonly').objectStore(store).get(key);
        read.onerror = () => reject(read.error);
        read.onsuccess = () => {
          connection.close();
          const raw: unknown = read.result;
          if (typeof raw !== 'string') return resolve([]);
          const client = JSON.parse(raw) as { clientState: { queries: { queryHash: string }[] } };
          resolve(client.clientState.queries.map((query) => query.queryHash));
        };
      };
    });
  }, OFFLINE_STORE);
}
