import { messages } from '@portal/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ZodFastifySchemaValidationError } from 'fastify-type-provider-zod';
import { HttpError } from '../http/errors.js';
import type { FieldErrorList } from '../http/errors.js';

/** Contract issues -> { field: [messages] }. Only the domain's own (custom) messages reach the driver. */
function fieldErrors(issues: ZodFastifySchemaValidationError[]): { first: string; errors: FieldErrorList } {
  const errors: FieldErrorList = {};
  let first: string | null = null;
  for (const issue of issues) {
    const message = issue.keyword === 'custom' && issue.message ? issue.message : messages.session.invalidRequest;
    first ??= message;
    const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (!field) continue;
    const list = (errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return { first: first ?? messages.session.invalidRequest, errors };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const { first, errors } = fieldErrors(error.validation);
      return reply.code(422).send({ Sucesso: false, Mensagem: first, errors });
    }
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .send({
          Sucesso: false,
          Mensagem: error.message,
          ...(error.errors ? { errors: error.errors } : {}),
          ...(error.error ? { error: error.error } : {}),
        });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, body too large...: the client's fault, never a 500.
      req.log.info({ code: error.code, status }, 'requisição recusada');
      return reply.code(status).send({ Sucesso: false, Mensagem: messages.session.invalidRequest });
    }
    req.log.error({ err: error }, 'erro inesperado');
    return reply.code(500).send({ Sucesso: false, Mensagem: messages.session.internalError });
  });
}
