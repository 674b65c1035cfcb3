import type { ErrorCode } from '@portal/contract';
import { ERROR_CODES } from '@portal/contract';
import { serverMessages } from '@portal/domain';

export type FieldErrorList = Record<string, string[]>;

/** An answer the driver should read: status, Portuguese Mensagem and, for 422, field errors. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrorList,
    /** SPEC 7's `error` field (withdrawal): the same text the driver should read. */
    readonly error?: string,
  ) {
    super(message);
  }
}

export const unauthorized = () => new HttpError(401, serverMessages.session.unauthorized);
export const forbidden = (message: string = serverMessages.session.forbidden) => new HttpError(403, message);
export const notFound = (message: string = serverMessages.session.notFound) => new HttpError(404, message);

/** 429: the driver asked too often; Retry-After says when to try again. */
export class TooManyRequests extends HttpError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

export const conflict = (message: string) => new HttpError(409, message);

/** A refusal the client acts on, not only shows: its stable code goes out in the envelope (contract ERROR_CODES). */
export class CodedRefusal extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    readonly code: ErrorCode,
  ) {
    super(statusCode, message);
  }
}

/** Decision 27: a call that moves money or changes a tag or vehicle, without the current terms accepted. */
export const termsNotAccepted = () => new CodedRefusal(403, serverMessages.terms.notAccepted, ERROR_CODES.termsNotAccepted);

export function fieldError(field: string, message: string): HttpError {
  return new HttpError(422, message, { [field]: [message] });
}

/**
 * A refusal of a tag or vehicle call (SPEC 8): the driver reads the Mensagem, or SPEC 7's `error`,
 * which carries the same text; with a field, the form shows it there too.
 */
export function refusal(status: number, message: string, field?: string): HttpError {
  return new HttpError(status, message, field ? { [field]: [message] } : undefined, message);
}

/**
 * The ledger refuses a movement whose amount or resulting balance would leave the safe range
 * (LEDGER_LIMIT_CENTS): the client's value is at fault, so a 422, and nothing was written.
 */
export class LedgerLimitError extends HttpError {
  constructor() {
    super(422, serverMessages.ledger.limitExceeded, { value: [serverMessages.ledger.limitExceeded] });
  }
}
