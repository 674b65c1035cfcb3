import path from 'node:path';
import { buildStandaloneScript, type BuildSettings, type BuiltScript } from '../../../build/standaloneScript';

export type { BuiltScript } from '../../../build/standaloneScript';

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

/**
 * Each script, built on its own into one file that imports nothing (build/standaloneScript.ts): what
 * it imports (markup.ts's names, the domain's formatters, lib/storage.ts's read of the token) is
 * copied into it. Built with the app, a module both import would be a chunk of its own, one more
 * round trip before the read is asked for; so the scripts once repeated those names and functions
 * by hand. Fails over its budget.
 */
export async function buildEarlyScripts(settings: BuildSettings): Promise<Record<EarlyScript, BuiltScript>> {
  const built = await Promise.all(
    (Object.keys(SCRIPTS) as EarlyScript[]).map(async (name) => {
      const { source, budgetGzipBytes } = SCRIPTS[name];
      const script = await buildStandaloneScript(
        {
          label: `early paint: ${name}`,
          name,
          source: path.join(import.meta.dirname, source),
          budgetGzipBytes,
          format: 'es',
          fileName: 'assets/[name]-[hash].js',
          // The painter is loaded for what it exports (paintVehicle).
          keepExports: true,
        },
        settings,
      );
      return [name, script] as const;
    }),
  );
  return Object.fromEntries(built) as Record<EarlyScript, BuiltScript>;
}
