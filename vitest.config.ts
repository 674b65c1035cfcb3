import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
    // One worker per core. Vitest's default leaves a core free, which on a 2-core machine runs
    // every test file one after another (web suite 68 s → 47 s, all 1,430 tests 318 s → 228 s).
    maxWorkers: availableParallelism(),
  },
});
