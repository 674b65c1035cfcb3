import type { LiveTopic } from '@portal/domain';
import { focusManager, type Query, type QueryClient, type QueryMeta } from '@tanstack/react-query';
import { readChangedMessage } from '../pwa/push/changes';
import { isClientError } from './http';

/**
 * Issue 33 (decision 62): an open screen that shows money or a state an event can change shows the
 * event without a reload. Two ways, one mechanism:
 *
 * - a push: the service worker posts the topics the event changed (pwa/push/changes.ts) and every
 *   read that shows one of them is asked again at once (listenForChanges);
 * - always, while the screen is on view: each such read is asked again every LIVE_POLL_MS, and when
 *   the driver comes back to the portal; never while it is hidden (TanStack's interval skips a
 *   hidden document, refetchIntervalInBackground false). That covers the devices without push and
 *   the events that push late (passages, grouped for a minute) or not at all (a tag's month, a
 *   partner's movement, a charge expiring).
 */

/** Below 30 s with room for the read itself: an event shows within 30 s of happening. */
export const LIVE_POLL_MS = 25_000;

/** Where a read names the topics it shows, in its query's meta. */
const LIVE_META = 'live';

/** What a read's interval looks at: its last outcome. */
interface ReadState {
  readonly state: { readonly status: string; readonly error: Error | null };
}

/** LIVE_POLL_MS, but never again after a refusal (4xx: final, queryClient.ts). */
export function livePollMs(query: ReadState): number | false {
  return query.state.status === 'error' && isClientError(query.state.error) ? false : LIVE_POLL_MS;
}

/** The options a live read adds: its topics, the interval on view, a read on coming back. */
export interface LiveOptions {
  meta: QueryMeta;
  refetchInterval: (query: ReadState) => number | false;
  refetchIntervalInBackground: false;
  refetchOnWindowFocus: 'always';
}

/**
 * A read's queryOptions made live: it shows `topics`. `base` is the read's own options (its meta,
 * e.g. keptOffline's, is kept).
 */
export function liveRead<B extends { meta?: QueryMeta }>(topics: readonly LiveTopic[], base: B): B & LiveOptions {
  return {
    ...base,
    meta: { ...base.meta, [LIVE_META]: topics },
    refetchInterval: livePollMs,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
  };
}

function topicsOf(query: Query): readonly unknown[] {
  const topics = query.meta?.[LIVE_META];
  return Array.isArray(topics) ? topics : [];
}

/**
 * The reads that show any of `topics` are stale; those on a screen on view are asked again now. A
 * hidden screen asks nothing: it asks when it is shown again (refetchOnWindowFocus).
 */
function refreshTopics(client: QueryClient, topics: readonly LiveTopic[]): Promise<void> {
  return client.invalidateQueries({
    predicate: (query) => topicsOf(query).some((topic) => topics.includes(topic as LiveTopic)),
    refetchType: focusManager.isFocused() ? 'active' : 'none',
  });
}

/**
 * Every signed-in screen: the service worker's word that a push changed something refreshes the
 * reads that show it. One listener, nothing asked until a message comes. Answers its removal.
 */
export function listenForChanges(client: QueryClient): () => void {
  const worker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!worker) return () => undefined;
  const onMessage = (event: MessageEvent) => {
    const topics = readChangedMessage(event.data);
    if (topics && topics.length > 0) void refreshTopics(client, topics);
  };
  worker.addEventListener('message', onMessage);
  return () => worker.removeEventListener('message', onMessage);
}
