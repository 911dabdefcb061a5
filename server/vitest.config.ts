import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { databaseTestFiles } from './src/test-support/database-test-files.js';

// On PostgreSQL (BURROW_TEST_DATABASE=postgres) only the test files that open a test database run:
// the others would do exactly what they do in the SQLite run.
const onPostgres = process.env.BURROW_TEST_DATABASE === 'postgres';

export default defineConfig({
  resolve: {
    alias: {
      '@burrow/protocol': fileURLToPath(new URL('../protocol/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: onPostgres ? databaseTestFiles(fileURLToPath(new URL('.', import.meta.url))) : ['src/**/*.test.ts'],
    // With BURROW_TEST_DATABASE=postgres: a private PostgreSQL cluster for the run.
    globalSetup: ['src/test-support/global-setup.ts'],
    setupFiles: ['src/test-support/setup-file.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
  },
});
