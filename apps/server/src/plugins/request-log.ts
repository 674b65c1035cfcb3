import type { FastifyInstance } from 'fastify';

/**
 * One line per request, when it completes (Fastify's default writes two). No headers, no
 * bodies: paths carry no CPF/CNPJ, and tokens travel only in the Authorization header.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info(
      {
        method: req.method,
        url: req.url,
        statusCode: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
        remoteAddress: req.ip,
      },
      'request completed',
    );
    done();
  });
}
