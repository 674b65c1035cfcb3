/**
 * Whether the driver still has to accept the terms of use, as every signed-in screen watches it
 * (issue 25: the terms are read and accepted where the driver is stopped, not 1,000 px down the
 * dashboard or on another page). The flag itself is storage.ts's `aceite_termo`.
 */
import { useSyncExternalStore } from 'react';
import { getTermsFlag, setTermsFlag } from './storage';

const listeners = new Set<() => void>();
/** How many times the server refused something for the terms since the app started. */
let refusals = 0;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function changed(): void {
  for (const listener of listeners) listener();
}

/**
 * The server refused a call for terms not accepted (founding decision 27: a 403 with its code, or
 * the withdrawal's eligibility): whatever this phone believed, the terms wait, and the screen the
 * driver is on shows them.
 */
export function markTermsRefused(): void {
  setTermsFlag('inexistente');
  refusals += 1;
  changed();
}

/** The driver accepted the current terms. */
export function markTermsAccepted(): void {
  setTermsFlag('aceito');
  changed();
}

const pending = () => getTermsFlag() !== 'aceito';
const refusalCount = () => refusals;
/** A page prerendered at build time knows no driver: no terms drawn (they appear once hydrated). */
const nothingAtBuild = () => false;
const noRefusalAtBuild = () => 0;

/** True while the terms wait for the driver's acceptance on this phone. */
export function useTermsPending(): boolean {
  return useSyncExternalStore(subscribe, pending, nothingAtBuild);
}

/** Grows with each refusal for the terms: the terms bar brings itself into view. */
export function useTermsRefusals(): number {
  return useSyncExternalStore(subscribe, refusalCount, noRefusalAtBuild);
}
