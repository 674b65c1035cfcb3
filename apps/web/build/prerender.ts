import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { runnerImport, type Plugin, type Rolldown } from 'vite';
import type { ScreenKey } from '../src/app/routes';
import { cssModuleExports } from './cssModules';
import type * as RenderModule from '../src/prerender/renderPage';

const ENTRY = 'src/prerender/renderPage.tsx';
const BOOT_SOURCE = '/src/boot/boot.ts';

/** The source module of each screen the prerendered pages use (routes.tsx's screenLoaders). */
const SCREEN_SOURCES: Partial<Record<ScreenKey, string>> = {
  login: '/src/features/auth/LoginPage.tsx',
  shell: '/src/app/AuthenticatedShell.tsx',
  dashboard: '/src/app/routes/DashboardRoute.tsx',
  registrar: '/src/features/auth/RegisterPage.tsx',
  'saldo/retirar': '/src/features/withdrawal/WithdrawPage.tsx',
  'saldo/comprar': '/src/features/credit/BuyBalancePage.tsx',
  'tags/detalhes/:licensePlate': '/src/features/tags/TagDetailPage.tsx',
  'tags/editar/:licensePlate': '/src/features/tags/TagEditPage.tsx',
  'tags/listar': '/src/features/tags/TagsListPage.tsx',
  'tags/adicionar': '/src/features/tags/TagRegisterPage.tsx',
  'veiculos/listar': '/src/features/vehicles/VehiclesListPage.tsx',
  'vpos/listar': '/src/features/vpos/VposListPage.tsx',
  'extrato/listar': '/src/features/statement/StatementPage.tsx',
};

/** dist/prerendered.json: which file the server sends for which path (apps/server/src/plugins/web.ts). */
export const PRERENDERED_MANIFEST = 'prerendered.json';

/**
 * Writes one HTML file per prerendered page (src/prerender/pages.ts): index.html with the screen
 * already rendered inside #root, its CSS inlined and its chunks modulepreloaded, as <path>.html
 * (/dashboard -> dashboard.html, /tags/listar -> tags/listar.html: the names Workbox's cleanURLs
 * finds for a navigation), and prerendered.json for the server. On a weak connection the first
 * response then paints the screen instead of waiting for several JavaScript round trips; the
 * client hydrates it (src/main.tsx).
 */
