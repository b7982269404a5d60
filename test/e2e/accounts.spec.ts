import { addAccount, expect, keepScreenshot, test } from './fixtures.js';
import { filesUnder, keytar } from './processes.js';

test('an added account keeps its secret in the keychain and in no byte of Betdesk’s files', async ({
  page,
  betdesk,
  exchange,
}, testInfo) => {
  const key = await exchange.createKey('read');
  await page.goto(betdesk.url);
  await addAccount(page, {
    label: 'Sandbox live',
    baseUrl: exchange.url,
    apiKey: key.apiKey,
    secret: key.secret,
  });
  await expect(page.getByRole('status').filter({ hasText: 'Added Sandbox live' })).toBeVisible();
  const row = page.getByRole('row', { name: 'Account Sandbox live' });
  await expect(row).toContainText(key.apiKey.slice(-4));
  await expect(row).toContainText('Read');
  await expect(page.getByLabel('API secret')).toHaveValue('');

  const stored = await keytar().findCredentials(betdesk.keychainService);
  expect(stored.map((c) => c.password)).toEqual([key.secret]);

  const files = filesUnder(betdesk.dataDir);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    expect(file.bytes.includes(Buffer.from(key.secret)), file.path).toBe(false);
  }
  await keepScreenshot(page, testInfo, 'accounts');
});

test('switching to an account and back to paper changes the badge', async ({
  page,
  betdesk,
  exchange,
}) => {
  const key = await exchange.createKey('trade');
  await page.goto(betdesk.url);
  await addAccount(page, {
    label: 'Desk',
    baseUrl: exchange.url,
    apiKey: key.apiKey,
    secret: key.secret,
  });
  await page.getByRole('button', { name: 'Switch to Desk' }).click();
  await expect(page.getByRole('status', { name: 'Live account: Desk' })).toHaveText('Desk');
  await page.getByRole('button', { name: 'Switch to paper trading' }).click();
  await expect(page.getByRole('status', { name: 'Paper trading: no real money' })).toBeVisible();
});

test('removing an account removes its secret from the keychain', async ({
  page,
  betdesk,
  exchange,
}) => {
  const key = await exchange.createKey('read');
  await page.goto(betdesk.url);
  await addAccount(page, { label: 'Old', baseUrl: exchange.url, ...key });
  await page.getByRole('button', { name: 'Remove Old' }).click();
  await page.getByRole('button', { name: 'Confirm removing Old' }).click();
  await expect(page.getByRole('row', { name: 'Account Old' })).toHaveCount(0);
  expect(await keytar().findCredentials(betdesk.keychainService)).toEqual([]);
});

test('a wrong secret is refused with a sentence and nothing is kept', async ({
  page,
  betdesk,
  exchange,
}) => {
  const key = await exchange.createKey('read');
  await page.goto(betdesk.url);
  await addAccount(page, {
    label: 'Typo',
    baseUrl: exchange.url,
    apiKey: key.apiKey,
    secret: `${key.secret}x`,
  });
  await expect(page.getByRole('alert')).toHaveText(/^The exchange refused .*\.$/);
  await expect(page.getByRole('row', { name: 'Account Typo' })).toHaveCount(0);
  expect(await keytar().findCredentials(betdesk.keychainService)).toEqual([]);
});
