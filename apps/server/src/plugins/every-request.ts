import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type Step = (req: FastifyRequest, reply: FastifyReply) => void;

/** What a plugin does on every request, synchronously: when it arrives and once it is answered. */
export interface EveryRequest {
  /** Before the route's own hooks (authentication, limits) and before the body is read. */
  onRequest?: Step;
  /** After the answer is sent (the request line, the metrics). */
  onResponse?: Step;
}

/**
 * The app-wide work of every request as one onRequest and one onResponse hook, the plugins'
 * steps run in the order given. Fastify runs each hook through its hook runner (a callback, an
 * error path, a step of its loop): four such hooks a request were a measurable part of the
 * smallest calls (docs/decisions.md, "The hot path").
 */
export function registerEveryRequest(app: FastifyInstance, plugins: EveryRequest[]): void {
  const arriving = plugins.flatMap((p) => (p.onRequest ? [p.onRequest] : []));
  const answered = plugins.flatMap((p) => (p.onResponse ? [p.onResponse] : []));
  if (arriving.length > 0) {
    app.addHook('onRequest', (req, reply, done) => {
      for (const step of arriving) step(req, reply);
      done();
    });
  }
  if (answered.length > 0) {
    app.addHook('onResponse', (req, reply, done) => {
      for (const step of answered) step(req, reply);
      done();
    });
  }
}
