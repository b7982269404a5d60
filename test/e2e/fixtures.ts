/** Playwright fixtures: a fresh Betdesk (browser host) per test, and a sandbox exchange on demand. */
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { startBetdesk, startExchange, type Betdesk, type Exchange } from './processes.js';

export const test = base.extend<{ betdesk: Betdesk; exchange: Exchange }>({
  // Playwright reads a fixture's dependencies from its first parameter's pattern.
  // eslint-disable-next-line no-empty-pattern
  betdesk: async ({}, use) => {
    const betdesk = await startBetdesk();
    try {
      await use(betdesk);
    } finally {
      await betdesk.stop();
    }
  },
  // eslint-disable-next-line no-empty-pattern
  exchange: async ({}, use) => {
    const exchange = await startExchange();
    try {
      await use(exchange);
    } finally {
      await exchange.stop();
    }
  },
});

export { expect };

/** Keeps a screenshot of the screen as a test artifact (test-results/e2e/...). */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Fills and submits the add-account form. */
export async function addAccount(
  page: Page,
  account: { label: string; baseUrl: string; apiKey: string; secret: string },
): Promise<void> {
  await page.getByRole('button', { name: 'Accounts' }).click();
  const form = page.getByRole('form', { name: 'Add an exchange account' });
  await form.getByLabel('Label').fill(account.label);
  await form.getByLabel('Base URL').fill(account.baseUrl);
  await form.getByLabel('API key').fill(account.apiKey);
  await form.getByLabel('API secret').fill(account.secret);
  await form.getByRole('button', { name: 'Add account' }).click();
}
