import { createRequire } from 'node:module';
import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';

/** Fields that must never reach a log line, wherever they appear (bodies are never logged anyway). */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'password',
  'password_confirmation',
  'token',
  'Token',
  '*.password',
  '*.password_confirmation',
  '*.token',
  '*.Token',
];

/** Query parameters whose short values are kept in logs (the contract's paging and sorting). */
const PLAIN_QUERY_KEYS = new Set(['page', 'sort', 'direction']);
const PLAIN_VALUE = /^[\w-]{1,16}$/;

/**
 * A URL as it may be logged: the path as it came, every query value replaced by [redacted]
 * (a token put in a query string is a secret like the Authorization header), except the
 * paging and sorting parameters when they are short words.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const key = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      return PLAIN_QUERY_KEYS.has(key) && PLAIN_VALUE.test(value) ? pair : `${key}=[redacted]`;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/** Whatever logs a request object gets its method and redacted URL, never its headers. */
function serializeRequest(req: { method?: string; url?: string }) {
  return { method: req.method, url: typeof req.url === 'string' ? redactUrl(req.url) : undefined };
}

/**
 * A person at a terminal in development reads colored lines (pino-pretty); production, tests,
 * and any output that is not a terminal (a file, journald, a pipe) get one JSON object a line.
 */
export function wantsPrettyLogs(env: NodeJS.ProcessEnv = process.env, isTty = process.stdout.isTTY === true): boolean {
  return isTty && env.NODE_ENV !== 'production' && env.NODE_ENV !== 'test' && env.VITEST === undefined;
}

/**
 * pino-pretty is a development dependency, loaded only when wanted; without it (a production
 * install), JSON. Synchronous, in this thread: a worker transport would not survive the bundle.
 */
function prettyStream(): DestinationStream | null {
  try {
    const load = createRequire(import.meta.url);
    const pretty = load('pino-pretty') as (options: Record<string, unknown>) => DestinationStream;
    return pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true });
  } catch {
    return null;
  }
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest },
  };
  const stream = destination ?? (wantsPrettyLogs() ? prettyStream() : null);
  return pino(options, stream ?? bufferedStdout());
}

/** A busy instance's lines leave in writes of about this size... */
const LOG_BUFFER_BYTES = 4096;
/** ...and a quiet one's within this time. */
const LOG_FLUSH_MS = 1000;

/**
 * stdout in writes of 4 KB (some 15 request lines) rather than one per line: the line was about a
 * tenth of the balance call's time, mostly the write. Written from this thread (sync), as pino
 * does by default: handing each 4 KB to libuv's thread pool (sync: false) cost the balance call
 * more than the write itself, in thread wake-ups (docs/decisions.md, "The hot path"). pino writes
 * what is left when the process exits (also on SIGTERM and on a crash); a SIGKILL loses at most
 * the last second's lines.
 */
function bufferedStdout(): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: true, minLength: LOG_BUFFER_BYTES });
  setInterval(() => stdout.flush(), LOG_FLUSH_MS).unref();
  return stdout;
}
