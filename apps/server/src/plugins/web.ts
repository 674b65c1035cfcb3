import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { messages } from '@portal/domain';
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
  if (path.posix.extname(pathname) !== '') return false;
  return (req.headers.accept ?? '').includes('text/html');
}

/**
 * The built web app with history fallback; unknown /api/* paths answer JSON 404.
 * Without a build, page requests get a 503 explaining how to build it.
 */
export async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const built = fs.existsSync(indexFile);
  // Pages prerendered at build time (apps/web/build/prerender.ts): their first response paints the screen.
  const prerendered = prerenderedPages(webDist);
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
        // also when sent from their .br/.gz copies (test/web-pwa.test.ts).
        res.setHeader('Cache-Control', rel[0] === 'assets' ? IMMUTABLE : NO_CACHE);
      },
    });
  }

  const sendPage = (reply: FastifyReply, file: string) =>
    reply.header('Cache-Control', NO_CACHE).type('text/html; charset=utf-8').sendFile(file, webDist, { cacheControl: false });
  const sendIndex = (reply: FastifyReply) => sendPage(reply, 'index.html');

  if (built) app.get('/', { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
  if (prerendered.has('/login')) await registerEarlyLoginSubmit(app);

  app.setNotFoundHandler((req, reply) => {
    if (isApi(req.url)) return reply.code(404).send({ Sucesso: false, Mensagem: messages.session.notFound });
    if (!built) return reply.code(503).type('text/plain; charset=utf-8').send(messages.web.notBuilt);
    if (wantsSpa(req)) return sendPage(reply, prerendered.get(req.url.split('?')[0] ?? '/') ?? 'index.html');
    return reply.code(404).type('text/plain; charset=utf-8').send(messages.session.notFound);
  });
}

/**
 * Path -> file of the pages prerendered at build time: dist/prerendered.json, written by the build
 * (apps/web/build/prerender.ts). A build without it may still have login.html (older builds).
 */
function prerenderedPages(webDist: string): Map<string, string> {
  const pages = new Map<string, string>();
  const manifest = path.join(webDist, 'prerendered.json');
  if (fs.existsSync(manifest)) {
    const listed = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    for (const [page, file] of Object.entries(listed)) {
      // Only a page path and an .html file inside the build: the manifest never points elsewhere.
      if (!/^\/[a-z0-9/-]*$/.test(page) || typeof file !== 'string' || !/^[a-z0-9/-]+\.html$/.test(file) || file.includes('..')) continue;
      if (fs.existsSync(path.join(webDist, file))) pages.set(page, file);
    }
  } else if (fs.existsSync(path.join(webDist, 'login.html'))) {
    pages.set('/login', 'login.html');
  }
  return pages;
}

/**
 * The prerendered login form posts to /login when a driver submits before the script has
 * arrived (method=post keeps the password out of the URL). The body is discarded unread and
 * the driver is sent back to the form, which by then is live.
 */
async function registerEarlyLoginSubmit(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'buffer', bodyLimit: 16 * 1024 },
      (_req, _body, done) => done(null, undefined),
    );
    scope.post('/login', { schema: { hide: true } }, (_req, reply) => reply.redirect('/login', 303));
  });
}
