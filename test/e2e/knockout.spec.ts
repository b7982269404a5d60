/**
 * The knockout as a user meets it in paper mode, at the low price: the exchange knocks a
 * boosted bet out when the outcome's index price falls to its knockout, so a bet whose index sits
 * a cent above it is alive, and the Positions screen and the alerts say so.
 */
import { expect, keepScreenshot, test } from './fixtures.js';
import { pick, placeAndFill, positionsTable, practiceOf, quote, show, slipOf } from './desk.js';

test('a boosted bet an index cent above its knockout is alive: no “past”, no alert; near, then out', async ({
  page,
  betdesk,
}, testInfo) => {
  test.slow();
  await page.goto(betdesk.url);

  // Boost 60 on an outcome whose index price is 0.06: knockout 0.0379.
  const bet = await pick(page, 0);
  const practice = practiceOf(page);
  const results = practice.getByRole('log', { name: 'Practice results' });
  const setIndex = async (index: string) => {
    await practice.getByLabel(/index price/).fill(index);
    await practice.getByRole('button', { name: 'Set price' }).click();
    await expect(results.getByRole('listitem').first()).toContainText(
      `index price is now ${index}`,
    );
  };
  await setIndex('0.0600');
  await placeAndFill(page, await quote(page, { contracts: '20', boost: 60 }));
  await expect(slipOf(page)).toContainText('0.0379');

  await show(page, 'Positions');
  const row = positionsTable(page).getByRole('row', {
    name: `${bet.outcome} ${bet.home} v ${bet.away}`,
  });
  await row.click({ timeout: 30_000 });

  // The index 26 % above the knockout (its closing estimate, 0.0378, is below it).
  await setIndex('0.0479');
  await expect(row).toContainText('0.0100 · 20.88 %', { timeout: 30_000 });
  await expect(row).toContainText('Index 0.0479');
  await expect(row).not.toContainText(/past knockout|at the knockout|near:/i);
  await show(page, 'Alerts');
  const alerts = page.getByRole('list', { name: 'Alerts' });
  await expect(alerts.getByRole('listitem').first()).toContainText('Filled');
  await expect(alerts).not.toContainText(/near knockout|knocked out|reached/i);

  // "Move near the knockout": the index inside the deepest level; one near alert.
  await show(page, 'Positions');
  await practice.getByRole('button', { name: 'Move near the knockout' }).click();
  await expect(row).toContainText('Near: inside 2.00 %', { timeout: 30_000 });
  await expect(row).toContainText('Index 0.0384');
  const looks = async (name: string) => {
    for (const width of [1024, 1400]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 800 });
        await page.emulateMedia({ colorScheme });
        await keepScreenshot(page, testInfo, `${name}-${width}-${colorScheme}`);
      }
    }
  };
  await looks('positions-near');

  // Sync paused: the index price ages past twice its polling interval and says so in words.
  await page.getByRole('button', { name: 'Pause sync' }).click();
  await expect(row).toContainText(/Index 0\.0384 read \d+ s ago: stale, no alerts/, {
    timeout: 30_000,
  });
  await looks('positions-stale-index');
  await page.getByRole('button', { name: 'Resume sync' }).click();
  await expect(row).not.toContainText('stale', { timeout: 30_000 });
  await show(page, 'Alerts');
  await expect(alerts.getByRole('listitem').first()).toContainText(
    /Near knockout[\s\S]*index price 0\.0384, knockout 0\.0379, inside the 2% alert level/,
    { timeout: 30_000 },
  );

  // "Move past the knockout": knocked out once, the position gone.
  await show(page, 'Positions');
  await practice.getByRole('button', { name: 'Move past the knockout' }).click();
  await expect(row).toHaveCount(0, { timeout: 30_000 });
  await show(page, 'Alerts');
  await expect(alerts.getByRole('listitem').first()).toContainText('Knocked out', {
    timeout: 30_000,
  });
  await expect(alerts.getByRole('listitem').filter({ hasText: 'Knocked out' })).toHaveCount(1);
});
