import { z } from 'zod';
import { redactUrl } from '../../logger.js';
import { PixProviderUnavailable } from './port.js';

export interface AsaasClientConfig {
  /** e.g. https://api-sandbox.asaas.com or https://api.asaas.com (paths add /v3/...). */
  apiUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/** Asaas answered 4xx: its errors[].description, which are already in Portuguese. */
export class AsaasRequestError extends Error {
  constructor(
    readonly status: number,
    readonly descriptions: string[],
  ) {
    super(descriptions.join('; ') || `Asaas respondeu ${status}`);
  }
}

const errorBody = z.object({ errors: z.array(z.object({ description: z.string() })) });

/** Small JSON client: access_token header, a timeout on every call, errors mapped to our two kinds. */
export class AsaasClient {
  constructor(
    private readonly config: AsaasClientConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async request<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.output<S>> {
    // What an error names of the call: the query's values (a CPF/CNPJ) never reach a log.
    const call = `${method} ${redactUrl(path)}`;
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.config.apiUrl}${path}`, {
        method,
        headers: {
          access_token: this.config.apiKey,
          'content-type': 'application/json',
          accept: 'application/json',
          'user-agent': 'portal-do-motorista',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (error) {
      throw new PixProviderUnavailable(`Asaas inacessível (${call}): ${describe(error)}`, !neverConnected(error));
    }
    const text = await res.text().catch(() => '');
    if (res.status >= 500 || res.status === 429) {
      throw new PixProviderUnavailable(`Asaas respondeu ${res.status} (${call})`, res.status !== 429);
    }
    const json = parseJson(text);
    if (res.status >= 400) {
      const parsed = errorBody.safeParse(json);
      throw new AsaasRequestError(res.status, parsed.success ? parsed.data.errors.map((e) => e.description) : []);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new PixProviderUnavailable(`Resposta inesperada do Asaas (${call})`);
    return parsed.data;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** fetch failed before any byte reached Asaas (the cause carries the socket error code). */
function neverConnected(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' && NEVER_CONNECTED.has(cause.code);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
