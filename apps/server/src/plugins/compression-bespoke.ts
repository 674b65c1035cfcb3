import { Negotiator } from '@fastify/accept-negotiator';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** JSON answers from this size up are compressed: the lists a driver downloads on a weak connection. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * JSON answers, the statement's CSV export (issue 12: text that shrinks to a fifth) and the plate
 * pages written per request (plugins/web.ts); the build's own files come precompressed.
 */
const COMPRESSIBLE = /^(application\/json|text\/csv|text\/html)(;|$)/;

type Encoding = 'br' | 'gzip';

// Brotli at quality 4: most of quality 11's gain on small JSON for a fraction of its CPU.
const brotli = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

const compressSync: Record<Encoding, (input: Buffer | string) => Buffer> = {
  br: (input) => brotliCompressSync(input, brotli),
  gzip: (input) => gzipSync(input),
};

const compressStream: Record<Encoding, () => NodeJS.ReadWriteStream> = {
  br: () => createBrotliCompress(brotli),
  gzip: () => createGzip(),
};

const isStream = (payload: unknown): payload is Readable => typeof (payload as Readable | null)?.pipe === 'function';

/**
 * br or gzip, as the client's Accept-Encoding prefers, for JSON answers and plate pages of 1 KB or
 * more and for the CSV export (a stream); smaller answers cost more to compress than they save.
 * Only these: the web app's files are precompressed at build time (plugins/web.ts). Request bodies
 * are never decompressed (no zip bombs in).
 *
 * One onSend hook whose first question is the answer's size: the balance call and every other
 * small answer leave it after a length check. @fastify/compress, which did this before, added an
 * onRequest and an onSend hook to every route and negotiated the encoding before looking at the
 * size, about a twentieth of the balance call's time (docs/decisions.md, "The hot path").
 */
export function registerBespokeCompression(app: FastifyInstance): void {
  const negotiator = new Negotiator<Encoding>({ supportedValues: ['br', 'gzip'], cache: new Map() });
  const encodingFor = (req: FastifyRequest, reply: FastifyReply): Encoding | null => {
    if (reply.statusCode === 206 || reply.hasHeader('content-encoding')) return null;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return null;
    const accepted = req.headers['accept-encoding'];
    return accepted ? negotiator.negotiate(accepted.toLowerCase()) : null;
  };

  app.addHook('onSend', (req, reply, payload, done) => {
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      if (Buffer.byteLength(payload) < COMPRESS_FROM_BYTES) return done(null, payload);
      const encoding = encodingFor(req, reply);
      if (!encoding) return done(null, payload);
      markEncoded(reply, encoding);
      return done(null, compressSync[encoding](payload));
    }
    if (!isStream(payload)) return done(null, payload);
    const encoding = encodingFor(req, reply);
    if (!encoding) return done(null, payload);
    markEncoded(reply, encoding);
    reply.removeHeader('content-length');
    const compressed = compressStream[encoding]();
    // A failure on either side destroys both; Fastify then ends the answer and logs the error.
    pipeline(payload, compressed, () => undefined);
    return done(null, compressed);
  });
}

function markEncoded(reply: FastifyReply, encoding: Encoding): void {
  const vary = reply.getHeader('vary');
  void reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
  void reply.header('content-encoding', encoding);
}
