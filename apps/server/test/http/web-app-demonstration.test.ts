import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { serverMessages } from '@portal/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';

const page = (main: string) =>
  `<!doctype html><html lang="pt-BR"><head><title>Portal do Motorista</title><script type="module" src="/assets/app-abc123.js"></script></head><body class="x"><div id="root">${main}</div></body></html>`;

/** A build with the app, prerendered public and signed-in pages, a plate page and a precompressed copy. */
function fakeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-demo-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('index.html', page(''));
  write('assets/app-abc123.js', 'console.log("portal")');
  const prerendered: Record<string, string> = {};
  for (const [route, file] of [
    ['/login', 'login.html'],
    ['/registrar', 'registrar.html'],
    ['/blocked-access', 'blocked-access.html'],
    ['/dashboard', 'dashboard.html'],
    ['/tags/listar', 'tags/listar.html'],
    ['/tags/detalhes/:licensePlate', 'tags/detalhes/[licensePlate].html'],
  ] as const) {
    write(file, page(`<main>${route} __LICENSEPLATE__</main>`));
    prerendered[route] = file;
  }
  // What @fastify/static would send for /login.html to a browser that takes brotli: without the banner.
  fs.writeFileSync(path.join(dir, 'login.html.br'), brotliCompressSync(fs.readFileSync(path.join(dir, 'login.html'))));
  write('prerendered.json', JSON.stringify(prerendered));
  return dir;
}

const html = { accept: 'text/html,application/xhtml+xml' };
/** Every way the server sends a page: prerendered, the app's fallback, a plate page, a file by name (the service worker's precache). */
const URLS = [
  '/',
  '/login',
  '/registrar',
  '/blocked-access?x=1',
  '/dashboard',
  '/extrato',
  '/tags/listar',
  '/tags/detalhes/ABC1D23',
  '/login.html',
  '/index.html',
  '/tags/listar.html',
  '/dashboard.html',
];

/**
 * Founding decision 28: a deployment that declares itself a demonstration (DEMONSTRATION=true: the local Pix
 * provider in production) says so on every page: the public ones (/login, /registrar,
 * /blocked-access) and the app's shell, written by the server into the HTML it sends.
 */
describe('demonstração declarada: toda página diz que nenhum pagamento é real', () => {
  const dist = fakeWebDist();
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
  const demo = useTestApp('sqlite', { WEB_DIST: dist, DEMONSTRATION: 'true' });
  const real = useTestApp('sqlite', { WEB_DIST: dist });
  const banner = serverMessages.web.demonstration;

  it('every page carries the banner once, first in <body>, outside the app root', async () => {
    for (const url of URLS) {
      for (const encoding of [{}, { 'accept-encoding': 'br' }]) {
        const res = await demo().app.inject({ method: 'GET', url, headers: { ...html, ...encoding } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type'], url).toContain('text/html');
        expect(res.headers['cache-control'], url).toBe('no-cache');
        const body = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload).toString('utf8') : res.body;
        expect(body.split(banner), url).toHaveLength(2);
        expect(body, url).toMatch(
          new RegExp(`<body class="x"><div role="note" data-demonstracao style="[^"<>]+">${banner}</div><div id="root">`),
        );
      }
    }
    // The plate page keeps its plate; the app's files are untouched.
    expect((await demo().app.inject({ method: 'GET', url: '/tags/detalhes/ABC1D23', headers: html })).body).toContain(
      '/tags/detalhes/:licensePlate ABC1D23',
    );
    expect((await demo().app.inject({ method: 'GET', url: '/assets/app-abc123.js' })).body).toBe('console.log("portal")');
  });

  it('without DEMONSTRATION no page mentions it', async () => {
    for (const url of URLS) {
      const res = await real().app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain(banner);
      expect(res.body, url).not.toContain('data-demonstracao');
    }
  });
});
