import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';

/**
 * The scripts a prerendered page runs before the app (../scripts/), by name, each with its budget
 * in gzipped bytes: the first script is on every page's critical path (1.5 KB when it was written
 * by hand, decision 40), the painter beside the tag detail page's read (1.0 KB, decision 43).
 */
const SCRIPTS = {
  boot: { source: '../scripts/boot.ts', budgetGzipBytes: 2048 },
  paintVehicle: { source: '../scripts/paintVehicle.ts', budgetGzipBytes: 1536 },
} as const;

export type EarlyScript = keyof typeof SCRIPTS;

export interface BuiltScript {
  /** Where it goes in the build (assets/boot-<hash>.js). */
  fileName: string;
  code: string;
  gzipBytes: number;
}

interface Options {
  root: string;
  mode: string;
  /** The app's own tree-shaking (vite.config.ts): the domain's modules are pure. */
  treeshake: Rolldown.InputOptions['treeshake'];
}

/**
 * Each script, built on its own into one file that imports nothing: what it imports (markup.ts's
 * names, the domain's formatters, lib/storage.ts's read of the token) is copied into it. Built with
 * the app, a module both import would be a chunk of its own, one more round trip before the read is
 * asked for; so the scripts once repeated those names and functions by hand. Fails over its budget.
 */
export async function buildEarlyScripts({ root, mode, treeshake }: Options): Promise<Record<EarlyScript, BuiltScript>> {
  const built = await Promise.all(
    (Object.keys(SCRIPTS) as EarlyScript[]).map(async (name) => [name, await buildScript(name, { root, mode, treeshake })] as const),
  );
  return Object.fromEntries(built) as Record<EarlyScript, BuiltScript>;
}

async function buildScript(name: EarlyScript, { root, mode, treeshake }: Options): Promise<BuiltScript> {
  const { source, budgetGzipBytes } = SCRIPTS[name];
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
        input: { [name]: path.join(import.meta.dirname, source) },
        // The painter is loaded for what it exports (paintVehicle).
        preserveEntrySignatures: 'exports-only',
        treeshake,
        output: { entryFileNames: 'assets/[name]-[hash].js' },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const [chunk, ...more] = chunks;
  if (!chunk || more.length || chunk.imports.length || chunk.dynamicImports.length) {
    const files = chunks.map((c) => `${c.fileName} (imports ${[...c.imports, ...c.dynamicImports].join(', ') || 'nothing'})`);
    throw new Error(`early paint: ${name} must be one file that imports nothing (one request), it is ${files.join('; ')}`);
  }
  const gzipBytes = gzipSync(chunk.code, { level: 9 }).length;
  if (gzipBytes > budgetGzipBytes) {
    const over = `${String(gzipBytes)} bytes gzipped, over its budget of ${String(budgetGzipBytes)}`;
    throw new Error(`early paint: ${name} is ${over}: see what it imports`);
  }
  return { fileName: chunk.fileName, code: chunk.code, gzipBytes };
}
