import { createHash } from 'node:crypto';
import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { RequestLimit, RequestLimits } from '../config.js';
import type { RateLimitStore } from '../db/rate-limit-store.js';

interface Rule {
  scope: string;
  max: number;
  windowMs: number;
  /** The bucket of this request, or null when the rule does not apply to it. */
  keyOf: (req: FastifyRequest) => string | null;
}

const byAddress = (req: FastifyRequest) => req.ip;

function byApiKey(req: FastifyRequest): string | null {
  const header = req.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  // Only a digest of the key is written to the counters, as in the partners table.
  return key ? createHash('sha256').update(key, 'utf8').digest('base64url') : null;
}

function rule(scope: string, limit: RequestLimit, keyOf: Rule['keyOf'], max = limit.max): Rule {
  return { scope, max, windowMs: limit.windowMinutes * 60_000, keyOf };
}

/** The unauthenticated calls that cost us work, and their buckets (docs/decisions.md, "Sign-in and request limits"). */
function rulesFor(url: string, limits: RequestLimits): Rule[] {
  if (url === api.register.path) return [rule('registration:address', limits.registration, byAddress)];
  if (url.startsWith('/api/webhooks/')) return [rule('webhook:address', limits.webhook, byAddress)];
  if (url.startsWith('/api/parceiro/')) {
    return [
      rule('partner:address', limits.partner, byAddress, limits.partner.maxPerAddress),
      rule('partner:key', limits.partner, byApiKey),
    ];
  }
  return [];
}

function limiter(store: RateLimitStore, rules: Rule[]): onRequestAsyncHookHandler {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    for (const r of rules) {
      const key = r.keyOf(req);
      if (key === null) continue;
      const take = await store.take(r.scope, key, r.max, r.windowMs);
      if (take.allowed) continue;
      req.log.warn({ limit: r.scope, remoteAddress: req.ip }, 'limite de requisições excedido');
      return reply
        .code(429)
        .header('retry-after', String(Math.ceil(take.retryAfterMs / 1000)))
        .send({ Sucesso: false, Mensagem: serverMessages.limits.tooManyRequests });
    }
    return undefined;
  };
}

/**
 * Puts the limits in front of the routes registered after this call, as their first onRequest
 * hook: counted in the database before the route's own authentication and before the body is
 * read, so a refused request costs one statement.
 */
export function registerRequestLimits(app: FastifyInstance, store: RateLimitStore, limits: RequestLimits): void {
  app.addHook('onRoute', (route) => {
    const rules = rulesFor(route.url, limits);
    if (rules.length === 0) return;
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [limiter(store, rules), ...own];
  });
}
