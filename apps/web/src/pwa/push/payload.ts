import type { PushPayload } from '@portal/contract';
import { isLiveTopic } from './changes';

/**
 * The contract's pushPayload, read by hand: the service worker stays a few kilobytes without zod
 * (test/pwa/pushWorker.test.ts holds the two to the same answers).
 */
export function readPushPayload(value: unknown): PushPayload | null {
  if (typeof value !== 'object' || value === null) return null;
  const { titulo, corpo, url, tag, enviadaEm, topicos } = value as Record<string, unknown>;
  if (typeof titulo !== 'string' || typeof corpo !== 'string' || typeof tag !== 'string') return null;
  if (typeof url !== 'string' || !url.startsWith('/')) return null;
  if (typeof enviadaEm !== 'string') return null;
  if (topicos === undefined) return { titulo, corpo, url, tag, enviadaEm };
  if (!Array.isArray(topicos) || !topicos.every(isLiveTopic)) return null;
  return { titulo, corpo, url, tag, enviadaEm, topicos };
}

/**
 * The address a notification opens: a path of the portal, on the portal's origin. Anything else
 * (another site, '//host', a script URL) opens the dashboard.
 */
export function portalUrl(path: unknown, origin: string, fallback: string): string {
  if (typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\')) {
    try {
      const url = new URL(path, origin);
      if (url.origin === origin) return url.href;
    } catch {
      // Not a URL: the fallback below.
    }
  }
  return new URL(fallback, origin).href;
}
