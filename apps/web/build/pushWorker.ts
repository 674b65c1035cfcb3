import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin, type Rolldown } from 'vite';

/** Where the service worker finds it: beside sw.js (importScripts resolves against the worker's address). */
export const PUSH_WORKER_FILE = 'push-worker.js';

const SOURCE = path.resolve(import.meta.dirname, '..', 'src', 'pwa', 'push', 'worker.ts');

/** Gzipped bytes: it is loaded by every start of the worker; zod or a screen pulled in would fail this. */
const BUDGET_GZIP_BYTES = 2048;

/**
 * Issue 25: the service worker's push and notification-click handlers (src/pwa/push/worker.ts),
 * built on their own into one classic script (importScripts takes no modules) that imports nothing,
 * written as dist/push-worker.js before vite-plugin-pwa generates sw.js, which imports it (and
 * precaches it, so a new version of it is a new sw.js the driver is asked to update to).
 */
export function pushWorker(options: { treeshake: Rolldown.InputOptions['treeshake'] }): Plugin {
  let root = '';
  return {
    name: 'portal-push-worker',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle() {
      const code = await buildPushWorker(root, options.treeshake);
      this.emitFile({ type: 'asset', fileName: PUSH_WORKER_FILE, source: code });
    },
  };
}

async function buildPushWorker(root: string, treeshake: Rolldown.InputOptions['treeshake']): Promise<string> {
  const result = await build({
    configFile: false,
    root,
    mode: 'production',
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      emptyOutDir: false,
      target: 'es2022',
      sourcemap: false,
      modulePreload: false,
      reportCompressedSize: false,
      rolldownOptions: {
        input: { 'push-worker': SOURCE },
        treeshake,
        output: { format: 'iife', entryFileNames: PUSH_WORKER_FILE },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const [chunk, ...more] = chunks;
  if (!chunk || more.length || chunk.imports.length || chunk.dynamicImports.length) {
    throw new Error(`push worker: must be one file that imports nothing, it is ${chunks.map((c) => c.fileName).join(', ')}`);
  }
  const gzipBytes = gzipSync(chunk.code, { level: 9 }).length;
  if (gzipBytes > BUDGET_GZIP_BYTES) {
    throw new Error(
      `push worker: ${String(gzipBytes)} bytes gzipped, over its budget of ${String(BUDGET_GZIP_BYTES)}: see what it imports`,
    );
  }
  return chunk.code;
}
