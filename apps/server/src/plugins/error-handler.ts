import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { messages, Refusal, serverMessages } from '@portal/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ZodFastifySchemaValidationError } from 'fastify-type-provider-zod';
import { answerOf, HttpError } from '../http/errors.js';
import { fieldErrors } from '../http/field-errors.js';
import type { ContractIssue } from '../http/field-errors.js';

/** Fastify's validation error as one contract issue (its path is a JSON pointer). */
const contractIssue = (issue: ZodFastifySchemaValidationError): ContractIssue => ({
  custom: issue.keyword === 'custom',
  message: issue.message,
  field: issue.instancePath.replace(/^\//, '').replace(/\//g, '.'),
});

/** The Portuguese words for a client error Fastify or Node raised (malformed JSON stays 'Dados inválidos'). */
function clientErrorMessage(status: number): string {
  switch (status) {
    case 408:
      return serverMessages.http.timeout;
    case 413:
      return serverMessages.http.bodyTooLarge;
    case 414:
      return serverMessages.http.urlTooLong;
    case 415:
      return serverMessages.http.unsupportedMediaType;
    case 431:
      return serverMessages.http.headersTooLarge;
    default:
      return serverMessages.session.invalidRequest;
  }
}

export function registerErrorHandling(app: FastifyInstance): void {
  // Instead of Fastify's English 503 (return503OnClosing): once closing, new requests get ours.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    // Already serialized: the route's own response schema (the health check's 503) must not reshape it.
    void reply
      .code(503)
      .header('connection', 'close')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ Sucesso: false, Mensagem: serverMessages.http.closing }));
  });

  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const { first, errors } = fieldErrors(error.validation.map(contractIssue));
      return reply.code(422).send({ Sucesso: false, Mensagem: first, errors });
    }
    // The domain's refusals (the services') and the HTTP layer's own: status and envelope from http/errors.ts.
    if (error instanceof Refusal || error instanceof HttpError) {
      const answer = answerOf(error);
      if (answer.retryAfterSeconds !== undefined) void reply.header('retry-after', String(answer.retryAfterSeconds));
      return reply.code(answer.status).send(answer.body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, body too large...: the client's fault, never a 500.
      req.log.info({ code: error.code, status }, 'requisição recusada');
      return reply.code(status).send({ Sucesso: false, Mensagem: clientErrorMessage(status) });
    }
    req.log.error({ err: error }, 'erro inesperado');
    return reply.code(500).send({ Sucesso: false, Mensagem: messages.session.internalError });
  });
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route or hook runs (a URL
 * that does not decode, a path parameter past maxParamLength) gets our envelope, not Fastify's
 * English one. The URL itself is not logged (it may be anything).
 */
export function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const [status, message] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, serverMessages.http.badUrl]
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, serverMessages.http.urlTooLong]
        : [500, messages.session.internalError];
  if (status === 500) req.log.error({ code: error.code }, 'erro do framework');
  else req.log.info({ code: error.code, status }, 'requisição recusada');
  void reply.code(status).header('content-type', 'application/json; charset=utf-8').send({ Sucesso: false, Mensagem: message });
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser cannot read (a bad
 * Content-Length, a broken request line, headers too large, a request that took too long) never
 * reaches Fastify. It gets a raw HTTP/1.1 answer with our envelope, and the connection is
 * closed, as Node itself would. The raw bytes (they may carry a token) are never logged.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message = status === 400 ? serverMessages.http.badRequest : clientErrorMessage(status);
  this.log.info({ code: error.code, status }, 'requisição malformada recusada');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ Sucesso: false, Mensagem: message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
    () => socket.destroy(),
  );
}
