import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { themeCss } from './build/themeCss';

export default defineConfig({
  plugins: [react(), themeCss()],
  resolve: {
    // Node loads 'react-router/dom' as ESM and 'react-router' as CommonJS: two router contexts.
    // Its RouterProvider only adds flushSync, so tests use the main entry's (as test/support/utils does).
    alias: [{ find: /^react-router\/dom$/, replacement: 'react-router' }],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['./test/support/setup.ts'],
    restoreMocks: true,
    // A screen test types and clicks through a whole form: 5 s (the default) was crossed by one of
    // them on a loaded 2-core machine. A limit is not an assertion; speed has its bench.
    testTimeout: 30_000,
  },
});
