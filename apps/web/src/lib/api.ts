import { buildPath, ERROR_CODES, IDEMPOTENCY_KEY_HEADER, type Endpoint, type ResponseOf } from '@portal/contract';
import { ACTING_ACCOUNT_HEADER } from '@portal/domain';
import type { z } from 'zod';
import {
  API_BASE_URL,
  ApiError,
  errorFromBody,
  isApiError,
  handleAccountAccessEnded,
  handleTermsRefused,
  handleUnauthorized,
  NETWORK_ERROR_MESSAGE,
  UNEXPECTED_RESPONSE_MESSAGE,
} from './http';
import { saveBlob } from './download';
import { closeIntent, intentOf, isUnanswered, keyForIntent, NO_ANSWER_MESSAGE, retryPolicy, sleep } from './idempotency';
import { wipeOfflineData } from './persist';
import { clearSession, getActingAccount, getToken, setActingAccount } from './storage';

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
  /**
   * An idempotent call that got no answer is sent again after each of these waits (by default
   * retryPolicy's 1, 2 and 4 s). [] tells the driver at once, the intent left open: pressing again
   * sends the same key (issue 25: the terms acceptance).
   */
  unansweredRetryDelaysMs?: readonly number[];
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
export async function request<E extends Endpoint>(endpoint: E, options: RequestOptions<E> = {}): Promise<ResponseOf<E>> {
  if (!endpoint.idempotent) {
    // A screen starts its reads in one pass of effects (eight on /configuracoes): each fetch() in a
    // task of its own keeps that pass short on a slow phone (decision 74).
    if (endpoint.method === 'GET') await sleep(0);
    return send(endpoint, options, null);
  }
  const intent = intentOf({
    method: endpoint.method,
    path: endpoint.path,
    params: options.params,
    query: options.query,
    body: options.body,
  });
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
      const delay = (options.unansweredRetryDelaysMs ?? retryPolicy.delaysMs)[attempt];
      if (delay === undefined || options.signal?.aborted)
        throw isApiError(error) && error.status === 409 ? error : new ApiError(0, NO_ANSWER_MESSAGE);
      await sleep(delay);
    }
  }
}

/**
 * The address and headers of a call: the bearer token for an authenticated endpoint, and its
 * Idempotency-Key. Decision 77: with the stored session, the company's account the person chose
 * goes in X-Conta (`account`; null on their own account, which needs no header).
 */
function prepare<E extends Endpoint>(endpoint: E, options: RequestOptions<E>, accept: string, idempotencyKey: string | null = null) {
  const url = `${API_BASE_URL}${buildPath(endpoint.path, options.params)}${queryString(options.query)}`;
  const headers: Record<string, string> = { Accept: accept };
  let account: number | null = null;
  if (endpoint.auth) {
    const token = options.token !== undefined ? options.token : getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (options.token === undefined) account = getActingAccount()?.id ?? null;
    if (account !== null) headers[ACTING_ACCOUNT_HEADER] = String(account);
  }
  if (idempotencyKey) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey;
  return { url, headers, account };
}

/** fetch, with no answer at all (no connection) as an ApiError of status 0; an abort stays an abort. */
async function reach(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
}

/** The server's refusal for terms not accepted (founding decision 27), told by the envelope's code, not its words. */
function isTermsRefusal(status: number, data: unknown): boolean {
  return status === 403 && typeof data === 'object' && data !== null && (data as { code?: unknown }).code === ERROR_CODES.termsNotAccepted;
}

/**
 * Decision 77: the company's account the call was sent for is no longer the person's to use (removed,
 * or never a member): back to their own account, once, however many calls were refused for it.
 */
function leaveEndedAccount(account: number | null, error: ApiError): void {
  if (account === null || !error.endsAccountAccess || getActingAccount()?.id !== account) return;
  setActingAccount(null);
  handleAccountAccessEnded(error.message);
}

