import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { scopedClassName } from './build/cssModules';
import { webAppManifest } from './build/manifest';
import { precompress } from './build/precompress';
import { PUSH_WORKER_FILE, pushWorker } from './build/pushWorker';
import { themeCss } from './build/themeCss';
import { prerenderPages } from './src/early-paint/build/prerenderPages';

// React and the router are on every page: long-cached vendor chunks. Two, not one: boot.ts runs
// each chunk in a task of its own, and React DOM with the router in one module was one of the
// longest tasks of every page's start on the simulated phone (decision 59, 'Lighthouse on every
// screen'). Everything else is split by the lazy routes, so /login never downloads dashboard-only
// code (Query, modals, notifications, icons).
const reactDom = /node_modules[\\/](react-dom|scheduler)[\\/]/;
const reactAndRouter = /node_modules[\\/](react|react-router)[\\/]/;
// @portal/domain is pure functions and constants. Saying so lets the bundler place each of its
// modules with the screens that use it, instead of hoisting everything its barrel re-exports
// (Pix, withdrawal, statement rules) into the entry chunk that /login downloads.
const domainSource = /packages[\\/]domain[\\/]src[\\/]/;
// zod and the libraries under every read, in chunks of their own so that boot.ts runs them in
// separate tasks (decision 59). The contract has no group: built at first use (decision 42), it goes
// with the screens that use it, which saves /login 28 KB and the signed-in screens 2 scripts each
// with the same Lighthouse figures (decision 65).
const zod = /node_modules[\\/]zod[\\/]/;
const query = /node_modules[\\/](@tanstack[\\/]query-(core|async-storage-persister)|idb-keyval)[\\/]/;
// Mantine's core and the components of the public screens (the CSS listed in src/app/styles.ts):
// one chunk instead of ~20 tiny ones. Over HTTP/1.1 (6 connections) on a 560 ms-per-request
// link, every extra wave of requests delays the moment /login becomes interactive.
const mantinePublic =
  /node_modules[\\/]@mantine[\\/](hooks[\\/]|core[\\/]esm[\\/](core|components[\\/](UnstyledButton|VisuallyHidden|Paper|Container|Center|Stack|Group|Text|Title|Anchor|Divider|Loader|CloseButton|ActionIcon|Button|Input|InputBase|TextInput|PasswordInput|Alert|ThemeIcon))[\\/])/;

/**
 * The service worker (issue 11): Workbox precaches the app shell (every script, style, page and
 * icon of the build) so that a signed-in driver opens the portal from the home screen with no
 * signal. Navigations fall back to index.html (the router draws the screen); a prerendered path
 * (/login, /dashboard, /tags/listar...) is answered with its page (precached as login.html,
 * dashboard.html, tags/listar.html: Workbox's cleanURLs; src/early-paint/); /api/* is never
 * answered by the worker. A new version waits ('prompt') until the driver presses 'Atualizar'
 * (src/pwa/registerServiceWorker.ts), registered from the bundle: the CSP has no inline script.
 * Issue 25: it also shows the server's push notifications and opens their screen when tapped
 * (src/pwa/push/, built into push-worker.js by build/pushWorker.ts and imported first).
 */
const serviceWorker = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  manifest: webAppManifest,
  manifestFilename: 'manifest.webmanifest',
  // The glob below already takes every icon and the favicon: listing them again would repeat them.
  includeManifestIcons: false,
  workbox: {
    importScripts: [PUSH_WORKER_FILE],
    // The precompressed .br/.gz copies are the server's business, not the cache's.
    globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
    // The plate pages' templates (tags/detalhes/[licensePlate].html): only the server fills them in.
    globIgnores: ['**/node_modules/**/*', '**/\\[*\\].html'],
    navigateFallback: 'index.html',
    navigateFallbackDenylist: [/^\/api(\/|$)/],
    // Hashed file names are their own revision.
    dontCacheBustURLsMatching: /^assets\//,
    cleanupOutdatedCaches: true,
    // The first worker takes the open page at once; later ones wait for the driver ('prompt').
    clientsClaim: true,
    skipWaiting: false,
    // One file, no workbox-*.js beside it: one request less, one file for the server to keep fresh.
    inlineWorkboxRuntime: true,
    sourcemap: false,
    mode: 'production',
  },
});

const treeshake = { moduleSideEffects: (id: string) => !domainSource.test(id) };

/**
 * The chunk groups above. Each earns its place by a measurement: `npm run bench -- chunks` builds the
 * app with all of them, with none (Rolldown's own splitting) and with each one left out
 * (PORTAL_CHUNK_GROUPS_LEFT_OUT: names, comma-separated, or '*'), and counts every screen's scripts and bytes.
 */
const chunkGroups = [
  { name: 'react-dom', test: reactDom, priority: 10 },
  { name: 'react-router', test: reactAndRouter, priority: 10 },
  { name: 'mantine-public', test: mantinePublic, priority: 5 },
  { name: 'zod', test: zod, priority: 9 },
  { name: 'query', test: query, priority: 9 },
];
const leftOut = new Set(process.env.PORTAL_CHUNK_GROUPS_LEFT_OUT?.split(',') ?? []);
const groups = leftOut.has('*') ? [] : chunkGroups.filter((group) => !leftOut.has(group.name));

export default defineConfig({
  plugins: [react(), themeCss(), prerenderPages(), pushWorker({ treeshake }), serviceWorker, precompress()],
  // The prerendered pages' render in Node names CSS modules' classes the same way (src/early-paint/build/).
  css: { modules: { generateScopedName: (local, filename) => scopedClassName(local, filename, import.meta.dirname) } },
  // lib/zoneCheck.worker.ts, started as a module worker: its own small ES module, precached with the rest.
  worker: { format: 'es' },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // Every browser we target supports <link rel=modulepreload>; the polyfill is dead weight.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The app. The scripts the prerendered pages run before it are built on their own
      // (src/early-paint/build/earlyScripts.ts), with this tree-shaking.
      input: { index: 'index.html' },
      treeshake,
      output: {
        codeSplitting: { groups },
      },
    },
  },
});
