import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/**
 * A value kept on the phone (localStorage), read while rendering. A page prerendered at build time
 * knows nothing of the phone: its hydration sees `prerendered` (what the build drew), then the
 * stored value in the next render, so hydration never finds a mismatch. `read` must return a
 * stable value (a string, a boolean), not a new object each call; `subscribe`, when the value can
 * change while the screen is open.
 */
export function useStoredValue<T>(read: () => T, prerendered: T, subscribe: (onChange: () => void) => () => void = noSubscription): T {
  return useSyncExternalStore(subscribe, read, () => prerendered);
}

/**
 * false while a prerendered page hydrates, true from the next render on (at once on a screen the app
 * draws itself): for what the page's first script did not paint and must not move anything when it
 * appears (issue 25: the mark of a negative balance beside the figure the script painted).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, isLive, notYet);
}

const isLive = () => true;
const notYet = () => false;
