import type { FastifyInstance } from 'fastify';
import { redactUrl } from '../logger.js';

/**
 * One line per request, when it completes (Fastify's default writes two). No headers, no
 * bodies: paths carry no CPF/CNPJ, tokens travel in the Authorization header, and query values
 * (where a careless client may put a token) are redacted.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info(
      {
        method: req.method,
        url: redactUrl(req.url),
        statusCode: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
        remoteAddress: req.ip,
      },
      'request completed',
    );
    done();
  });
}
