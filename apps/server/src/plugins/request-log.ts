import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import { redactUrl } from '../logger.js';
import type { EveryRequest } from './every-request.js';

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

type LogLevelMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's logger (req.log, bound to its reqId) that becomes a pino child the first time the
 * request logs something. Most requests log nothing but their one line (written below, not
 * through req.log), and a pino child per request cost about 1 µs.
 */
class DeferredChildLogger implements FastifyBaseLogger {
  #logger: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.#logger ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#logger?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  // Methods on the prototype: seven closures per request (one per level) were garbage on every call.
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(...args: unknown[]): void {
    this.write('silent', args);
  }

  private write(method: LogLevelMethod, args: unknown[]): void {
    (this.logger[method] as (...args: unknown[]) => void)(...args);
  }
}

/** Fastify's childLoggerFactory (the option of the same name). */
export function deferredChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new DeferredChildLogger(logger, bindings, options);
}

/**
 * One line per request, when it completes (Fastify's default writes two), with its id (reqId),
 * which the answer also carries in X-Request-Id. No headers, no bodies: paths carry no
 * CPF/CNPJ, tokens travel in the Authorization header, and query values (where a careless
 * client may put a token) are redacted.
 */
export function requestLog(app: FastifyInstance): EveryRequest {
  // The line's fields are built right here and carry no secret (the URL's query is redacted
  // below), so it skips pino's path redaction: about 4 µs of every request's 6 µs of logging.
  const lines = app.log.child({}, { redact: [] });
  return {
    onRequest: (req, reply) => void reply.header(REQUEST_ID_HEADER, req.id),
    onResponse: (req, reply) => {
      if (req.routeOptions.config.probe) return;
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
    },
  };
}
