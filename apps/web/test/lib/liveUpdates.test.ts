import { focusManager, QueryClient, QueryObserver, queryOptions } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listenForChanges, LIVE_POLL_MS, liveRead } from '../../src/lib/liveUpdates';
import { changedMessage, CHANGED_MESSAGE } from '../../src/pwa/push/changes';
import { ApiError } from '../../src/lib/http';

/**
 * Issue 33: an open screen shows an event without a reload: a push's topics ask again at once the
 * reads that show them (and only those), and every read that shows money or a state an event can
 * change is asked again every LIVE_POLL_MS while the page is on view, never while it is hidden.
 */

/** A client as the app's QueryClientProvider mounts it: listening to the page's visibility. */
function client() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  qc.mount();
  return qc;
}

/** A read of `name` showing `topics`, observed as a screen on view observes it; counts its calls. */
function screenRead(qc: QueryClient, name: string, topics: Parameters<typeof liveRead>[0]) {
  const calls = { count: 0 };
  const options = liveRead(
    topics,
    queryOptions({
      queryKey: ['teste', name],
      queryFn: async () => {
        calls.count += 1;
        return calls.count;
      },
      meta: { offline: true },
    }),
  );
  const observer = new QueryObserver(qc, options);
  const unsubscribe = observer.subscribe(() => undefined);
  return { calls, observer, unsubscribe, options };
}

/** The service worker's side of the page: an EventTarget, as ServiceWorkerContainer is. */
function fakeWorkerContainer() {
  const container = new EventTarget();
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
  return {
    post: (data: unknown) => container.dispatchEvent(new MessageEvent('message', { data })),
    remove: () => Reflect.deleteProperty(navigator, 'serviceWorker'),
  };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  focusManager.setFocused(true);
});
afterEach(() => {
  focusManager.setFocused(undefined);
  vi.useRealTimers();
});

describe('a push’s topics', () => {
  it('ask again at once exactly the reads on view that show them', async () => {
    const qc = client();
    const worker = fakeWorkerContainer();
    const stop = listenForChanges(qc);
    const automatic = screenRead(qc, 'recarga', ['automatic']);
    const balance = screenRead(qc, 'saldo', ['balance']);
    const tags = screenRead(qc, 'tags', ['tags']);
    await flush();
    expect([automatic.calls.count, balance.calls.count, tags.calls.count]).toEqual([1, 1, 1]);

    worker.post(changedMessage(['automatic', 'notices']));
    await flush();
    expect([automatic.calls.count, balance.calls.count, tags.calls.count]).toEqual([2, 1, 1]);

    worker.post(changedMessage(['balance', 'statement', 'automatic', 'notices']));
    await flush();
    expect([automatic.calls.count, balance.calls.count, tags.calls.count]).toEqual([3, 2, 1]);

    // Anything else posted to the page changes nothing; the meta the read had (kept offline) stays.
    for (const other of [
      'portal:notificacoes-renovadas',
      { type: CHANGED_MESSAGE, topics: 'balance' },
      { type: 'x', topics: ['tags'] },
      null,
    ])
      worker.post(other);
    await flush();
    expect([automatic.calls.count, balance.calls.count, tags.calls.count]).toEqual([3, 2, 1]);
    expect(qc.getQueryCache().find({ queryKey: ['teste', 'recarga'] })?.meta).toMatchObject({ offline: true });

    stop();
    worker.post(changedMessage(['tags']));
    await flush();
    expect(tags.calls.count).toBe(1);
    for (const read of [automatic, balance, tags]) read.unsubscribe();
    worker.remove();
  });

  it('while the page is hidden nothing is asked: the read is asked when the page is shown again', async () => {
    const qc = client();
    const worker = fakeWorkerContainer();
    const stop = listenForChanges(qc);
    const automatic = screenRead(qc, 'recarga', ['automatic']);
    await flush();
    focusManager.setFocused(false);
    worker.post(changedMessage(['automatic']));
    await flush();
    expect(automatic.calls.count).toBe(1);
    expect(qc.getQueryState(['teste', 'recarga'])?.isInvalidated).toBe(true);
    focusManager.setFocused(true);
    await flush();
    expect(automatic.calls.count).toBe(2);
    stop();
    automatic.unsubscribe();
    worker.remove();
  });
});

describe('without a push', () => {
  it(`a read on view is asked again every ${String(LIVE_POLL_MS / 1000)} s (under 30 s), never while the page is hidden, and at once when it is shown`, async () => {
    expect(LIVE_POLL_MS).toBeLessThan(30_000);
    const qc = client();
    const balance = screenRead(qc, 'saldo', ['balance']);
    await flush();
    expect(balance.calls.count).toBe(1);
    await vi.advanceTimersByTimeAsync(LIVE_POLL_MS);
    expect(balance.calls.count).toBe(2);
    await vi.advanceTimersByTimeAsync(LIVE_POLL_MS);
    expect(balance.calls.count).toBe(3);

    focusManager.setFocused(false);
    await vi.advanceTimersByTimeAsync(LIVE_POLL_MS * 10);
    expect(balance.calls.count).toBe(3);

    // Shown again a few seconds after its last read (fresh by staleTime): asked at once all the same.
    focusManager.setFocused(true);
    await flush();
    expect(balance.calls.count).toBe(4);
    balance.unsubscribe();
  });

  it('a read refused (4xx) is not asked again by the interval', async () => {
    const qc = client();
    let calls = 0;
    const observer = new QueryObserver(
      qc,
      liveRead(
        ['contests'],
        queryOptions({
          queryKey: ['teste', 'recusada'],
          queryFn: async (): Promise<number> => {
            calls += 1;
            throw new ApiError(403, 'Aceite os termos');
          },
        }),
      ),
    );
    const unsubscribe = observer.subscribe(() => undefined);
    await flush();
    await vi.advanceTimersByTimeAsync(LIVE_POLL_MS * 3);
    expect(calls).toBe(1);
    unsubscribe();
  });
});
