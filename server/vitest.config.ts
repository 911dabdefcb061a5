import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: {
    alias: {
      '@burrow/protocol': fileURLToPath(new URL('../protocol/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['src/**/*.test.ts'],
    // With BURROW_TEST_DATABASE=postgres: a private PostgreSQL cluster for the run.
    globalSetup: ['src/test-support/global-setup.ts'],
    setupFiles: ['src/test-support/setup-file.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
  },
});
