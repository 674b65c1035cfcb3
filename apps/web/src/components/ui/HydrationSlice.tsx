import { Suspense, type ReactNode } from 'react';

/**
 * A part of a prerendered screen that React hydrates in a pass of its own. Hydration of the page's
 * shell is one task; each Suspense boundary in the prerendered markup is hydrated after it, yielding
 * to the browser in between, so a long screen of several sections no longer blocks the phone for
 * their sum (/configuracoes: bench/README.md#lighthouse). Nothing ever suspends here: the fallback is
 * never drawn.
 */
export function HydrationSlice({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
