import fastifyCompress from '@fastify/compress';
import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/**
 * br or gzip, as the client's Accept-Encoding prefers, by @fastify/compress (the Fastify team's
 * plugin): JSON answers and plate pages of 1 KB or more (smaller ones cost more to compress than
 * they save) and the statement's CSV export (a stream: issue 12, text that shrinks to a fifth); the
 * plugin also takes the types mime-db calls compressible (plain text, a small script the build did
 * not precompress). An answer that already has a Content-Encoding (the web app's files,
 * precompressed at build time: plugins/web.ts) is left alone, and so is a partial one (206).
 * Request bodies are never decompressed (no zip bombs in).
 *
 * Registered before the routes: the plugin adds its hooks to each route as it is declared.
 * A hand-written onSend hook replaced it for a few percent of one call's server time; under the
 * mixed load (`npm run bench -- load`) the two measured the same, so the plugin is back (issue 22).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: /^(application\/json|text\/csv|text\/html)(;|$)/,
    // Brotli at quality 4: most of quality 11's gain on small JSON for a fraction of its CPU.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    globalDecompression: false,
  });
}
