import webpush from 'web-push';
import type { VapidKeys } from './vapid.js';

/** A device's subscription as stored (the browser's PushSubscription). */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushMessage {
  /** The JSON the service worker reads (the contract's pushPayload). */
  body: string;
  /** Seconds the push service keeps it for a device that is offline. */
  ttlSeconds: number;
  urgency: 'normal' | 'high';
  /** The push service keeps only the latest message of a topic for an offline device. */
  topic?: string;
}

/** The push service's answer: its HTTP status, or null when it could not be reached. */
export interface PushAnswer {
  status: number | null;
  /** Why it failed, for the outbox's last error (never a key). */
  error?: string;
}

/**
 * Sends one Web Push message: web-push encrypts it for the device (RFC 8291, aes128gcm) and signs
 * the VAPID token (RFC 8292); the request itself goes through fetch, with a time limit.
 */
export class PushSender {
  constructor(
    private readonly subject: string,
    private readonly timeoutMs: number,
  ) {}

  async send(keys: VapidKeys, target: PushTarget, message: PushMessage): Promise<PushAnswer> {
    const details = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      message.body,
      {
        vapidDetails: { subject: this.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: message.ttlSeconds,
        urgency: message.urgency,
        contentEncoding: 'aes128gcm',
        ...(message.topic ? { topic: message.topic } : {}),
      },
    );
    const headers = Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name, String(value)]));
    try {
      const res = await fetch(details.endpoint, {
        method: 'POST',
        headers,
        body: new Uint8Array(details.body),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // The answer's body is not needed; reading it frees the connection.
      await res.arrayBuffer().catch(() => undefined);
      return res.ok ? { status: res.status } : { status: res.status, error: `HTTP ${res.status}` };
    } catch (error) {
      return { status: null, error: networkError(error) };
    }
  }
}

/** fetch's 'fetch failed' names its cause (ECONNREFUSED, a timeout): that is what the operator needs. */
function networkError(error: unknown): string {
  if (!(error instanceof Error)) return 'erro de rede';
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`.slice(0, 300);
}
