import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { runnerImport, type Plugin, type Rolldown } from 'vite';
import type * as RenderModule from '../src/prerender/renderLogin';

const ENTRY = 'src/prerender/renderLogin.tsx';
const LOGIN_SOURCE = '/src/features/auth/LoginPage.tsx';

/**
 * Writes dist/login.html: index.html with the /login screen already rendered inside #root, its
 * CSS inlined and the screen's chunks modulepreloaded. On a weak connection the first response
 * then paints the real form instead of waiting for several JavaScript round trips; the client
 * hydrates it (src/main.tsx).
 */
export function prerenderLogin(): Plugin {
  let root = process.cwd();
  return {
    name: 'portal-prerender-login',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    // writeBundle runs before precompress's closeBundle, so login.html is compressed too.
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? path.join(root, 'dist');
      const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
      const { module } = await runnerImport<typeof RenderModule>(path.join(root, ENTRY), {
        root,
        mode: 'production',
        logLevel: 'warn',
        plugins: [react()],
        // Workspace packages are TypeScript sources: transform them instead of importing them raw.
        ssr: { noExternal: [/^@portal\//] },
      });
      const { html, title } = module.renderLogin();
      const page = await buildPage({ template, html, title, marker: module.PRERENDERED_ATTRIBUTE, path: module.LOGIN_PATH, bundle, outDir });
      await writeFile(path.join(outDir, 'login.html'), page);
    },
  };
}

interface PageParts {
  template: string;
  html: string;
  title: string;
  marker: string;
  path: string;
  bundle: Rolldown.OutputBundle;
  outDir: string;
}

async function buildPage({ template, html, title, marker, path: pagePath, bundle, outDir }: PageParts): Promise<string> {
  const preloads = preloadLinks(chunkClosure(bundle, LOGIN_SOURCE), template);
  let page = replaceOnce(template, /<title>[^<]*<\/title>/, `<title>${title}</title>`);
  page = replaceOnce(page, '<div id="root"></div>', `<div id="root" ${marker}="${pagePath}">${html}</div>`);
  page = replaceOnce(page, '</head>', `    ${preloads}\n  </head>`);
  // Inline CSS: one round trip less before the first paint (the CSP allows inline styles).
  for (const match of [...page.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g)]) {
    const css = await readFile(path.join(outDir, match[1] ?? ''), 'utf8');
    page = page.replace(match[0], () => `<style>${css}</style>`);
  }
  return page;
}

/** The chunk of a source module and everything it imports, statically. */
function chunkClosure(bundle: Rolldown.OutputBundle, source: string): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const root = chunks.find((c) => c.facadeModuleId?.endsWith(source));
  if (!root) throw new Error(`prerender: no chunk for ${source}`);
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const files = new Set<string>();
  const visit = (chunk: Rolldown.OutputChunk) => {
    if (files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const dep of chunk.imports) {
      const next = byName.get(dep);
      if (next) visit(next);
    }
  };
  visit(root);
  return [...files];
}

/** modulepreload links for the files the page does not already load. */
function preloadLinks(files: string[], template: string): string {
  return files
    .filter((file) => !template.includes(`/${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join('\n    ');
}

function replaceOnce(text: string, search: string | RegExp, replacement: string): string {
  const next = text.replace(search, () => replacement);
  if (next === text) throw new Error(`prerender: ${String(search)} not found in index.html`);
  return next;
}
