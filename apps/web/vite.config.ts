import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress';

// React and the router are on every page: one long-cached vendor chunk. Everything else is
// split by the lazy routes, so /login never downloads dashboard-only code (Query, modals,
// notifications, icons).
const reactVendor = /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
// @portal/domain is pure functions and constants. Saying so lets the bundler place each of its
// modules with the screens that use it, instead of hoisting everything its barrel re-exports
// (Pix, withdrawal, statement rules) into the entry chunk that /login downloads.
const domainSource = /packages[\\/]domain[\\/]src[\\/]/;

export default defineConfig({
  plugins: [react(), precompress()],
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
          ],
        },
      },
    },
  },
});
