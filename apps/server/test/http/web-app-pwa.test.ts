import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';

/** A build with the installable app's files, as vite-plugin-pwa and the precompress step write them. */
const SW = `self.addEventListener('fetch', () => {});${' '.repeat(2048)}`;
const MANIFEST = JSON.stringify({ name: 'Portal do Motorista', short_name: 'Motorista', start_url: '/dashboard', display: 'standalone' });

function fakeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-pwa-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, 'icons'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="pt-BR"><head><link rel="manifest" href="/manifest.webmanifest"></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'sw.js'), SW);
  fs.writeFileSync(path.join(dir, 'sw.js.br'), brotliCompressSync(SW));
  fs.writeFileSync(path.join(dir, 'manifest.webmanifest'), MANIFEST);
  fs.writeFileSync(path.join(dir, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  return dir;
}

describe('aplicação instalável (service worker e manifesto)', () => {
  const dist = fakeWebDist();
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
  const ctx = useTestApp('sqlite', { WEB_DIST: dist });
  const get = (url: string, headers: Record<string, string> = {}) => ctx().app.inject({ method: 'GET', url, headers });

  it.each([
    { name: 'sw.js', url: '/sw.js', type: 'application/javascript; charset=utf-8', body: SW },
    { name: 'o manifesto', url: '/manifest.webmanifest', type: 'application/manifest+json', body: MANIFEST },
  ])('$name: its content type, revalidated on every use (never a stale version)', async ({ url, type, body }) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(body);
  });

  it('sw.js sent from its brotli copy keeps its JavaScript type and no-cache', async () => {
    const res = await get('/sw.js', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.rawPayload).toString('utf8')).toBe(SW);
  });

  it('the manifest icons are served as PNG', async () => {
    const res = await get('/icons/icon-192.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
  });

  it('the CSP lets the page use its own worker and manifest, and still no inline script', async () => {
    const csp = String((await get('/dashboard', { accept: 'text/html' })).headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain("unsafe-inline'; script");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});
