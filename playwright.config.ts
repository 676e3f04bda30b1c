import os from 'node:os';
import { defineConfig, devices } from '@playwright/test';
import { chromePath } from './e2e/support/chrome';

/**
 * End-to-end tests: the product built and started exactly as `npm start` does (see
 * e2e/support/global-setup.ts), on a fresh temporary DATA_DIR with its embedded PostgreSQL,
 * driven in Debian's Chromium (its headless shell when installed). Never a browser downloaded by
 * Playwright.
 */

// The machine has 2 cores, which the server, PostgreSQL and the browsers share.
const workers = Number(process.env.E2E_WORKERS) || Math.min(2, os.availableParallelism());

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/e2e',
  globalSetup: './e2e/support/global-setup.ts',
  // Generous: on a shared 2-core machine the same screen has taken from 2 s to over 10 s to
  // draw. These tests say what a screen does; how fast is the benchmark's business.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers,
  reporter: [['list']],
  use: {
    // Set by the global setup; workers inherit it (the fixtures read it too).
    baseURL: process.env.KANAK_E2E_BASE_URL,
    viewport: { width: 1366, height: 768 },
    // A trace records every action of every test; CI keeps only the log, so there it records
    // none.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromePath(),
      args: [
        '--headless',
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
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 768 } },
      testIgnore: /session-ending\.spec\.ts/,
      // Runs after every test of this project has finished, whether they passed or not.
      teardown: 'session-ending',
    },
    {
      // Changing the admin's password bumps the token version and ends every other session,
      // so these run alone, after everything else.
      name: 'session-ending',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 768 } },
      testMatch: /session-ending\.spec\.ts/,
    },
  ],
});
