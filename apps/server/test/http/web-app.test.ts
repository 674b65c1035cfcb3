import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { serverMessages } from '@portal/domain';
import { afterAll, expect, it } from 'vitest';
import { json, useTestApp } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';

const INDEX =
  '<!doctype html><html lang="pt-BR"><head><title>Portal do Motorista</title><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>';

function fakeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log("portal")');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describeEachDatabase('aplicação web (SPA)', (dialect) => {
  const dist = fakeWebDist();
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
  const ctx = useTestApp(dialect, { WEB_DIST: dist });

  it('serves index.html, not cached, for the root and any page route (history fallback)', async () => {
    // A proof's verification page too, though its code has dots (decision 76).
    for (const url of [
      '/',
      '/login',
      '/registrar',
      '/dashboard',
      '/tags/detalhes/ABC1D23',
      '/blocked-access?x=1',
      '/verificar/L5.kq1x2.abc',
    ]) {
      const res = await ctx().app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('serves hashed assets with a long immutable cache and other files with no-cache', async () => {
    const asset = await ctx().app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("portal")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await ctx().app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('does not answer index.html for missing files, non-HTML requests or other methods', async () => {
    expect((await ctx().app.inject({ method: 'GET', url: '/assets/missing-1.js', headers: html })).statusCode).toBe(404);
    expect((await ctx().app.inject({ method: 'GET', url: '/login', headers: { accept: 'application/json' } })).statusCode).toBe(404);
    expect((await ctx().app.inject({ method: 'POST', url: '/login', headers: html })).statusCode).toBe(404);
    expect((await ctx().app.inject({ method: 'GET', url: '/../package.json' })).statusCode).toBe(404);
  });

  it('keeps unknown /api paths as JSON 404 even for browsers', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/qualquer', headers: html });
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.session.notFound });
  });
});

describeEachDatabase('aplicação web com /login pré-renderizado', (dialect) => {
  const LOGIN = INDEX.replace('<div id="root"></div>', '<div id="root"><main>Bem-vindo</main></div>');
  const dist = fakeWebDist();
  fs.writeFileSync(path.join(dist, 'login.html'), LOGIN);
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
  const ctx = useTestApp(dialect, { WEB_DIST: dist });

  it('serves login.html for /login, with the same headers as index.html', async () => {
    for (const url of ['/login', '/login?next=1']) {
      const res = await ctx().app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.body).toBe(LOGIN);
    }
  });

  it('keeps index.html for the other routes and 404 for non-page requests to /login', async () => {
    for (const url of ['/', '/registrar', '/dashboard', '/login/extra']) {
      expect((await ctx().app.inject({ method: 'GET', url, headers: html })).body, url).toBe(INDEX);
    }
    expect((await ctx().app.inject({ method: 'GET', url: '/login', headers: { accept: 'application/json' } })).statusCode).toBe(404);
  });

  it('a form submitted before the script arrived goes back to the live form; the password is not read or logged', async () => {
    const { app, logs } = ctx();
    const res = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'cpfCnpj=52998224725&password=segredo-antes-do-js',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login');
    expect(logs.join('\n')).not.toContain('segredo-antes-do-js');
  });
});

