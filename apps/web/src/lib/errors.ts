/**
 * The one place that turns a failure into what the driver reads. Light on purpose (no contract,
 * no zod): the prerendered /login may import it.
 */
import { messages } from '@portal/domain';
import { isApiError } from './http';

/** The body's text, when it is a non-empty string. */
function bodyText(body: unknown, key: 'Mensagem' | 'error'): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() ? value : null;
}

/** A 2xx body that says it failed ({Sucesso:false, ...}): its Mensagem is an error, not a greeting. */
function isRefusal(status: number, body: unknown): boolean {
  if (status < 200 || status >= 300) return true;
  return typeof body === 'object' && body !== null && (body as { Sucesso?: unknown }).Sucesso === false;
}

/**
 * The one place that turns any failure into what the driver reads: the answer's Mensagem, then SPEC's
 * `error` field, else messages.session.internalError (network: the NETWORK_ERROR_MESSAGE).
 */
export function errorMessage(error: unknown): string {
  if (!isApiError(error)) {
    console.error(error);
    return messages.session.internalError;
  }
  if (isRefusal(error.status, error.body)) {
    const text = bodyText(error.body, 'Mensagem') ?? bodyText(error.body, 'error');
    if (text) return text;
  }
  // ApiError's own message: the network text (status 0), an unexpected answer, or internalError.
  return error.message || messages.session.internalError;
}

/** spec §8: the text of an unsuccessful 200 answer ({Sucesso:false, Mensagem, error}); null when it succeeded. */
export function answerFailure(answer: { Sucesso: boolean; Mensagem?: string | null; error?: string | null }): string | null {
  if (answer.Sucesso) return null;
  return answer.error || answer.Mensagem || messages.session.internalError;
}
