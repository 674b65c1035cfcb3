import type { ErrorCode } from '@portal/contract';
import { ERROR_CODES } from '@portal/contract';
import type { Refusal, RefusalKind } from '@portal/domain';
import { fleetMessages, serverMessages } from '@portal/domain';

export type FieldErrorList = Record<string, string[]>;

/**
 * A refusal of the HTTP layer itself (a session, the terms, an Idempotency-Key): status and
 * Portuguese Mensagem. The services refuse with the domain's Refusal instead (answerOf below).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const unauthorized = () => new HttpError(401, serverMessages.session.unauthorized);

export const conflict = (message: string) => new HttpError(409, message);

/** A refusal the client acts on, not only shows: its stable code goes out in the envelope (contract ERROR_CODES). */
class CodedRefusal extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    readonly code: ErrorCode,
  ) {
    super(statusCode, message);
  }
}

/** Founding decision 27: a call that moves money or changes a tag or vehicle, without the current terms accepted. */
export const termsNotAccepted = () => new CodedRefusal(403, serverMessages.terms.notAccepted, ERROR_CODES.termsNotAccepted);

/** Decision 77: X-Conta names an account the person may not use (never a member, or removed); the web app goes back to their own. */
export const accountAccessEnded = () => new CodedRefusal(403, fleetMessages.noAccess, ERROR_CODES.accountAccessEnded);

/** The one table from the domain's kinds of refusal to HTTP statuses. */
const REFUSAL_STATUS: Record<RefusalKind, number> = {
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  invalid: 422,
  'too-many': 429,
  'provider-failed': 502,
  unavailable: 503,
};

/** The envelope of a refused call (contract errorResponse). */
export interface RefusalAnswer {
  status: number;
  body: { Sucesso: false; Mensagem: string; errors?: FieldErrorList; error?: string; code?: ErrorCode };
  /** Retry-After, in seconds. */
  retryAfterSeconds?: number;
}

/** The answer to a refusal, the domain's or the HTTP layer's: the one place a refusal becomes a status and a body. */
export function answerOf(error: Refusal | HttpError): RefusalAnswer {
  if (error instanceof HttpError) {
    return {
      status: error.statusCode,
      body: { Sucesso: false, Mensagem: error.message, ...(error instanceof CodedRefusal ? { code: error.code } : {}) },
    };
  }
  const message = error.message;
  return {
    status: REFUSAL_STATUS[error.kind],
    body: {
      Sucesso: false,
      Mensagem: message,
      ...(error.fields.length > 0 ? { errors: Object.fromEntries(error.fields.map((field) => [field, [message]])) } : {}),
      ...(error.echo ? { error: message } : {}),
    },
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: Math.max(1, error.retryAfterSeconds) } : {}),
  };
}