/**
 * A non-2xx answer as the ApiError to throw; a 401 on an authenticated call ends the session
 * first, a refusal for terms not accepted shows the terms where the driver is (lib/terms.ts), and
 * one for a company's account no longer usable goes back to the person's own (decision 77).
 */
async function refusal(endpoint: Endpoint, response: Response, account: number | null): Promise<ApiError> {
  const data = await readJson(response);
  if (response.status === 401 && endpoint.auth) {
    // Founding decision 22: the data kept on the phone goes with the session.
    clearSession();
    void wipeOfflineData();
    handleUnauthorized();
  }
  if (endpoint.auth && isTermsRefusal(response.status, data)) handleTermsRefused();
  const error = errorFromBody(response.status, data);
  if (endpoint.auth) leaveEndedAccount(account, error);
  return error;
}

async function send<E extends Endpoint>(endpoint: E, options: RequestOptions<E>, idempotencyKey: string | null): Promise<ResponseOf<E>> {
  const { url, headers, account } = prepare(endpoint, options, 'application/json', idempotencyKey);
  let body: string | undefined;
  if (endpoint.method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body ?? {});
  }

  const response = await reach(url, { method: endpoint.method, headers, body, signal: options.signal });
  if (!response.ok) throw await refusal(endpoint, response, account);

  const data = await readJson(response);
  const parsed = endpoint.response.safeParse(data);
  // spec §8: a back end may answer a refusal as 200 {Sucesso: false, Mensagem, error}, without the
  // success fields: that is the server's refusal (its Mensagem), not an unexpected answer.
  if (!parsed.success && isRefusalBody(data)) throw errorFromBody(response.status, data);
  if (!parsed.success) {
    console.error(`Resposta fora do contrato em ${endpoint.method} ${endpoint.path}`, parsed.error);
    throw new ApiError(response.status, UNEXPECTED_RESPONSE_MESSAGE, {}, data);
  }
  return parsed.data as ResponseOf<E>;
}

/**
 * The file's name from Content-Disposition (RFC 6266: filename* in UTF-8 first, then filename),
 * without any folder; null when the header has none (or a cross-origin answer hides it).
 */
function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  let name: string | undefined;
  if (encoded) {
    try {
      name = decodeURIComponent(encoded.trim());
    } catch {
      name = undefined;
    }
  }
  name ??= /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i
    .exec(header)
    ?.slice(1)
    .find((part) => part !== undefined);
  const base = name?.trim().split(/[\\/]/).pop();
  return base ? base : null;
}

/**
 * Downloads a `file` call of the contract (the statement export, a receipt's PDF) as request does
 * its calls: the driver's token, a refusal as an ApiError with the envelope's Mensagem (a 401 ends
 * the session). The file is saved under the server's name (Content-Disposition), else
 * `fallbackName`; answers the name it was saved under.
 */
export async function downloadFile<E extends Endpoint>(
  endpoint: E,
  options: RequestOptions<E> & { fallbackName: string },
): Promise<string> {
  if (!endpoint.file) throw new Error(`${endpoint.path} não responde um arquivo`);
  const accept = [...endpoint.file.contentTypes, 'application/json'].join(', ');
  const { url, headers, account } = prepare(endpoint, options, accept);
  const response = await reach(url, { method: endpoint.method, headers, signal: options.signal });
  if (!response.ok) throw await refusal(endpoint, response, account);
  if (response.headers.get('content-type')?.startsWith('application/json')) {
    // spec §8: a refusal may come as 200 {Sucesso: false, Mensagem}; any other JSON is not the file.
    const data = await readJson(response);
    throw isRefusalBody(data) ? errorFromBody(response.status, data) : new ApiError(response.status, UNEXPECTED_RESPONSE_MESSAGE, {}, data);
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (error) {
    // The connection dropped halfway through the file.
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  const fileName = fileNameFromDisposition(response.headers.get('content-disposition')) ?? options.fallbackName;
  saveBlob(blob, fileName);
  return fileName;
}
