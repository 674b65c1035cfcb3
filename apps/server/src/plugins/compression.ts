import fastifyCompress from '@fastify/compress';
import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { registerBespokeCompression } from './compression-bespoke.js';

/**
 * br or gzip, as the client's Accept-Encoding prefers (@fastify/compress, the Fastify team's
 * plugin), for JSON answers and plate pages of 1 KB or more and for the statement's CSV export (a
 * stream: issue 12, text that shrinks to a fifth); smaller answers cost more to compress than they
 * save. An answer that already has a Content-Encoding (the web app's files, precompressed at build
 * time: plugins/web.ts) is left alone. Request bodies are never decompressed (no zip bombs in).
 *
 * Registered before the routes: the plugin adds its hooks to each route as it is declared.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // TEMPORARY (issue 22 measurement): the bespoke hook for the bench's comparison.
  if (process.env.PORTAL_BENCH_BESPOKE?.includes('compression')) return registerBespokeCompression(app);
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: /^(application\/json|text\/csv|text\/html)(;|$)/,
    // Brotli at quality 4: most of quality 11's gain on small JSON for a fraction of its CPU.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    globalDecompression: false,
  });
}
