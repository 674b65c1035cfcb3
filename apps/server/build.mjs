// Bundles src/main.ts (and the @portal/* workspace packages it imports) into dist/main.js.
// Every other dependency stays external and is loaded from node_modules at run time.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@portal/'));

await build({
  entryPoints: { main: 'src/main.ts', cli: 'src/cli.ts' },
  // Tests that run the server as a process build a copy of their own (test/helpers/server-process.ts).
  outdir: process.env.SERVER_BUILD_OUTDIR ?? 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  absWorkingDir: new URL('.', import.meta.url).pathname,
  logLevel: 'info',
  // Bundled CommonJS dependencies of the workspace packages may call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
