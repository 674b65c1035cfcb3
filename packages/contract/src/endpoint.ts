import type { Capability } from '@portal/domain';
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A part of the request that an endpoint has (required) or does not have (absent). */
type Part<K extends string, T> = [T] extends [z.ZodType]
  ? { [P in K]: T }
  : [T] extends [undefined]
    ? { [P in K]?: undefined }
    : { [P in K]?: T };

export type Endpoint<
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType = z.ZodType,
> = {
  method: HttpMethod;
  /** Fastify style: /api/termos/status-atual/:userId */
  path: string;
  auth: boolean;
  /**
   * Decision 77: what an authenticated call needs of the role of whoever acts on the account (the
   * domain's roleAllows). Every call with `auth` names one; the server refuses to register one without.
   */
  capability?: Capability;
  summary: string;
  response: Response;
  /**
   * The call moves money or changes state: it accepts the IDEMPOTENCY_KEY_HEADER
   * (idempotency.ts), and a retry with the same key gets the first answer again.
   */
  idempotent?: boolean;
  /**
   * Founding decision 27: the call moves money or changes a tag or vehicle, so a driver whose current terms
   * of use are not accepted gets 403 with the envelope's code TERMS_NOT_ACCEPTED (one check on the
   * server, http/route.ts). Every state-changing driver call is flagged or listed as exempt with
   * its reason in apps/server/test/security/terms-enforcement.test.ts.
   */
  requiresTerms?: boolean;
  /**
   * The success answer is a file of one of these types, streamed (issue 12 exports and receipts),
   * not JSON: `response` then describes only the error envelope.
   */
  file?: { contentTypes: readonly string[] };
} & Part<'body', Body> &
  Part<'params', Params> &
  Part<'query', Query>;

export function endpoint<
  Body extends z.ZodType | undefined = undefined,
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Response extends z.ZodType = z.ZodType,
>(e: Endpoint<Body, Params, Query, Response>): Endpoint<Body, Params, Query, Response> {
  return e;
}

/** '/api/termos/status-atual/:userId' + { userId: 7 } -> '/api/termos/status-atual/7' */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Parâmetro ausente: ${name}`);
    return encodeURIComponent(String(value));
  });
}

export type ResponseOf<E extends Endpoint> = z.infer<E['response']>;
export type BodyOf<E extends Endpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : never;
