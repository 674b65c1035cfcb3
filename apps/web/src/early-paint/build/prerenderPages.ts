import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { runnerImport, type Plugin, type Rolldown } from 'vite';
import { themeCss } from '../../../build/themeCss';
import { cssModuleExports } from '../../../build/cssModules';
import { buildEarlyScripts, type BuiltScript, type EarlyScript } from './earlyScripts';
import { chunkClosure } from './chunkClosure';
import { ROUTE_TABLE, screenSpecifiers } from './screenModules';
import type * as RenderModule from './renderPage';

/** dist/prerendered.json: which file the server sends for which path (apps/server/src/plugins/web.ts). */
const PRERENDERED_MANIFEST = 'prerendered.json';

/**
 * Writes one HTML file per prerendered page (../pages.ts): index.html with the screen already
 * rendered inside #root, its CSS inlined and its chunks listed for the first script, as <path>.html
 * (/dashboard -> dashboard.html, /tags/listar -> tags/listar.html: the names Workbox's cleanURLs
 * finds for a navigation), and prerendered.json for the server; and the scripts the pages run before
 * the app (earlyScripts.ts) beside the app's chunks. On a weak connection the first response then
 * paints the screen instead of waiting for several JavaScript round trips; the client hydrates it
 * (src/main.tsx).
 */
export function prerenderPages(): Plugin {
  let root = process.cwd();
  let treeshake: Rolldown.InputOptions['treeshake'];
  let scripts: Record<EarlyScript, BuiltScript> | undefined;
  /** Each screen's module (its resolved id), by its key in the route table. */
  const screenModules = new Map<string, string>();
  return {
    name: 'portal-prerender-pages',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      treeshake = config.build.rolldownOptions.treeshake;
    },
    // The route table as the bundler reads it (screenModules.ts): each screen's module.
    transform: {
      order: 'post',
      async handler(code, id) {
        if (id !== path.join(root, ROUTE_TABLE.file)) return null;
        for (const [key, specifier] of screenSpecifiers(this.parse(code))) {
          const resolved = await this.resolve(specifier, id);
          if (!resolved) throw new Error(`prerender: the screen ${key}'s module ${specifier} is not found`);
          screenModules.set(key, resolved.id);
        }
        return null;
      },
    },
    // The scripts join the app's files, so the service worker and the precompression take them too.
    async generateBundle() {
      scripts = await buildEarlyScripts({ root, mode: 'production', treeshake });
      for (const script of Object.values(scripts)) this.emitFile({ type: 'asset', fileName: script.fileName, source: script.code });
    },
    // writeBundle runs before precompress's closeBundle, so the pages are compressed too.
    async writeBundle(options, bundle) {
      if (!scripts) throw new Error('prerender: the early scripts were not built');
      const outDir = options.dir ?? path.join(root, 'dist');
      const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
      const { module } = await runnerImport<typeof RenderModule>(path.join(import.meta.dirname, 'renderPage.tsx'), {
        root,
        mode: 'production',
        logLevel: 'warn',
        plugins: [react(), themeCss(), cssForNode(root)],
        // Workspace packages are TypeScript sources: transform them instead of importing them raw.
        ssr: { noExternal: [/^@portal\//] },
      });
      const manifest: Record<string, string> = {};
      for (const prerendered of module.PRERENDERED_PAGES) {
        const { path: pagePath, screens } = prerendered;
        const { html, title, templates, early, bootScript } = module.renderPage(pagePath);
        const page = await buildPage({
          template,
          html,
          title,
          templates,
          early,
          boot: scripts.boot.fileName,
          extraScript: bootScript && { attribute: bootScript.attribute, fileName: scripts[bootScript.script].fileName },
          appMeta: module.APP_META_NAME,
          marker: module.PRERENDERED_ATTRIBUTE,
          path: pagePath,
          chunks: chunkClosure(
            bundle,
            screens.map((screen) => {
              const id = screenModules.get(screen);
              if (!id) throw new Error(`prerender: the route table (${ROUTE_TABLE.file}) has no screen ${screen}`);
              return id;
            }),
          ),
          outDir,
        });
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
 * named as in the browser's bundle (apps/web/build/cssModules.ts).
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
  /** Attributes of the app's <meta>: the read boot.ts makes at once. */
  early: string;
  /** boot.ts as built. */
  boot: string;
  /** A script boot.ts loads on this page alone, named on the meta by this attribute. */
  extraScript: { attribute: string; fileName: string } | undefined;
  /** The name of the <meta> boot.ts reads (markup.ts's APP_META_NAME). */
  appMeta: string;
  marker: string;
  path: string;
  /** The chunks of the page's screens and all they import, in load order. */
  chunks: Rolldown.OutputChunk[];
  outDir: string;
}

async function buildPage(parts: PageParts): Promise<string> {
  const { template, html, title, templates, early, boot, extraScript, appMeta, marker, path: pagePath, chunks, outDir } = parts;
  let page = replaceOnce(template, /<title>[^<]*<\/title>/, `<title>${title}</title>`);
  page = replaceOnce(page, '<div id="root"></div>', `<div id="root" ${marker}="${pagePath}">${html}</div>`);
  // The app's code loads only once the page is on screen (scripts/boot.ts): its entry and every
  // chunk of the screen, listed for boot.ts instead of loaded by the page itself.
  const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\s*/.exec(page);
  if (!entry?.[1]) throw new Error('prerender: no entry script in index.html');
  const entryPreloads = [...page.matchAll(/<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\s*/g)];
  for (const match of [entry, ...entryPreloads]) page = page.replace(match[0], '');
  const app = [...new Set([entry[1], ...entryPreloads.map((m) => m[1]), ...chunks.map((c) => `/${c.fileName}`)])];
  const extra = extraScript ? ` ${extraScript.attribute}="/${extraScript.fileName}"` : '';
  const meta = `<meta name="${appMeta}" content="${app.join(' ')}"${early ? ` ${early}` : ''}${extra}>`;
  page = replaceOnce(page, '</head>', `  ${meta}\n    <script type="module" async crossorigin src="/${boot}"></script>\n  </head>`);
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

function replaceOnce(text: string, search: string | RegExp, replacement: string): string {
  const next = text.replace(search, () => replacement);
  if (next === text) throw new Error(`prerender: ${String(search)} not found in index.html`);
  return next;
}
