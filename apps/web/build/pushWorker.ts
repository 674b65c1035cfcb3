import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import { buildStandaloneScript } from './standaloneScript';

/** Where the service worker finds it: beside sw.js (importScripts resolves against the worker's address). */
export const PUSH_WORKER_FILE = 'push-worker.js';

/**
 * Issue 25: the service worker's push and notification-click handlers (src/pwa/push/worker.ts),
 * built on their own into one classic script that imports nothing (build/standaloneScript.ts),
 * written as dist/push-worker.js before vite-plugin-pwa generates sw.js, which imports it (and
 * precaches it, so a new version of it is a new sw.js the driver is asked to update to). Loaded by
 * every start of the worker: 2 KB gzipped at most.
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
      const { code } = await buildStandaloneScript(
        {
          label: 'push worker',
          name: 'push-worker',
          source: path.resolve(import.meta.dirname, '..', 'src', 'pwa', 'push', 'worker.ts'),
          budgetGzipBytes: 2048,
          format: 'iife',
          fileName: PUSH_WORKER_FILE,
        },
        { root, mode: 'production', treeshake: options.treeshake },
      );
      this.emitFile({ type: 'asset', fileName: PUSH_WORKER_FILE, source: code });
    },
  };
}
