/**
 * A live account against a standalone sandbox exchange: with the exchange gone, the positions
 * stay on screen from the store, flagged stale, and nothing offers to practise on real money.
 */
import {
  addAccount,
  addLiveAccount,
  expect,
  keepScreenshot,
  keepScreenshots,
  startWebServer,
  switchToAccount,
  test,
} from './fixtures.js';
import { pick, placeAndFill, positionsTable, practiceOf, quote, show } from './desk.js';

test('with the exchange stopped, positions still show from the store, marked stale', async ({
  page,
  betdesk,
  exchange,
}, testInfo) => {
  test.slow();
  await page.goto(betdesk.url);
  await addLiveAccount(page, exchange, 'Live desk');
  await expect(practiceOf(page)).toHaveCount(0);

  const bet = await pick(page, 0);
  await expect(practiceOf(page)).toHaveCount(0);
  // Boosted, so positions are read often and go stale soon after the exchange stops.
  await placeAndFill(page, await quote(page, { contracts: '5', boost: 30 }));
  await show(page, 'Positions');
  const row = positionsTable(page).getByRole('row', {
    name: `${bet.outcome} ${bet.home} v ${bet.away}`,
  });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(practiceOf(page)).toHaveCount(0);

  await exchange.stop();

  await expect(page.getByRole('alert', { name: 'Offline indicator' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText(/^Stale: /)).toBeVisible({ timeout: 60_000 });
  await expect(row).toBeVisible();
  await expect(row).toContainText('5');
  await expect(practiceOf(page)).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'live-offline-positions');
});

test('an account whose address is not an exchange: markets say they may be out of date, no HTML', async ({
  page,
  betdesk,
}, testInfo) => {
  const web = await startWebServer();
  try {
    await page.goto(betdesk.url);
    await addAccount(page, {
      label: 'Web page',
      baseUrl: web.url,
      apiKey: 'k-web',
      secret: 's-web',
    });
    await page.getByRole('button', { name: 'Keep it without checking' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Added Web page' })).toBeVisible();
    await switchToAccount(page, 'Web page');
    await show(page, 'Markets');
    await expect(
      page.getByText(/Prices may be out of date: the last sync with the exchange failed\.$/),
    ).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('body')).not.toContainText('DOCTYPE');
    await keepScreenshots(page, testInfo, 'markets-sync-failed');
  } finally {
    await web.close();
  }
});
