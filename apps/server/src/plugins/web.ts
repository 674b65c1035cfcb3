import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

function isApi(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** A page navigation: GET/HEAD, wants HTML, and not a path to a file. */
function wantsSpa(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const pathname = req.url.split('?')[0] ?? '/';
  // A proof's verification code has dots (decision 76): /verificar/L5.abc.sig is a page, not a file.
  if (path.posix.extname(pathname) !== '' && !pathname.startsWith('/verificar/')) return false;
  return (req.headers.accept ?? '').includes('text/html');
}

interface WebOptions {
  /** Founding decision 28 (DEMONSTRATION=true): every page served carries the demonstration banner. */
  demonstration?: boolean;
}

/**
 * The built web app with history fallback; unknown /api/* paths answer JSON 404.
 * Without a build, page requests get a 503 explaining how to build it.
 */
export async function registerWeb(app: FastifyInstance, webDist: string, options: WebOptions = {}): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const built = fs.existsSync(indexFile);
  // Every page as the server sends it in a demonstration, null otherwise (the build's files as they are).
  const demoPages = built && options.demonstration ? demonstrationPages(webDist) : null;
  // Pages prerendered at build time (apps/web/src/early-paint/build/prerenderPages.ts): their first response paints the screen.
  const prerendered = prerenderedPages(webDist, demoPages ? withDemonstrationBanner : (html) => html);
  if (!built) app.log.warn({ webDist }, 'aplicação web não encontrada; execute npm run build');

  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      wildcard: true,
      // apps/web writes .br/.gz beside each asset at build time (apps/web/build/precompress.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const rel = path.relative(webDist, filePath).split(path.sep);
        // Hashed files never change. Everything else is checked on every use: above all sw.js
        // (a cached worker would keep drivers on an old version) and manifest.webmanifest, whose
        // types (application/javascript, application/manifest+json) come from their extensions,
        // also when sent from their .br/.gz copies (test/http/web-app-pwa.test.ts).
        res.setHeader('Cache-Control', rel[0] === 'assets' ? IMMUTABLE : NO_CACHE);
      },
    });
  }

  const sendPage = (reply: FastifyReply, file: string) => {
    const page = reply.header('Cache-Control', NO_CACHE).type('text/html; charset=utf-8');
    const demoPage = demoPages?.get(file);
    return demoPage === undefined ? page.sendFile(file, webDist, { cacheControl: false }) : page.send(demoPage);
  };
  const sendIndex = (reply: FastifyReply) => sendPage(reply, 'index.html');
  // The .html files asked for by name (the service worker precaches login.html, index.html...): the
  // copies with the banner, ahead of the static files' route.
  for (const file of demoPages?.keys() ?? []) {
    app.get(`/${file}`, { schema: { hide: true } }, (_req, reply) => sendPage(reply, file));
  }

  if (built) app.get('/', { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
  await registerEarlySubmits(app, prerendered.paths);

  app.setNotFoundHandler((req, reply) => {
    if (isApi(req.url)) return reply.code(404).send({ Sucesso: false, Mensagem: serverMessages.session.notFound });
    if (!built) return reply.code(503).type('text/plain; charset=utf-8').send(serverMessages.web.notBuilt);
    if (wantsSpa(req)) {
      const pathname = req.url.split('?')[0] ?? '/';
      const platePage = prerendered.platePage(pathname);
      if (platePage !== null) return reply.header('Cache-Control', NO_CACHE).type('text/html; charset=utf-8').send(platePage);
      return sendPage(reply, prerendered.files.get(pathname) ?? 'index.html');
    }
    return reply.code(404).type('text/plain; charset=utf-8').send(serverMessages.session.notFound);
  });
}

/**
 * The pages prerendered at build time, from dist/prerendered.json (apps/web/src/early-paint/build/prerenderPages.ts):
 * path -> file, and the plate pages (/tags/detalhes/:licensePlate), templates drawn with
 * PLATE_PLACEHOLDER where the plate goes. A build without the manifest may still have login.html.
 */
interface PrerenderedPages {
  files: Map<string, string>;
  /** Every prerendered route, the plate ones as patterns (/tags/editar/:licensePlate). */
  paths: string[];
  /** The plate page for this path with the plate written in, or null. */
  platePage(pathname: string): string | null;
}

/** apps/web/src/early-paint/pages.ts: where the build drew the plate, which the screens write upper-cased. */
const PLATE_PLACEHOLDER = '__LICENSEPLATE__';
/** Only a plain plate is written into a page: anything else gets index.html (the app draws it). */
const PLATE_SEGMENT = '([A-Za-z0-9]{1,10})';

function prerenderedPages(webDist: string, transform: (html: string) => string): PrerenderedPages {
  const files = new Map<string, string>();
  const plateTemplates: { route: string; path: RegExp; template: string }[] = [];
  const manifest = path.join(webDist, 'prerendered.json');
  if (fs.existsSync(manifest)) {
    const listed = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    for (const [page, file] of Object.entries(listed)) {
      // Only a page path and an .html file inside the build: the manifest never points elsewhere.
      if (!/^\/[a-z0-9/:A-Z-]*$/.test(page) || typeof file !== 'string' || !/^[a-z0-9/[\]A-Z-]+\.html$/.test(file) || file.includes('..'))
        continue;
      const filePath = path.join(webDist, file);
      if (!fs.existsSync(filePath)) continue;
      if (!page.includes(':')) {
        files.set(page, file);
      } else if (/^(\/[a-z0-9-]+)+\/:licensePlate$/.test(page)) {
        const template = transform(fs.readFileSync(filePath, 'utf8'));
        plateTemplates.push({ route: page, path: new RegExp(`^${page.replace(':licensePlate', PLATE_SEGMENT)}$`), template });
      }
    }
  } else if (fs.existsSync(path.join(webDist, 'login.html'))) {
    files.set('/login', 'login.html');
  }
  return {
    files,
    paths: [...files.keys(), ...plateTemplates.map(({ route }) => route)],
    platePage(pathname) {
      for (const { path: pattern, template } of plateTemplates) {
        const plate = pattern.exec(pathname)?.[1];
        if (plate) return template.replaceAll(PLATE_PLACEHOLDER, plate.toUpperCase());
      }
      return null;
    },
  };
}

/**
 * Founding decision 28: a demonstration says so on every page. The banner is written by the server into the
 * HTML it sends, first in <body> and outside the app's root, so React never touches it and no
 * script or style of the web app carries it (/login's budget): the prerendered pages paint it with
 * their first bytes, the app's screens keep it as they change, and the service worker precaches
 * the pages with it. Its inline style is allowed by the pages' CSP (style-src 'unsafe-inline').
 */
function demonstrationBanner(): string {
  const text = serverMessages.web.demonstration.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const style =
    'background:#ffe066;color:#1a1b1e;font:600 14px/1.4 system-ui,sans-serif;text-align:center;padding:6px 12px;border-bottom:2px solid #1a1b1e';
  return `<div role="note" data-demonstracao style="${style}">${text}</div>`;
}

function withDemonstrationBanner(html: string): string {
  return html.replace(/<body[^>]*>/i, (body) => `${body}${demonstrationBanner()}`);
}

/** Every .html file of the build (relative path with '/'), with the banner written in. */
function demonstrationPages(webDist: string): Map<string, string> {
  const pages = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith('.html')) {
        pages.set(path.relative(webDist, full).split(path.sep).join('/'), withDemonstrationBanner(fs.readFileSync(full, 'utf8')));
      }
    }
  };
  walk(webDist);
  return pages;
}

/**
 * A prerendered form posts to its page when submitted before any script has arrived (boot.ts holds
 * a submit from then on; method=post keeps the fields, a password among them, out of the URL). The
 * body is discarded unread and the driver is sent back to the page, which by then is live.
 */
async function registerEarlySubmits(app: FastifyInstance, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'buffer', bodyLimit: 16 * 1024 },
      (_req, _body, done) => done(null, undefined),
    );
    for (const page of paths) {
      scope.post(page, { schema: { hide: true } }, (req, reply) => reply.redirect(req.url.split('?')[0] ?? '/', 303));
    }
  });
}
