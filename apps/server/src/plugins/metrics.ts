import { createHash, timingSafeEqual } from 'node:crypto';
import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics.js';
import { webhookOutcomeOf } from '../metrics.js';
import { onLedgerMovement } from '../modules/ledger/ledger.js';
import type { EveryRequest } from './every-request.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

const METRICS_PATH = '/api/metrics';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Counts every answered request (by route pattern, so the series stay few) and the webhook's
 * outcomes; counts this process's ledger movements while the app is open. GET /api/metrics
 * exists only with a token (METRICS_TOKEN): without one it is an unknown path (404).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | null): EveryRequest {
  const stop = onLedgerMovement((origin) => metrics.ledgerMovement(origin));
  app.addHook('onClose', (_instance, done) => {
    stop();
    done();
  });
  if (token) routeMetrics(app, metrics, token);
  return {
    onResponse: (req, reply) => {
      const route = req.routeOptions.url ?? 'unmatched';
      metrics.httpRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
      // The route layer knows every answer, also the refusals before the handler (token, limits).
      if (route === api.asaasWebhook.path) metrics.webhookOutcome(webhookOutcomeOf(reply.statusCode));
    },
  };
}

function routeMetrics(app: FastifyInstance, metrics: Metrics, token: string): void {
  const expected = digest(token);
  app.route({
    method: 'GET',
    url: METRICS_PATH,
    schema: { hide: true },
    handler: async (req, reply) => {
      const header = req.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!given || !timingSafeEqual(digest(given), expected)) {
        req.log.warn({ remoteAddress: req.ip }, 'métricas pedidas sem o token');
        return reply.code(401).send({ Sucesso: false, Mensagem: serverMessages.operations.metricsUnauthorized });
      }
      const { contentType, body } = await metrics.exposition();
      return reply.type(contentType).header('cache-control', 'no-store').send(body);
    },
  });
}
