import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';

/** A script built on its own into one file that imports nothing: what it imports is copied into it. */
export interface StandaloneScript {
  /** Named in the build's failures ('early paint: boot', 'push worker'). */
  label: string;
  /** Its entry's name, and its source (an absolute path). */
  name: string;
  source: string;
  /** Gzipped bytes it may weigh: something heavy pulled in (zod, a screen) fails the build. */
  budgetGzipBytes: number;
  /** 'es' for a module the page imports, 'iife' for a classic script (importScripts takes no modules). */
  format: 'es' | 'iife';
  /** Rolldown's entryFileNames: where it goes in the build. */
  fileName: string;
  /** Kept for a module loaded for what it exports. */
  keepExports?: boolean;
}

export interface BuiltScript {
  fileName: string;
  code: string;
  gzipBytes: number;
}

export interface BuildSettings {
  root: string;
  mode: string;
  /** The app's own tree-shaking (vite.config.ts): the domain's modules are pure. */
  treeshake: Rolldown.InputOptions['treeshake'];
}

/**
 * Builds the script alone (not with the app: a module both import would become a chunk of its own,
 * one more request) and refuses it when it is more than one file or over its budget.
 */
export async function buildStandaloneScript(script: StandaloneScript, { root, mode, treeshake }: BuildSettings): Promise<BuiltScript> {
  const result = await build({
    configFile: false,
    root,
    mode,
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
        input: { [script.name]: script.source },
        ...(script.keepExports ? { preserveEntrySignatures: 'exports-only' as const } : {}),
        treeshake,
        output: { format: script.format, entryFileNames: script.fileName },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const [chunk, ...more] = chunks;
  if (!chunk || more.length || chunk.imports.length || chunk.dynamicImports.length) {
    const files = chunks.map((c) => `${c.fileName} (imports ${[...c.imports, ...c.dynamicImports].join(', ') || 'nothing'})`);
    throw new Error(`${script.label} must be one file that imports nothing (one request), it is ${files.join('; ')}`);
  }
  const gzipBytes = gzipSync(chunk.code, { level: 9 }).length;
  if (gzipBytes > script.budgetGzipBytes) {
    const over = `${String(gzipBytes)} bytes gzipped, over its budget of ${String(script.budgetGzipBytes)}`;
    throw new Error(`${script.label} is ${over}: see what it imports`);
  }
  return { fileName: chunk.fileName, code: chunk.code, gzipBytes };
}
