import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_COLOR, THEME_COLOR, webAppManifest } from '../../build/manifest';
import { theme } from '../../src/app/theme';

/** apps/web (vitest runs from the repository root or from apps/web). */
const webRoot = path.resolve(__dirname, '../..');
const webFile = (name: string) => readFileSync(path.join(webRoot, name));

describe('the web app manifest', () => {
  it('names the portal in Portuguese and opens the dashboard, standalone', () => {
    expect(webAppManifest).toMatchObject({
      name: 'Portal do Motorista',
      short_name: 'Motorista',
      lang: 'pt-BR',
      start_url: '/dashboard',
      display: 'standalone',
    });
  });

  it('takes its colours from the theme: the header blue and the page background', () => {
    expect(THEME_COLOR).toBe(theme.colors?.road?.[8]);
    expect(webAppManifest.theme_color).toBe(THEME_COLOR);
    const globalCss = webFile('src/app/global.css').toString('utf8');
    expect(globalCss).toMatch(new RegExp(`body \\{[^}]*background-color: ${BACKGROUND_COLOR};`));
    expect(webAppManifest.background_color).toBe(BACKGROUND_COLOR);
    const indexHtml = webFile('index.html').toString('utf8');
    expect(indexHtml).toContain(`<meta name="theme-color" content="${THEME_COLOR}" />`);
  });

  it.each([
    { name: '192 any', size: 192, purpose: 'any' },
    { name: '512 any', size: 512, purpose: 'any' },
    { name: '192 maskable', size: 192, purpose: 'maskable' },
    { name: '512 maskable', size: 512, purpose: 'maskable' },
  ])('has the $name icon, a PNG of that size in public/', ({ size, purpose }) => {
    const icon = webAppManifest.icons?.find((i) => i.sizes === `${size}x${size}` && i.purpose === purpose);
    expect(icon?.type).toBe('image/png');
    const png = webFile(`public${icon?.src ?? '/missing'}`);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
  });
});
