/**
 * Markets per exchange: paper's sandbox (the default seed) and an account on a second sandbox
 * (`npm run exchange -- --seed 7`), whose fixtures overlap paper's in name (MUN v NEW on both).
 * Each account's Markets list is its own exchange's: quotable there, and practised on in paper.
 */
import type { Page } from '@playwright/test';
import { addLiveAccount, expect, keepScreenshot, test } from './fixtures.js';
import { practiceOf, quote, show } from './desk.js';
import { startExchange } from './processes.js';

const fixtureItem = (page: Page, name: string) =>
  page.getByRole('region', { name: /^League / }).getByRole('listitem', { name, exact: true });

/** Sets the home team's index price of `name` with the Practice panel. */
async function practisePrice(page: Page, name: string, home: string, price: string) {
  const practice = practiceOf(page);
  await practice.getByLabel('Fixture').selectOption({ label: name });
  await practice.getByRole('radio', { name: home }).check();
  await practice.getByRole('textbox', { name: /index price/ }).fill(price);
  await practice.getByRole('button', { name: 'Set price' }).click();
  const log = practice.getByRole('log', { name: 'Practice results' });
  await expect(log.getByRole('listitem').first()).toContainText(
    `${name}: ${home}’s index price is now ${price}`,
  );
  await expect(log).not.toContainText('Refused');
}

test('an account on another exchange lists, quotes and practises only its own markets', async ({
  page,
  betdesk,
}, testInfo) => {
  test.slow();
  const seven = await startExchange(['--seed', '7']);
  try {
    await page.goto(betdesk.url);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    // The sandbox seeds 24 fixtures, 19 of them open for betting (docs/sandbox.md).
    await expect(pager).toContainText('Showing 1–19 of 19');
    await practisePrice(page, 'VGK v TOR', 'VGK', '0.0700');
    await expect(fixtureItem(page, 'VGK v TOR')).toContainText('0.0700');

    await addLiveAccount(page, seven, 'Seed seven');

    await show(page, 'Markets');
    await expect(fixtureItem(page, 'MUN v NEW')).toHaveCount(1);
    await expect(pager).toContainText('Showing 1–19 of 19');
    await expect(fixtureItem(page, 'VGK v TOR')).toHaveCount(0);
    await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('Up to date');
    await fixtureItem(page, 'MUN v NEW').getByRole('button').first().click();
    await quote(page, { contracts: '2' });
    await keepScreenshot(page, testInfo, 'markets-seed-seven');

    await page.getByRole('button', { name: 'Accounts' }).click();
    await page.getByRole('button', { name: 'Switch to paper trading' }).click();
    await expect(page.getByRole('status', { name: 'Paper trading: no real money' })).toBeVisible();
    await show(page, 'Markets');
    await expect(pager).toContainText('Showing 1–19 of 19');
    await expect(fixtureItem(page, 'MUN v NEW')).toHaveCount(1);
    await expect(fixtureItem(page, 'VGK v TOR')).toContainText('0.0700');
    await practisePrice(page, 'MUN v NEW', 'MUN', '0.4000');
    await keepScreenshot(page, testInfo, 'markets-paper-again');
  } finally {
    await seven.stop();
  }
});
