/** Playwright fixtures: a fresh Betdesk (browser host) per test, and a sandbox exchange on demand. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** A page in each of the four looks the screens are checked in: 1024 and 1400 wide, light and dark. */
export async function keepScreenshots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of [1024, 1400]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme });
      await keepScreenshot(page, testInfo, `${name}-${width}-${colorScheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A plain web server that is not an exchange: every path answers its HTML 404 page. */
export async function startWebServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE HTML>\n<html lang="en"><head><title>Error response</title></head></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on: taken from the system, then let go. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
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

/** Makes the live account `label` the active one (from the Accounts screen), and waits for it. */
export async function switchToAccount(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: `Switch to ${label}` }).click();
  await expect(page.getByRole('status', { name: `Live account: ${label}` })).toBeVisible();
}

/**
 * Adds an account on `exchange` under `label` and makes it the active one: a fresh key (trade,
 * of a new wallet unless told), the add-account form, its "Added" notice, then the switch. The
 * key's wallet is returned.
 */
export async function addLiveAccount(
  page: Page,
  exchange: Exchange,
  label: string,
  key: { permission?: 'read' | 'trade'; wallet?: string } = {},
): Promise<string> {
  const { apiKey, secret, wallet } = await exchange.createKey(
    key.permission ?? 'trade',
    key.wallet,
  );
  await addAccount(page, { label, baseUrl: exchange.url, apiKey, secret });
  await expect(page.getByRole('status').filter({ hasText: `Added ${label}` })).toBeVisible();
  await switchToAccount(page, label);
  return wallet;
}
