/**
 * What kind of "no" the portal answers, in the domain's words. The server's services throw a
 * Refusal; one place on the server (apps/server/src/http/errors.ts, used by the error handler)
 * turns its kind into the HTTP status and the Portuguese envelope (Sucesso: false, Mensagem,
 * errors, error). Nothing below the HTTP layer knows a status code.
 */
export type RefusalKind =
  /** 401: no credentials, or credentials that are not valid (sign-in, a partner's key, a webhook's token). */
  | 'unauthenticated'
  /** 403: who asks may not do this (another driver's document, another partner's kind). */
  | 'forbidden'
  /** 404: nothing of this caller's by that name. */
  | 'not-found'
  /** 409: the state does not allow it now (a tag that cannot be blocked, a reused externalId). */
  | 'conflict'
  /** 422: the values break a rule; on a field when there is one. */
  | 'invalid'
  /** 429: too often; retryAfterSeconds says when to try again. */
  | 'too-many'
  /** 502: the provider (Pix) failed or refused what we asked of it. */
  | 'provider-failed'
  /** 503: the server is busy with others; try again shortly. */
  | 'unavailable';

export interface RefusalDetails {
  /** The fields the message belongs on (the envelope's `errors`: the form shows it there). */
  fields?: readonly string[];
  /** spec §7's `error` field: the same text again, for the calls whose clients read `error` (tags, vehicles, withdrawal). */
  echo?: boolean;
  /** For 'too-many': seconds until the caller may try again (Retry-After). */
  retryAfterSeconds?: number;
}

/** A refusal the caller should read: its kind, the Portuguese message and where it goes. */
export class Refusal extends Error {
  readonly fields: readonly string[];
  readonly echo: boolean;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly kind: RefusalKind,
    message: string,
    details: RefusalDetails = {},
  ) {
    super(message);
    this.name = 'Refusal';
    this.fields = details.fields ?? [];
    this.echo = details.echo ?? false;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** The refusals by kind: `throw refuse.notFound(serverMessages.tag.notFound)`. */
export const refuse = {
  unauthenticated: (message: string) => new Refusal('unauthenticated', message),
  forbidden: (message: string) => new Refusal('forbidden', message),
  notFound: (message: string) => new Refusal('not-found', message),
  conflict: (message: string) => new Refusal('conflict', message),
  /** On the given fields (none: the Mensagem alone). */
  invalid: (message: string, ...fields: string[]) => new Refusal('invalid', message, { fields }),
  tooMany: (message: string, retryAfterSeconds?: number) => new Refusal('too-many', message, { retryAfterSeconds }),
  providerFailed: (message: string, details: Pick<RefusalDetails, 'echo'> = {}) => new Refusal('provider-failed', message, details),
  unavailable: (message: string) => new Refusal('unavailable', message),
  /**
   * A refusal of a tag or vehicle call (spec §8): the driver reads the Mensagem, or spec §7's
   * `error`, which carries the same text; with a field, the form shows it there too.
   */
  echoed: (kind: RefusalKind, message: string, field?: string) => new Refusal(kind, message, { fields: field ? [field] : [], echo: true }),
} as const;
