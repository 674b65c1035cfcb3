import fastifyCompress from '@fastify/compress';
import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** JSON answers from this size up are compressed: the lists a driver downloads on a weak connection. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * br or gzip, as the client's Accept-Encoding prefers, for JSON answers of 1 KB or more; smaller
 * ones cost more to compress than they save. Only JSON: the web app's files are precompressed at
 * build time (plugins/web.ts). Brotli at quality 4: most of quality 11's gain on small JSON for a
 * fraction of its CPU. Request bodies are never decompressed (no zip bombs in, and no hook on
 * every call).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    threshold: COMPRESS_FROM_BYTES,
    encodings: ['br', 'gzip'],
    // JSON answers and the statement's CSV export (issue 12: text that shrinks to a fifth).
    customTypes: /^(application\/json|text\/csv)(;|$)/,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    globalDecompression: false,
  });
}
