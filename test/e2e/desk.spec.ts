/**
 * The betting desk in paper mode, through the browser host: a bet's whole life, rehearsed with
 * the Practice panel, and the rules that keep real money safe (one order per bet, refusals
 * and rejections in words).
 */
import { expect, keepScreenshot, test } from './fixtures.js';
import {
  ordersRows,
  orderStatus,
  pick,
  placeAndFill,
  positionsTable,
  practiceOf,
  quote,
  show,
  slipOf,
} from './desk.js';

test('a bet’s whole life: filled, near its knockout, knocked out; another closed', async ({
  page,
  betdesk,
}, testInfo) => {
  test.slow();
  await page.goto(betdesk.url);

  // Quote -> FOK -> filled.
  const first = await pick(page, 0);
  const place = await quote(page, { contracts: '20', boost: 50 });
  await expect(place).toHaveAccessibleName(/^Place bet · 20 contracts · \$[\d,]+\.\d\d$/);
  await expect(slipOf(page).getByText(/^Boosted: knocked out/)).toBeVisible();
  await placeAndFill(page, place);
  await keepScreenshot(page, testInfo, 'slip-filled');

  // The position row.
  await show(page, 'Positions');
  const row = positionsTable(page).getByRole('row', {
    name: `${first.outcome} ${first.home} v ${first.away}`,
  });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('20');

  // Practice: near the knockout -> a near alert.
  await row.click();
  const practice = practiceOf(page);
  await practice.getByRole('button', { name: 'Move near the knockout' }).click();
  await expect(practice.getByRole('log', { name: 'Practice results' })).not.toBeEmpty();
  await expect(row).toContainText(/Near: inside/, { timeout: 30_000 });
  await show(page, 'Alerts');
  const alerts = page.getByRole('list', { name: 'Alerts' });
  await expect(alerts.getByRole('listitem').first()).toContainText('Near knockout', {
    timeout: 30_000,
  });
  await keepScreenshot(page, testInfo, 'alerts-near');

  // Past it -> knocked out, and the position is gone.
  await show(page, 'Positions');
  await practice.getByRole('button', { name: 'Move past the knockout' }).click();
  await show(page, 'Alerts');
  await expect(alerts.getByRole('listitem').first()).toContainText('Knocked out', {
    timeout: 30_000,
  });
  await show(page, 'Positions');
  await expect(row).toHaveCount(0, { timeout: 30_000 });

  // Another bet, closed from its row.
  const second = await pick(page, 2);
  await placeAndFill(page, await quote(page, { contracts: '8' }));
  await show(page, 'Positions');
  const close = page.getByRole('button', {
    name: `Close ${second.outcome} ${second.home} v ${second.away}`,
  });
  await close.click({ timeout: 30_000 });
  const slip = slipOf(page);
  await expect(slip.getByLabel('Contracts to sell')).toHaveValue('8');
  await slip.getByRole('button', { name: 'Request quote' }).click();
  await expect(slip.getByText('Proceeds (estimate)')).toBeVisible();
  await expect(slip.getByText('P&L locked in (estimate)')).toBeVisible();
  const sell = slip.getByRole('button', { name: /^Place bet · Sell 8 contracts/ });
  await keepScreenshot(page, testInfo, 'close-quote');
  await placeAndFill(page, sell);
  await expect(
    positionsTable(page).getByRole('row', {
      name: `${second.outcome} ${second.home} v ${second.away}`,
    }),
  ).toHaveCount(0, { timeout: 30_000 });
});

