import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { driverWithTermsAccepted, expect, openLive, signIn, test, untilLive } from '../support/fixtures.js';
import { brl } from '../support/values.js';

/**
 * Issue 11, installable and offline: the manifest and icons a phone needs to install the portal,
 * the service worker that opens it with no signal, and a new version that waits for the driver.
 */

const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'apps', 'web', 'dist');

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Waits until the service worker is active and controls this page; answers its script URL. */
async function controlledByServiceWorker(page: Page): Promise<string> {
  const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? '');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toBe(script);
  return script;
}

test('the portal meets the install criteria: manifest, icons and a service worker controlling the page', async ({ page, request }) => {
  const response = await page.goto('/login');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  await untilLive(page);

  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const manifestResponse = await request.get(href!);
  expect(manifestResponse.headers()['content-type']).toContain('application/manifest+json');
  const manifest = (await manifestResponse.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
  expect(manifest).toMatchObject({
    name: 'Portal do Motorista',
    short_name: 'Motorista',
    lang: 'pt-BR',
    start_url: '/dashboard',
    display: 'standalone',
    theme_color: '#0b3d91',
    background_color: '#f4f6f9',
  });

  for (const [size, purpose] of [
    [192, 'any'],
    [512, 'any'],
    [192, 'maskable'],
    [512, 'maskable'],
  ] as const) {
    const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}` && i.purpose === purpose);
    expect(icon, `${size} ${purpose}`).toBeDefined();
    const png = await request.get(icon!.src);
    expect(png.status(), icon!.src).toBe(200);
    expect(png.headers()['content-type']).toBe('image/png');
    expect(pngSize(await png.body())).toEqual({ width: size, height: size });
  }

  expect(await controlledByServiceWorker(page)).toMatch(/\/sw\.js$/);
  // Chromium's own verdict on the manifest and the page. Playwright's contexts are incognito
  // profiles, where Chromium never offers to install: that one reason is the test's, not the app's.
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
});

test('a signed-in driver opens the portal with no signal after a first visit', async ({ page, request, context, look }) => {
  const { driver } = await driverWithTermsAccepted(request);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Olá, Joana')).toBeVisible();
  await controlledByServiceWorker(page);

  await context.setOffline(true);
  // From the home screen: a new page load, with no connection at all.
  const offline = await page.goto('/dashboard');
  expect(offline?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole('link', { name: 'Portal do Motorista' })).toBeVisible();
  await expect(page.getByText('Olá, Joana')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Extrato/ })).toBeVisible();
  // The last balance seen, with its date (the data kept on the phone, decision 36).
  await expect(page.getByText(/Sem conexão — dados de \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/)).toBeVisible();
  await expect(page.getByText(brl(0)).first()).toBeVisible();
  // The API is never answered from the app's cache: with no signal its calls fail.
  const api = await page.evaluate(() =>
    fetch('/api/motorista/saldo').then(
      (r) => `HTTP ${r.status}`,
      () => 'sem rede',
    ),
  );
  expect(api).toBe('sem rede');
  await look('pwa-dashboard-offline');

  // Another screen, typed or from a shortcut: the same app shell, its route drawn by the app.
  await page.goto('/extrato/listar');
  await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible();

  // /login keeps its prerendered page offline (the worker's copy of login.html).
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await expect(page.locator('#root[data-prerendered="/login"]')).toBeAttached();
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  await context.setOffline(false);
});

test("a new version waits for the driver: 'Nova versão disponível', then 'Atualizar' reloads once on it", async ({ page, look }) => {
  await openLive(page, '/login');
  const first = await controlledByServiceWorker(page);
  await page.evaluate(() => {
    (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
  });
  await expect(page.getByText('Nova versão disponível')).toHaveCount(0);

  // A deploy: the server now has another sw.js (and its precompressed copies).
  const files = ['sw.js', 'sw.js.br', 'sw.js.gz'].map((f) => path.join(webDist, f));
  const originals = await Promise.all(files.map((f) => readFile(f)));
  const next = Buffer.concat([originals[0]!, Buffer.from(`\n// nova versão (e2e ${Date.now()})\n`)]);
  try {
    await Promise.all([writeFile(files[0]!, next), writeFile(files[1]!, brotliCompressSync(next)), writeFile(files[2]!, gzipSync(next))]);
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    const prompt = page.getByRole('status').filter({ hasText: 'Nova versão disponível' });
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    // Nothing changed under the driver's fingers: same page, same worker in control.
    expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBe(true);
    await look('pwa-nova-versao');

    // Pressed: the waiting version takes over and the page loads again, once, on it.
    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Atualizar' }).click()]);
    await untilLive(page);
    expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate ?? false)).toBe(false);
    expect(await controlledByServiceWorker(page)).toBe(first);
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(false);
    await expect(page.getByText('Nova versão disponível')).toHaveCount(0);
  } finally {
    await Promise.all(files.map((f, i) => writeFile(f, originals[i]!)));
  }
});
