import { defineConfig } from '@playwright/test';

/**
 * Browser flows against the real built server (`npm run build` runs first; the tests never
 * build). Each worker starts its own server on a free 127.0.0.1 port with a temporary root and
 * database; see fixtures.ts.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results/e2e',
  workers: 2,
  fullyParallel: false,
  // On a loaded CI machine a browser flow gets one more try; the run names every test that needed it.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: true,
  timeout: 30_000,
  // About 180 flows take some 17 minutes on two cores; the ceiling only stops a run that hangs.
  globalTimeout: 30 * 60_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
