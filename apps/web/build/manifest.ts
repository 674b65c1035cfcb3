import type { ManifestOptions } from 'vite-plugin-pwa';

/**
 * The web app manifest (issue 11): what the phone needs to install the portal on the home screen.
 * Colours are the theme's (src/app/theme.ts road 8, the header; src/app/global.css, the page
 * background): test/pwa/manifest.test.tsx keeps them in step.
 */
export const THEME_COLOR = '#0b3d91';
export const BACKGROUND_COLOR = '#f4f6f9';

export const webAppManifest: Partial<ManifestOptions> = {
  id: '/',
  name: 'Portal do Motorista',
  short_name: 'Motorista',
  description: 'Saldo de pedágio, compra de créditos por Pix, tags e veículos.',
  lang: 'pt-BR',
  dir: 'ltr',
  start_url: '/dashboard',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  categories: ['finance', 'navigation', 'business'],
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
    { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  shortcuts: [
    { name: 'Comprar saldo', url: '/saldo/comprar', icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] },
    { name: 'Sacar saldo', url: '/saldo/retirar', icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] },
    { name: 'Extrato', url: '/extrato/listar', icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] },
  ],
};
