import { messages } from '@portal/domain';

/**
 * The header of a driver's call that moves money or changes state (endpoints with
 * `idempotent: true`): one key per intent of the driver, sent again on every retry of it. The
 * server answers a retry with the same key and request with the first answer (and
 * IDEMPOTENT_REPLAYED_HEADER), and refuses the same key with another request (409). Without it
 * the call behaves as docs/spec.md says. Keys are per driver and kept at least 24 hours.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** On a replayed answer: 'true'. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** The longest key accepted (as payment APIs do); a UUID is 36. */
export const IDEMPOTENCY_KEY_MAX = 255;

/** Visible ASCII only: no spaces, no control characters, no commas of a repeated header. */
const KEY_PATTERN = /^[\x21-\x2b\x2d-\x7e]+$/;

/**
 * The header as received (Node joins a repeated one with ', '): null when the call has none,
 * the key when well formed, else the Portuguese refusal.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): { key: string } | { error: string } | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX || !KEY_PATTERN.test(value)) {
    return { error: messages.idempotency.keyInvalid };
  }
  return { key: value };
}

/**
 * A request as "the same request" reads it: a password confirming the call (`senha`, decision 44)
 * is left out, so that neither the server's stored hash nor the phone's open intents keep anything
 * a password could be guessed against, and a retry is the same intent whatever was typed.
 */
export function withoutSecrets(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('senha' in body)) return body;
  const { senha: _secret, ...rest } = body as Record<string, unknown>;
  return rest;
}