export function prerenderPages(): Plugin {
  let root = process.cwd();
  return {
    name: 'portal-prerender-pages',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    // writeBundle runs before precompress's closeBundle, so the pages are compressed too.
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? path.join(root, 'dist');
      const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
      const { module } = await runnerImport<typeof RenderModule>(path.join(root, ENTRY), {
        root,
        mode: 'production',
        logLevel: 'warn',
        plugins: [react(), cssForNode(root)],
        // Workspace packages are TypeScript sources: transform them instead of importing them raw.
        ssr: { noExternal: [/^@portal\//] },
      });
      const manifest: Record<string, string> = {};
      for (const prerendered of module.PRERENDERED_PAGES) {
        const { path: pagePath, screens } = prerendered;
        const { html, title, templates, early, bootScript } = module.renderPage(pagePath);
        const sources = screens.map((screen) => {
          const source = SCREEN_SOURCES[screen];
          if (!source) throw new Error(`prerender: no source for the screen ${screen}`);
          return source;
        });
        const page = await buildPage({ template, html, title, templates, early, bootScript, marker: module.PRERENDERED_ATTRIBUTE, path: pagePath, sources, bundle, outDir });
        const file = module.pageFile(prerendered);
        await mkdir(path.dirname(path.join(outDir, file)), { recursive: true });
        await writeFile(path.join(outDir, file), page);
        manifest[pagePath] = file;
      }
      await writeFile(path.join(outDir, PRERENDERED_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}

/**
 * Stylesheets in the render in Node, which has no CSS pipeline: plain ones (Mantine's, global.css)
 * are nothing there (the built CSS is inlined into the page); a CSS module is its class names,
 * named as in the browser's bundle (build/cssModules.ts).
 */
function cssForNode(root: string): Plugin {
  const PREFIX = '\0portal-prerender-css:';
  const SUFFIX = '.classes.js';
  return {
    name: 'portal-prerender-css',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith('.css')) return null;
      if (!source.endsWith('.module.css')) return `${PREFIX}`;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      // Not ending in .css, or Vite's own CSS plugin (which cannot run here) would take it.
      return resolved ? `${PREFIX}${resolved.id}${SUFFIX}` : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = id.slice(PREFIX.length, id.length - SUFFIX.length);
      if (id === PREFIX) return 'export {};';
      const classes = cssModuleExports(await readFile(file, 'utf8'), file, root);
      return `export default ${JSON.stringify(classes)};`;
    },
  };
}

interface PageParts {
  template: string;
  html: string;
  title: string;
  templates: string;
  /** Attributes of <meta name="portal-app">: the read boot.ts makes at once (src/boot/). */
  early: string;
  /** A script boot.ts loads on this page alone, named on the meta by its chunk. */
  bootScript: { attribute: string; source: string } | undefined;
  marker: string;
  path: string;
  sources: string[];
  bundle: Rolldown.OutputBundle;
  outDir: string;
}

async function buildPage({ template, html, title, templates, early, bootScript, marker, path: pagePath, sources, bundle, outDir }: PageParts): Promise<string> {
  let page = replaceOnce(template, /<title>[^<]*<\/title>/, `<title>${title}</title>`);
  page = replaceOnce(page, '<div id="root"></div>', `<div id="root" ${marker}="${pagePath}">${html}</div>`);
  // The app's code loads only once the page is on screen (boot/boot.ts): its entry and every chunk
  // of the screen, listed for boot.ts instead of loaded by the page itself.
  const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\s*/.exec(page);
  if (!entry?.[1]) throw new Error('prerender: no entry script in index.html');
  const entryPreloads = [...page.matchAll(/<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\s*/g)];
  for (const match of [entry, ...entryPreloads]) page = page.replace(match[0], '');
  const chunks = chunkClosure(bundle, sources);
  const app = [...new Set([entry[1], ...entryPreloads.map((m) => m[1]), ...chunks.map((c) => `/${c.fileName}`)])];
  const boot = standaloneChunk(bundle, BOOT_SOURCE);
  const extra = bootScript ? ` ${bootScript.attribute}="/${standaloneChunk(bundle, bootScript.source)}"` : '';
  page = replaceOnce(
    page,
    '</head>',
    `  <meta name="portal-app" content="${app.join(' ')}"${early ? ` ${early}` : ''}${extra}>\n    <script type="module" async crossorigin src="/${boot}"></script>\n  </head>`,
  );
  // Inline CSS: no round trip before the first paint (the CSP allows inline styles). The entry's
  // stylesheet replaces its <link>; the screens' own follow it, in the order the app loads them.
  const entryCss = [...page.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g)];
  for (const match of entryCss) {
    const css = await readFile(path.join(outDir, match[1] ?? ''), 'utf8');
    page = page.replace(match[0], () => `<style>${css}</style>`);
  }
  const inlined = new Set(entryCss.map((match) => match[1]));
  const screenCss = chunks.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]).filter((file) => !inlined.has(file));
  const styles = await Promise.all([...new Set(screenCss)].map((file) => readFile(path.join(outDir, file), 'utf8')));
  if (styles.length) page = replaceOnce(page, '</head>', `  <style>${styles.join('\n')}</style>\n  </head>`);
  if (templates) page = replaceOnce(page, '</body>', `  ${templates}\n  </body>`);
  return page;
}

/** The prerendered pages' own script, or one it loads (vite.config.ts builds each as an entry): one request each. */
function standaloneChunk(bundle: Rolldown.OutputBundle, source: string): string {
  const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId?.endsWith(source));
  if (!chunk || chunk.type !== 'chunk') throw new Error(`prerender: no chunk for ${source}`);
  if (chunk.imports.length || chunk.dynamicImports.length) {
    throw new Error(`prerender: ${source} must import nothing (one request), it imports ${[...chunk.imports, ...chunk.dynamicImports].join(', ')}`);
  }
  return chunk.fileName;
}

/** The chunks of some source modules and everything they import, statically, in load order. */
function chunkClosure(bundle: Rolldown.OutputBundle, sources: string[]): Rolldown.OutputChunk[] {
  const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Map<string, Rolldown.OutputChunk>();
  const visit = (chunk: Rolldown.OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    for (const dep of chunk.imports) {
      const next = byName.get(dep);
      if (next) visit(next);
    }
    seen.set(chunk.fileName, chunk);
  };
  for (const source of sources) {
    const root = chunks.find((c) => c.facadeModuleId?.endsWith(source));
    if (!root) throw new Error(`prerender: no chunk for ${source}`);
    visit(root);
  }
  return [...seen.values()];
}

function replaceOnce(text: string, search: string | RegExp, replacement: string): string {
  const next = text.replace(search, () => replacement);
  if (next === text) throw new Error(`prerender: ${String(search)} not found in index.html`);
  return next;
}
