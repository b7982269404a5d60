/**
 * End-to-end tests: the real renderer in Debian's Chromium against the browser host
 * (`npm run serve`) and its services, plus an Electron spec that runs when an Electron binary
 * is installed. Results: test-results/playwright.json (read by build/test-summary.mjs);
 * screenshots and traces under test-results/e2e/.
 */
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './build/chromium.js';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  // Not test-results/ itself: Playwright empties its output directory, and vitest's report
  // lives there too.
  outputDir: 'test-results/e2e',
  globalSetup: './test/e2e/global-setup.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // Two shared cores: one browser and one Betdesk at a time.
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    { name: 'browser', testIgnore: '**/electron.spec.ts' },
    { name: 'electron', testMatch: '**/electron.spec.ts' },
  ],
});
