import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { redactUrl } from '../logger.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Polled by probes every few seconds: no request line (its own warnings still are). */
    probe?: boolean;
  }
}

const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Fastify's genReqId: the proxy's X-Request-Id when it is a short plain token (so one id follows
 * the request from nginx to our log), otherwise a new UUID. Anything else a client could write
 * there (long strings, spaces, quotes, line breaks) never reaches a log line.
 */
export function requestIdOf(req: IncomingMessage): string {
  const header = req.headers[REQUEST_ID_HEADER];
  const given = Array.isArray(header) ? header[0] : header;
  return given !== undefined && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * One line per request, when it completes (Fastify's default writes two), with its id (reqId),
 * which the answer also carries in X-Request-Id. No headers, no bodies: paths carry no
 * CPF/CNPJ, tokens travel in the Authorization header, and query values (where a careless
 * client may put a token) are redacted.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
  // The line's fields are built right here and carry no secret (the URL's query is redacted
  // below), so it skips pino's path redaction: about 4 µs of every request's 6 µs of logging.
  const lines = app.log.child({}, { redact: [] });
  app.addHook('onResponse', (req, reply, done) => {
    if (req.routeOptions.config.probe) return done();
    lines.info(
      {
        reqId: req.id,
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
