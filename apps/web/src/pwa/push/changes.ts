import { LIVE_TOPICS, type LiveTopic } from '@portal/domain';

/**
 * Issue 33: what the service worker posts to the portal's open windows when a push arrives: the
 * topics its event changed (the payload's `topicos`; every topic when it names none or cannot be
 * read), so the open screens read again what they show (lib/liveUpdates.ts). Its own module: the
 * app imports it without the handlers.
 */
export const CHANGED_MESSAGE = 'portal:mudou';

export interface ChangedMessage {
  type: typeof CHANGED_MESSAGE;
  topics: LiveTopic[];
}

export function isLiveTopic(value: unknown): value is LiveTopic {
  return (LIVE_TOPICS as readonly unknown[]).includes(value);
}

export function changedMessage(topics: readonly LiveTopic[] | undefined): ChangedMessage {
  return { type: CHANGED_MESSAGE, topics: topics ? [...topics] : [...LIVE_TOPICS] };
}

/** The topics of a window's message when it is the worker's ChangedMessage, else null. */
export function readChangedMessage(data: unknown): LiveTopic[] | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, topics } = data as Record<string, unknown>;
  if (type !== CHANGED_MESSAGE || !Array.isArray(topics)) return null;
  return topics.filter(isLiveTopic);
}
