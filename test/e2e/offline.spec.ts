import { addAccount, expect, keepScreenshot, switchToAccount, test } from './fixtures.js';

test('with the exchange stopped, saved markets still show with the offline indicator', async ({
  page,
  betdesk,
  exchange,
}, testInfo) => {
  const key = await exchange.createKey('read');
  await page.goto(betdesk.url);
  await addAccount(page, { label: 'Remote', baseUrl: exchange.url, ...key });
  await switchToAccount(page, 'Remote');

  await page.getByRole('button', { name: 'Markets' }).click();
  const fixtures = page.getByRole('listitem');
  await expect(fixtures.first()).toBeVisible();
  const before = await fixtures.count();

  await exchange.stop();

  await expect(page.getByRole('alert', { name: 'Offline indicator' })).toBeVisible();
  await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('Offline');
  await expect(fixtures).toHaveCount(before);
  await expect(page.getByText(/^Saved markets/)).toBeVisible();
  await keepScreenshot(page, testInfo, 'offline');
});
