/**
 * Safe retries (founding architecture §21): a call that moves money or changes state (`idempotent` in the
 * contract) carries an Idempotency-Key made once per intent of the driver. The intent is the call
 * itself (method, path, parameters and body): pressing 'Sacar' again with the same order after an
 * answer was lost is the same intent and sends the same key, so the server answers with its first
 * answer instead of withdrawing twice. A call that got an answer (success or refusal) closes its
 * intent: the same order afterwards is a new one, with a new key.
 *
 * Open intents are kept in localStorage (they survive a reload of the page, the likeliest thing a
 * driver does after a lost answer) for one driver: clearSession forgets them with the session.
 */
import { withoutSecrets } from '@portal/contract';
import { messages } from '@portal/domain';
import { isApiError } from './http';
import { getPendingIntents, setPendingIntents, type PendingIntents } from './storage';

/** The server keeps a key at least 24 hours; an open intent is dropped well before that. */
const INTENT_KEPT_MS = 12 * 60 * 60 * 1000;

/** Waits before each automatic retry of a call that got no answer (then the driver is told). */
export const retryPolicy = { delaysMs: [1000, 2000, 4000] };

/** What the driver reads when no attempt got an answer: nothing was lost, pressing again is safe. */
export const NO_ANSWER_MESSAGE =
  'A conexão caiu antes da resposta do servidor. Confira o sinal e toque de novo: o pedido não será feito duas vezes.';

/** A random UUID; crypto.randomUUID needs a secure context, getRandomValues does not. */
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** JSON with object keys sorted: the same call reads the same whatever order its body was built in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** 64-bit FNV-1a (two 32-bit lanes): the stored name of an intent, so no Pix key or amount is kept in clear. */
function digest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** The intent of a call: what it asks for, nothing about the attempt. */
export function intentOf(call: { method: string; path: string; params?: unknown; query?: unknown; body?: unknown }): string {
  return digest(stableJson([call.method, call.path, call.params ?? null, call.query ?? null, withoutSecrets(call.body ?? null)]));
}

function openIntents(now: number): PendingIntents {
  const intents = getPendingIntents();
  for (const [intent, { at }] of Object.entries(intents)) {
    if (now - at > INTENT_KEPT_MS || at > now) delete intents[intent];
  }
  return intents;
}

/** The key of this intent: the one already sent when it is still open, else a new one (kept open). */
export function keyForIntent(intent: string, now: number = Date.now()): string {
  const intents = openIntents(now);
  const open = intents[intent];
  if (open) return open.key;
  const key = newKey();
  intents[intent] = { key, at: now };
  setPendingIntents(intents);
  return key;
}

/** The intent got its answer: the same call later is a new intent. */
export function closeIntent(intent: string): void {
  const intents = openIntents(Date.now());
  if (!(intent in intents)) return;
  delete intents[intent];
  setPendingIntents(intents);
}

/** The body of an answer of the server itself (its envelope), not of a proxy in between. */
function isServerAnswer(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as { Mensagem?: unknown }).Mensagem === 'string';
}

/**
 * No answer that settles the intent, so the intent stays open and the call is sent again with the
 * same key: the request got no answer at all (network), a proxy answered for a server that did not
 * (a 5xx without the server's envelope: the effect may have happened), or the server is still
 * working on the first attempt with this key (409 'em processamento'). Any answer of the server
 * itself, a 5xx with its Mensagem included (a refused payout), settles it.
 */
export function isUnanswered(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.status === 0) return true;
  if (error.status >= 500) return !isServerAnswer(error.body);
  return error.status === 409 && error.message === messages.idempotency.inProgress;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
