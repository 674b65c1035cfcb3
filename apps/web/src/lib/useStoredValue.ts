import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/**
 * A value kept on the phone (localStorage), read while rendering. A page prerendered at build time
 * knows nothing of the phone: its hydration sees `prerendered` (what the build drew), then the
 * stored value in the next render, so hydration never finds a mismatch. `read` must return a
 * stable value (a string, a boolean), not a new object each call.
 */
export function useStoredValue<T>(read: () => T, prerendered: T): T {
  return useSyncExternalStore(noSubscription, read, () => prerendered);
}
