import { buildPath, IDEMPOTENCY_KEY_HEADER, type Endpoint, type ResponseOf } from '@portal/contract';
import type { z } from 'zod';
import {
  API_BASE_URL,
  ApiError,
  errorFromBody,
  isApiError,
  handleUnauthorized,
  NETWORK_ERROR_MESSAGE,
  UNEXPECTED_RESPONSE_MESSAGE,
} from './http';
import { closeIntent, intentOf, isUnanswered, keyForIntent, NO_ANSWER_MESSAGE, retryPolicy, sleep } from './idempotency';
import { wipeOfflineData } from './persist';
import { clearSession, getToken } from './storage';

export * from './http';

type BodyInput<E extends Endpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : never;

export interface RequestOptions<E extends Endpoint> {
  /** Values for the path's :placeholders. */
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  body?: BodyInput<E>;
  /**
   * Bearer token to use instead of the stored one (/blocked-access keeps it only in memory).
   * null sends no Authorization header.
   */
  token?: string | null;
  signal?: AbortSignal;
}

function queryString(query: RequestOptions<Endpoint>['query']): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function isRefusalBody(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { Sucesso?: unknown }).Sucesso === false;
}

/**
 * Calls one endpoint of the contract: path from buildPath, JSON body, bearer token for
 * authenticated endpoints, response parsed with the endpoint's zod schema.
 * Any 401 on an authenticated call clears the session and sends the driver to /login.
 *
 * A call that moves money or changes state (`idempotent` in the contract) carries the
 * Idempotency-Key of its intent (idempotency.ts) and, when no answer comes back, is sent again with
 * the same key a few times; if none is answered the driver reads NO_ANSWER_MESSAGE, and pressing
 * again sends the same key once more: the server does it once and answers with its first answer.
 */
export async function request<E extends Endpoint>(
  endpoint: E,
  options: RequestOptions<E> = {},
): Promise<ResponseOf<E>> {
  if (!endpoint.idempotent) return send(endpoint, options, null);
  const intent = intentOf({ method: endpoint.method, path: endpoint.path, params: options.params, query: options.query, body: options.body });
  const key = keyForIntent(intent);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const answer = await send(endpoint, options, key);
      closeIntent(intent);
      return answer;
    } catch (error) {
      if (!isUnanswered(error)) {
        closeIntent(intent);
        throw error;
      }
      const delay = retryPolicy.delaysMs[attempt];
      if (delay === undefined || options.signal?.aborted) throw isApiError(error) && error.status === 409 ? error : new ApiError(0, NO_ANSWER_MESSAGE);
      await sleep(delay);
    }
  }
}

async function send<E extends Endpoint>(endpoint: E, options: RequestOptions<E>, idempotencyKey: string | null): Promise<ResponseOf<E>> {
  const url = `${API_BASE_URL}${buildPath(endpoint.path, options.params)}${queryString(options.query)}`;
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: string | undefined;
  if (endpoint.method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body ?? {});
  }
  if (endpoint.auth) {
    const token = options.token !== undefined ? options.token : getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  if (idempotencyKey) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey;

  let response: Response;
  try {
    response = await fetch(url, { method: endpoint.method, headers, body, signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }

  const data = await readJson(response);
  if (!response.ok) {
    if (response.status === 401 && endpoint.auth) {
      // Decision 22: the data kept on the phone goes with the session.
      clearSession();
      void wipeOfflineData();
      handleUnauthorized();
    }
    throw errorFromBody(response.status, data);
  }

  const parsed = endpoint.response.safeParse(data);
  // SPEC 8: a back end may answer a refusal as 200 {Sucesso: false, Mensagem, error}, without the
  // success fields: that is the server's refusal (its Mensagem), not an unexpected answer.
  if (!parsed.success && isRefusalBody(data)) throw errorFromBody(response.status, data);
  if (!parsed.success) {
    console.error(`Resposta fora do contrato em ${endpoint.method} ${endpoint.path}`, parsed.error);
    throw new ApiError(response.status, UNEXPECTED_RESPONSE_MESSAGE, {}, data);
  }
  return parsed.data as ResponseOf<E>;
}

