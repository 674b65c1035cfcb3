import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest|txt|map)$/;
const MIN_BYTES = 1024;

/**
 * Writes .br and .gz beside every text asset at build time, so the server sends them
 * pre-compressed (@fastify/static preCompressed) without spending CPU per request: on a weak
 * mobile connection the bytes, not the server, are the cost.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // Last, after the service worker and the manifest are written (vite-plugin-pwa's closeBundle).
    closeBundle: { order: 'post', sequential: true, handler: compressAll },
  };

  async function compressAll(): Promise<void> {
    const files = await listFiles(outDir);
    await Promise.all(
      files
        .filter((file) => COMPRESSIBLE.test(file))
        .map(async (file) => {
          const content = await readFile(file);
          if (content.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotliAsync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
            gzipAsync(content, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
    );
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}
