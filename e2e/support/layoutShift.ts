import type { Page } from '@playwright/test';

/**
 * The page's layout shift since it was opened (the entries the browser buffered, those after input
 * left out), read once `settled` in the page: two frames, or `ms` milliseconds for what may still
 * come.
 */
export function layoutShiftSoFar(page: Page, settled: { ms: number } | 'two frames' = 'two frames'): Promise<number> {
  return page.evaluate(
    (wait) =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
            if (!entry.hadRecentInput) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        if (wait === 'two frames') requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
        else setTimeout(() => resolve(total), wait.ms);
      }),
    settled,
  );
}
