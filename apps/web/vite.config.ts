import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress';
import { prerenderLogin } from './build/prerender';

// React and the router are on every page: one long-cached vendor chunk. Everything else is
// split by the lazy routes, so /login never downloads dashboard-only code (Query, modals,
// notifications, icons).
const reactVendor = /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
// @portal/domain is pure functions and constants. Saying so lets the bundler place each of its
// modules with the screens that use it, instead of hoisting everything its barrel re-exports
// (Pix, withdrawal, statement rules) into the entry chunk that /login downloads.
const domainSource = /packages[\\/]domain[\\/]src[\\/]/;
// Mantine's core and the components of the public screens (the CSS listed in src/app/styles.ts):
// one chunk instead of ~20 tiny ones. Over HTTP/1.1 (6 connections) on a 560 ms-per-request
// link, every extra wave of requests delays the moment /login becomes interactive.
const mantinePublic =
  /node_modules[\\/]@mantine[\\/](hooks[\\/]|core[\\/]esm[\\/](core|components[\\/](UnstyledButton|VisuallyHidden|Paper|Container|Center|Stack|Group|Text|Title|Anchor|Divider|Loader|CloseButton|ActionIcon|Button|Input|InputBase|TextInput|PasswordInput|Alert|ThemeIcon))[\\/])/;

export default defineConfig({
  plugins: [react(), prerenderLogin(), precompress()],
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
      treeshake: { moduleSideEffects: (id: string) => !domainSource.test(id) },
      output: {
        codeSplitting: {
          groups: [
            { name: 'react-vendor', test: reactVendor, priority: 10 },
            { name: 'mantine-public', test: mantinePublic, priority: 5 },
          ],
        },
      },
    },
  },
});
