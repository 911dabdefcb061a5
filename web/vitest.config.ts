import os from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test-setup.ts'],
      testTimeout: 15_000,
      restoreMocks: true,
      // Each file sets up its own DOM and waits on nothing else: one file per core (the default
      // leaves a core free, half of a two-core machine).
      maxWorkers: os.availableParallelism(),
    },
  }),
);