test('a double click on Place, one-click or confirmed, sends exactly one order each time', async ({
  page,
  betdesk,
}) => {
  await page.goto(betdesk.url);
  await pick(page, 0);
  const slip = slipOf(page);

  await slip.getByRole('checkbox', { name: /^One-click betting/ }).check();
  const place = await quote(page, { contracts: '5' });
  await place.dblclick();
  await expect(orderStatus(page)).toHaveText(/^Filled: /, { timeout: 30_000 });
  await show(page, 'Orders');
  await expect(ordersRows(page)).toHaveCount(1);

  // With the confirmation step: a double click on Place only opens it, one on Confirm sends once.
  await show(page, 'Markets');
  await slip.getByRole('checkbox', { name: /^One-click betting/ }).uncheck();
  const again = await quote(page, { contracts: '6' });
  await again.dblclick();
  await slip.getByRole('button', { name: 'Confirm bet' }).dblclick();
  await expect(orderStatus(page)).toHaveText(/^Filled: bought 6 contracts/, { timeout: 30_000 });
  await show(page, 'Orders');
  await expect(ordersRows(page)).toHaveCount(2);
  // Held Ctrl+Enter in the slip after the fill sends nothing more.
  await show(page, 'Markets');
  await slip.getByLabel('Number of contracts').press('Control+Enter');
  await show(page, 'Orders');
  await expect(ordersRows(page)).toHaveCount(2);
});

test('a boosted market bet shows its knockout first and is placed as MARKET', async ({
  page,
  betdesk,
}) => {
  await page.goto(betdesk.url);
  await pick(page, 1, 'away');
  const place = await quote(page, { contracts: '10', boost: 60, market: true });
  await expect(place).toHaveAccessibleName(/^Place bet · Market · 10 contracts/);
  await expect(place).toHaveAccessibleDescription(/knocked out .* about 0\.\d+/);
  await place.click();
  const confirm = slipOf(page).getByRole('region', { name: 'Confirm bet' });
  await expect(confirm).toContainText('Market price');
  await expect(confirm).toContainText(/Knockout\s*about 0\.\d+/);
  await confirm.getByRole('button', { name: 'Confirm bet' }).click();
  await expect(orderStatus(page)).toHaveText(/^Filled: /, { timeout: 30_000 });
  await show(page, 'Orders');
  const row = ordersRows(page).first();
  await expect(row).toContainText('Market');
  await expect(row.getByRole('cell').nth(9)).toHaveText('60');
  await expect(row).toContainText('Filled');
});

test('refusals and rejections are said in words', async ({ page, betdesk }, testInfo) => {
  await page.goto(betdesk.url);
  const held = await pick(page, 0);
  await placeAndFill(page, await quote(page, { contracts: '3' }));

  // The opposite outcome held: explained before anything is sent.
  await pick(page, 0, 'away');
  await slipOf(page).getByLabel('Number of contracts').fill('3');
  await expect(slipOf(page).getByRole('status').first()).toHaveText(
    new RegExp(`^You hold ${held.outcome} on ${held.home} v ${held.away}\\.`),
  );
  await expect(slipOf(page).getByRole('button', { name: 'Request quote' })).toBeDisabled();

  // The exchange rejects the next order on chain: the slip and the blotter say why.
  await practiceOf(page).getByRole('button', { name: 'Reject my next order' }).click();
  await expect(practiceOf(page).getByRole('log')).toContainText(/next bet/i);
  await pick(page, 2);
  const place = await quote(page, { contracts: '4' });
  await place.click();
  await slipOf(page).getByRole('button', { name: 'Confirm bet' }).click();
  await expect(orderStatus(page)).toHaveText(/^Rejected: .*revert/i, { timeout: 30_000 });
  await keepScreenshot(page, testInfo, 'rejected');
  await show(page, 'Orders');
  await expect(ordersRows(page).first()).toContainText('Rejected');
  await expect(ordersRows(page).first()).toContainText(/revert/i);
});

test('keyboard: screens by number, / to search, ? for the shortcuts', async ({ page, betdesk }) => {
  await page.goto(betdesk.url);
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('heading', { name: 'Positions', level: 2 })).toBeVisible();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Filter by league or team' })).toBeFocused();
  await page.keyboard.press('Control+1');
  await page.locator('body').click();
  await page.keyboard.press('?');
  const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(overlay).toContainText('Ctrl/Cmd+7');
  await page.keyboard.press('Escape');
  await expect(overlay).toHaveCount(0);
});
