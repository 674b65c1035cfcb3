/**
 * Renders the app icons (build/icons/*.svg) to the PNGs of the web app manifest, with Debian's
 * Chromium (never a downloaded browser). Run once after changing a drawing and commit the PNGs:
 * `npm run icons -w @portal/web`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Each PNG: its drawing and its side in pixels. */
const ICONS = [
  { source: 'icon.svg', file: 'icon-192.png', size: 192 },
  { source: 'icon.svg', file: 'icon-512.png', size: 512 },
  { source: 'maskable.svg', file: 'maskable-192.png', size: 192 },
  { source: 'maskable.svg', file: 'maskable-512.png', size: 512 },
  // iOS ignores the manifest's icons and fills the corners itself: the full-bleed drawing.
  { source: 'maskable.svg', file: 'apple-touch-icon-180.png', size: 180 },
  // Issue 25: the notification badge, a white truck on transparent (Android draws its shape alone).
  { source: 'badge.svg', file: 'badge-96.png', size: 96 },
] as const;

const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const icon of ICONS) {
    const svg = await readFile(path.join(webRoot, 'build', 'icons', icon.source), 'utf8');
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `)}</body></html>`,
    );
    await page.screenshot({ path: path.join(webRoot, 'public', 'icons', icon.file), omitBackground: true });
    await page.close();
    process.stdout.write(`public/icons/${icon.file} (${icon.size}x${icon.size})\n`);
  }
} finally {
  await browser.close();
}
