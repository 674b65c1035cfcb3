import type { FastifyBaseLogger } from 'fastify';

/**
 * An in-process schedule (app.ts, from ready to close): `run` after `firstDelayMs` (none: only on
 * the interval), then every `intervalMs`. A tick while a run is still going is skipped, so runs
 * never overlap in one process and the one under way is all the returned stop must wait for
 * (nothing is logged or written after it resolves: the database outlives it).
 */
export function scheduleRuns(
  run: () => Promise<unknown>,
  options: { intervalMs: number; firstDelayMs?: number; log: FastifyBaseLogger; failure: string },
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = run()
      .catch((error: unknown) => options.log.error({ err: error }, options.failure))
      .finally(() => {
        running = null;
      });
  };
  const first = options.firstDelayMs === undefined ? null : setTimeout(tick, options.firstDelayMs);
  const every = setInterval(tick, options.intervalMs);
  first?.unref();
  every.unref();
  return async () => {
    if (first) clearTimeout(first);
    clearInterval(every);
    await running;
  };
}
