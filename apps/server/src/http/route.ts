import type { Endpoint } from '@portal/contract';
import type { Capability } from '@portal/domain';
import { errorResponse } from '@portal/contract';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import type { SessionLookup } from '../modules/auth/sessions.js';
import type { AuthedDriver } from './authenticate.js';
import { requireDriver, requireDriverWithTerms } from './authenticate.js';
import { idempotencyOnSend, idempotencyPreHandler } from './idempotency.js';
import type { Acting } from '../modules/fleet/access.js';
import { recordCompanyAction } from './audit-trail.js';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteContext<E extends Endpoint> {
  body: Out<E['body']>;
  params: Out<E['params']>;
  query: Out<E['query']>;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface DriverRouteContext<E extends Endpoint, D extends AuthedDriver = AuthedDriver> extends RouteContext<E> {
  /** The account the call acts on: the person's own, or the company chosen in X-Conta (decision 77). */
  driver: D;
  /** Who acts on it, in which role, and (a Motorista) on which vehicles. */
  acting: Acting;
}

interface Options {
  /** Success status; 200 unless the contract's call creates something. */
  status?: 200 | 201 | 202;
  /** Runs before the body is parsed (public calls with their own authentication, e.g. webhooks). */
  onRequest?: onRequestAsyncHookHandler;
  /** Bytes of body this call reads, when not the app's (a partner's batch, decision 55). */
  bodyLimit?: number;
  /** The handler records the company's audit trail itself, with before and after, in its transaction. */
  recordsOwnTrail?: boolean;
}

const IDEMPOTENT_NOTE =
  'Aceita o cabeçalho Idempotency-Key (1 a 255 caracteres visíveis, um por intenção do motorista): ' +
  'a mesma chave com o mesmo pedido devolve a primeira resposta (Idempotent-Replayed: true) sem repetir nada; ' +
  'com outro pedido, 409. Chaves por motorista, guardadas por 24 horas.';

const TERMS_NOTE = 'Exige o aceite do termo de uso vigente: sem ele, 403 com code TERMS_NOT_ACCEPTED.';

function schemaOf(e: Endpoint, status: number, also?: number) {
  const errors = { '4xx': errorResponse, '5xx': errorResponse };
  const notes = [e.idempotent ? IDEMPOTENT_NOTE : '', e.requiresTerms ? TERMS_NOTE : ''].filter(Boolean);
  return {
    summary: e.summary,
    ...(notes.length ? { description: notes.join(' ') } : {}),
    tags: [e.path.split('/')[2] ?? 'api'],
    ...(e.auth ? { security: [{ bearerAuth: [] }] } : {}),
    ...(e.body ? { body: e.body } : {}),
    ...(e.params ? { params: e.params } : {}),
    ...(e.query ? { querystring: e.query } : {}),
    // A file's success answer is not JSON: only its refusals have a schema.
    response: e.file ? errors : { [status]: e.response, ...(also ? { [also]: e.response } : {}), ...errors },
  };
}

function contextOf<E extends Endpoint>(req: FastifyRequest, reply: FastifyReply): RouteContext<E> {
  // The contract's schemas already validated and transformed these (validatorCompiler).
  return {
    body: req.body as Out<E['body']>,
    params: req.params as Out<E['params']>,
    query: req.query as Out<E['query']>,
    req,
    reply,
  };
}

/** Decision 77: every authenticated call names what it needs of the acting role; none is registered without. */
function capabilityOf(e: Endpoint): Capability {
  if (!e.capability) throw new Error(`${e.path}: a chamada autenticada não diz a sua capability (decisão 77)`);
  return e.capability;
}

/** Registers a public call of the contract: path, method and schemas come from the endpoint. */
export function publicRoute<E extends Endpoint>(
  app: FastifyInstance,
  e: E,
  handler: (ctx: RouteContext<NoInfer<E>>) => Promise<NoInfer<z.output<E['response']>>>,
  options: Options & {
    /** Chooses the success status from the answer (201 created, 200 already there); both are declared. */
    statusOf?: (body: NoInfer<z.output<E['response']>>) => 200 | 201;
  } = {},
): void {
  if (e.auth) throw new Error(`${e.path} exige autenticação: use driverRoute`);
  const status = options.status ?? 200;
  const { statusOf } = options;
  app.route({
    method: e.method,
    url: e.path,
    schema: schemaOf(e, status, statusOf ? (status === 200 ? 201 : 200) : undefined),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: async (req, reply) => {
      const body = await handler(contextOf<E>(req, reply));
      return reply.code(statusOf ? statusOf(body) : status).send(body);
    },
  });
}

/**
 * Registers a call that needs a signed-in driver (401 otherwise). `session` replaces the app's
 * session lookup with one that reads what the call needs in the same statement. A call the
 * contract marks `idempotent` accepts the Idempotency-Key header (http/idempotency.ts): checked
 * after the body is parsed, the first answer stored as it is sent. A call it marks
 * `requiresTerms` needs the current terms accepted (403 otherwise, founding decision 27).
 */
export function driverRoute<E extends Endpoint, D extends AuthedDriver = AuthedDriver>(
  app: FastifyInstance,
  e: E,
  handler: (ctx: DriverRouteContext<NoInfer<E>, NoInfer<D>>) => Promise<NoInfer<z.output<E['response']>>>,
  options: Options & { session?: SessionLookup<D> } = {},
): void {
  if (!e.auth) throw new Error(`${e.path} é pública: use publicRoute`);
  if (e.requiresTerms && options.session) throw new Error(`${e.path}: requiresTerms lê a sessão com a sua própria consulta`);
  const capability = capabilityOf(e);
  const status = options.status ?? 200;
  app.route({
    method: e.method,
    url: e.path,
    schema: schemaOf(e, status),
    onRequest: e.requiresTerms ? requireDriverWithTerms(capability) : requireDriver(capability, options.session),
    ...(e.idempotent ? { preHandler: idempotencyPreHandler, onSend: idempotencyOnSend } : {}),
    handler: async (req, reply) => {
      // requireDriver set it, from options.session when given: a D.
      const driver = req.driver as D | null;
      const acting = req.acting;
      if (!driver || !acting) throw new Error('requireDriver não executou');
      const ctx = { ...contextOf<E>(req, reply), driver, acting };
      const body = await handler(ctx);
      if (!options.recordsOwnTrail) await recordCompanyAction(e, ctx);
      return reply.code(status).send(body);
    },
  });
}

/** What a file call answers: streamed when body is a stream (a 100,000-row export never sits in memory). */
export interface FileAnswer {
  /** One of the endpoint's declared file.contentTypes. */
  contentType: string;
  /** ASCII, e.g. extrato-2026-11.csv. */
  fileName: string;
  body: Readable | Buffer | string;
  /** attachment (download, the default) or inline (opened in the browser's viewer). */
  disposition?: 'attachment' | 'inline';
}

/**
 * Registers a driver call of the contract whose success answer is a file (the contract's `file`):
 * same authentication and validation as driverRoute; refusals are the JSON envelope; the answer
 * is never cached by the browser or a proxy (it is the driver's money).
 */
export function driverFileRoute<E extends Endpoint>(
  app: FastifyInstance,
  e: E,
  handler: (ctx: DriverRouteContext<NoInfer<E>>) => Promise<FileAnswer>,
): void {
  const file = e.file;
  if (!e.auth || !file) throw new Error(`${e.path} não é uma chamada de arquivo autenticada`);
  const capability = capabilityOf(e);
  app.route({
    method: e.method,
    url: e.path,
    schema: schemaOf(e, 200),
    onRequest: e.requiresTerms ? requireDriverWithTerms(capability) : requireDriver(capability),
    handler: async (req, reply) => {
      const driver = req.driver;
      const acting = req.acting;
      if (!driver || !acting) throw new Error('requireDriver não executou');
      const ctx = { ...contextOf<E>(req, reply), driver, acting };
      const answer = await handler(ctx);
      await recordCompanyAction(e, ctx);
      if (!file.contentTypes.includes(answer.contentType)) throw new Error(`${e.path}: ${answer.contentType} não declarado no contrato`);
      if (!/^[\w.-]+$/.test(answer.fileName)) throw new Error(`${e.path}: nome de arquivo fora do ASCII simples`);
      return reply
        .code(200)
        .header('content-type', answer.contentType)
        .header('content-disposition', `${answer.disposition ?? 'attachment'}; filename="${answer.fileName}"`)
        .header('cache-control', 'no-store')
        .send(answer.body);
    },
  });
}

/**
 * A public call whose success answer is a file (decision 70: the closing receipt, fetched after the
 * closing ended every session, through a short-lived link): refusals are the JSON envelope; never cached.
 */
export function publicFileRoute<E extends Endpoint>(
  app: FastifyInstance,
  e: E,
  handler: (ctx: RouteContext<NoInfer<E>>) => Promise<FileAnswer>,
): void {
  const file = e.file;
  if (e.auth || !file) throw new Error(`${e.path} não é uma chamada de arquivo pública`);
  app.route({
    method: e.method,
    url: e.path,
    schema: schemaOf(e, 200),
    handler: async (req, reply) => {
      const answer = await handler(contextOf<E>(req, reply));
      if (!file.contentTypes.includes(answer.contentType)) throw new Error(`${e.path}: ${answer.contentType} não declarado no contrato`);
      if (!/^[\w.-]+$/.test(answer.fileName)) throw new Error(`${e.path}: nome de arquivo fora do ASCII simples`);
      return reply
        .code(200)
        .header('content-type', answer.contentType)
        .header('content-disposition', `${answer.disposition ?? 'attachment'}; filename="${answer.fileName}"`)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(answer.body);
    },
  });
}
