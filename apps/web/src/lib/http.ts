/**
 * The API client's light half: errors, base URL and the 401 hook. It imports nothing from the
 * contract (and so no zod), which keeps it out of the /login route's first download.
 */
import { messages } from '@portal/domain';

/** '' = same origin (the server serves the app); set VITE_API_URL to talk to another back end. */
export const API_BASE_URL = (import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '');

export const NETWORK_ERROR_MESSAGE = 'Não foi possível conectar ao servidor. Verifique sua internet e tente novamente.';
export const UNEXPECTED_RESPONSE_MESSAGE = 'O servidor respondeu de um jeito inesperado. Tente novamente.';

/**
 * Decision 77: the code of a 403 whose X-Conta named an account the person may no longer use (the
 * contract's ERROR_CODES.accountAccessEnded, written here: this half imports nothing from the
 * contract; test/features/fleet holds the two equal).
 */
export const ACCOUNT_ACCESS_ENDED_CODE = 'ACCOUNT_ACCESS_ENDED';

/** A non-2xx answer (or no answer at all: status 0), with the body's Mensagem and errors map. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly body: unknown = null,
  ) {
    super(message);
  }

  /** The session was refused (401): storage is already cleared and /login is on its way. */
  get isUnauthorized(): boolean {
    return this.status === 401;
  }

  /**
   * Decision 77: the company's account chosen is no longer the person's to use: the app already went
   * back to their own account and said so (lib/api.ts), the screen that asked says nothing more.
   */
  get endsAccountAccess(): boolean {
    const body = this.body as { code?: unknown } | null;
    return this.status === 403 && typeof body === 'object' && body !== null && body.code === ACCOUNT_ACCESS_ENDED_CODE;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A 4xx answer: final, asking again will not change it (network failures and 5xx may pass). */
export function isClientError(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500;
}

type UnauthorizedHandler = () => void;

let unauthorizedHandler: UnauthorizedHandler = () => {
  window.location.replace('/login');
};

/** The router registers a client-side navigation (history replaced) here. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  unauthorizedHandler = handler;
}

/** Called by the API client after it cleared the session on a 401. */
export function handleUnauthorized(): void {
  unauthorizedHandler();
}

type TermsRefusedHandler = () => void;

let termsRefusedHandler: TermsRefusedHandler = () => {
  window.location.replace('/blocked-access');
};

/** The router registers what a refusal for the terms does (issue 25: the terms bar where the driver is, lib/terms.ts). */
export function setTermsRefusedHandler(handler: TermsRefusedHandler): void {
  termsRefusedHandler = handler;
}

/** Called by the API client on a refusal for terms not accepted (founding decision 27). */
export function handleTermsRefused(): void {
  termsRefusedHandler();
}

type AccountAccessEndedHandler = (message: string) => void;

let accountAccessEndedHandler: AccountAccessEndedHandler = () => undefined;

/** The signed-in shell registers what going back to the person's own account does (decision 77). */
export function setAccountAccessEndedHandler(handler: AccountAccessEndedHandler): () => void {
  accountAccessEndedHandler = handler;
  return () => {
    if (accountAccessEndedHandler === handler) accountAccessEndedHandler = () => undefined;
  };
}

/** Called by the API client once it forgot the company chosen, with the answer's Mensagem. */
export function handleAccountAccessEnded(message: string): void {
  accountAccessEndedHandler(message);
}

export function errorFromBody(status: number, body: unknown): ApiError {
  let message: string = status >= 500 ? messages.session.internalError : UNEXPECTED_RESPONSE_MESSAGE;
  let errors: Record<string, string[]> = {};
  if (typeof body === 'object' && body !== null) {
    const b = body as { Mensagem?: unknown; errors?: unknown };
    if (typeof b.Mensagem === 'string' && b.Mensagem) message = b.Mensagem;
    if (typeof b.errors === 'object' && b.errors !== null) {
      errors = Object.fromEntries(
        Object.entries(b.errors as Record<string, unknown>).map(([field, list]) => [
          field,
          (Array.isArray(list) ? list : [list]).filter((m): m is string => typeof m === 'string'),
        ]),
      );
    }
  }
  return new ApiError(status, message, errors, body);
}
