import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * CSP without inline scripts (Mantine needs inline styles; the service worker is registered from
 * the bundle), no framing, nosniff, referrer
 * policy; HSTS only when served behind TLS. helmet decides the headers; they are the same for
 * every response, so they are computed once at start and copied onto each reply
 * (@fastify/helmet rebuilt the policy per request, about a fifth of a small call's cost).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { hsts: boolean }): void {
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        // The web app's service worker (/sw.js) and manifest (/manifest.webmanifest), same origin only.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.hsts ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: options.hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  const headers = headersSetBy(applyHeaders);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** Runs the middleware once against a recording response and returns the headers it set. */
function headersSetBy(middleware: Middleware): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      return recorder;
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  let failure: unknown = null;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    failure = error ?? null;
  });
  if (failure) throw failure;
  return headers;
}