describeEachDatabase('aplicação web com telas pré-renderizadas (prerendered.json)', (dialect) => {
  const page = (name: string) => INDEX.replace('<div id="root"></div>', `<div id="root"><main>${name}</main></div>`);
  const dist = fakeWebDist();
  fs.mkdirSync(path.join(dist, 'tags'));
  fs.writeFileSync(path.join(dist, 'login.html'), page('login'));
  fs.writeFileSync(path.join(dist, 'dashboard.html'), page('painel'));
  fs.writeFileSync(path.join(dist, 'tags', 'listar.html'), page('tags'));
  fs.mkdirSync(path.join(dist, 'tags', 'detalhes'));
  // A plate page as the build writes it: the plate's place marked, in the title, the text and a link.
  const platePage = (plate: string) =>
    INDEX.replace('<title>Portal do Motorista</title>', `<title>Veículo ${plate}</title>`).replace(
      '<div id="root"></div>',
      `<div id="root"><main><h1>Veículo ${plate}</h1><a href="/tags/editar/${plate}">Editar</a>${'<p>Dados do veículo e da tag.</p>'.repeat(40)}</main></div>`,
    );
  fs.writeFileSync(path.join(dist, 'tags', 'detalhes', '[licensePlate].html'), platePage('__LICENSEPLATE__'));
  fs.writeFileSync(path.join(os.tmpdir(), 'portal-fora-do-build.html'), page('fora'));
  fs.writeFileSync(
    path.join(dist, 'prerendered.json'),
    JSON.stringify({
      '/login': 'login.html',
      '/dashboard': 'dashboard.html',
      '/tags/listar': 'tags/listar.html',
      '/tags/detalhes/:licensePlate': 'tags/detalhes/[licensePlate].html',
      '/tags/editar/:licensePlate': 'tags/editar/[licensePlate].html',
      '/ausente': 'ausente.html',
      '/fora': '../portal-fora-do-build.html',
    }),
  );
  afterAll(() => {
    fs.rmSync(dist, { recursive: true, force: true });
    fs.rmSync(path.join(os.tmpdir(), 'portal-fora-do-build.html'), { force: true });
  });
  const ctx = useTestApp(dialect, { WEB_DIST: dist });

  it('serves each listed page for its path, query string or not, with the same headers as index.html', async () => {
    for (const [url, body] of [
      ['/login', page('login')],
      ['/dashboard', page('painel')],
      ['/dashboard?x=1', page('painel')],
      ['/tags/listar', page('tags')],
      ['/tags/listar?page=2', page('tags')],
      // A plate page, for any plain plate: the plate written in where the build marked it, upper-cased.
      ['/tags/detalhes/abc1d23', platePage('ABC1D23')],
      ['/tags/detalhes/RIO2A18?origem=lista', platePage('RIO2A18')],
    ] as const) {
      const res = await ctx().app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.body, url).toBe(body);
    }
  });

  it('sends a form submitted before any script back to its page, unread: every listed page, a plate page too', async () => {
    const { app, logs } = ctx();
    for (const url of ['/dashboard', '/tags/listar?page=2', '/tags/detalhes/abc1d23']) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'cpfCnpj=52998224725&password=segredo-antes-do-js',
      });
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location, url).toBe(url.split('?')[0]);
    }
    expect(logs.join('\n')).not.toContain('segredo-antes-do-js');
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/ausente',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'a=1',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('compresses a plate page, written per request, as it does JSON', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/tags/detalhes/abc1d23', headers: { ...html, 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(platePage('ABC1D23'));
  });

  it('keeps index.html for the other paths, a listed file that is missing, one outside the build and what is not a plain plate', async () => {
    const notPlates = [
      '/tags/detalhes/%3Cscript%3E',
      '/tags/detalhes/ABC-1D23',
      '/tags/detalhes/ABC1D23/x',
      '/tags/detalhes/ABCDEFGHIJK',
      '/tags/editar/ABC1D23',
    ];
    for (const url of ['/', '/registrar', '/ausente', '/fora', '/dashboard/extra', ...notPlates]) {
      expect((await ctx().app.inject({ method: 'GET', url, headers: html })).body, url).toBe(INDEX);
    }
    expect((await ctx().app.inject({ method: 'GET', url: '/dashboard', headers: { accept: 'application/json' } })).statusCode).toBe(404);
  });
});

describeEachDatabase('aplicação web não compilada', (dialect) => {
  const ctx = useTestApp(dialect, { WEB_DIST: path.join(os.tmpdir(), 'portal-sem-build-nao-existe') });

  it('answers page requests with a clear 503 telling to build', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/login', headers: html });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('npm run build');
  });

  it('the API keeps working', async () => {
    expect((await ctx().app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/nada' })).statusCode).toBe(404);
  });
});
