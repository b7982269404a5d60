/**
 * The bet slip as a user meets it in the browser host: sizes read as typed, a market's lots and
 * minimum said before quoting, a confirmation a repeated key cannot skip, a bet rejected after it
 * was sent never called placed, and a bet whose answer was lost with the host never offered again.
 */
import type { Page } from '@playwright/test';
import { addLiveAccount, expect, keepScreenshot, test } from './fixtures.js';
import { orderStatus, ordersRows, pick, practiceOf, quote, show, slipOf } from './desk.js';

/** Picks the first fixture of `league` (the Markets screen's league filter). */
async function pickIn(page: Page, league: string): Promise<void> {
  await show(page, 'Markets');
  await page.getByRole('combobox', { name: 'League' }).selectOption(league);
  // The league's group shows before the filter too: wait until it is the only one.
  await expect(page.getByRole('region', { name: /^League / })).toHaveCount(1);
  await expect(page.getByRole('region', { name: `League ${league}` })).toBeVisible();
  await pick(page, 0);
}

test('a size is read as typed, said as read, and what cannot be sent as shown is refused', async ({
  page,
  betdesk,
}, testInfo) => {
  await page.goto(betdesk.url);
  await pick(page, 0);
  const slip = slipOf(page);
  const request = slip.getByRole('button', { name: 'Request quote' });
  const size = slip.getByLabel('Number of contracts');

  for (const [typed, read] of [
    ['00012', 'Read as 12 contracts.'],
    ['12,000', 'Read as 12,000 contracts.'],
    ['１２', 'Read as 12 contracts.'],
    ['١٢', 'Read as 12 contracts.'],
  ] as const) {
    await size.fill(typed);
    await expect(slip.getByText(read)).toBeVisible();
    await expect(request).toBeEnabled();
  }
  await size.fill('1e9');
  await expect(size).toHaveAccessibleDescription(/^Write the number out in full/);
  await expect(request).toBeDisabled();
  await size.fill('9'.repeat(41));
  await expect(size).toHaveValue('9'.repeat(41));
  await expect(slip.getByText('Too large: the most is 40 digits.')).toBeVisible();

  // Dollars beyond the cent: refused before quoting, never sent as typed.
  await slip.getByRole('radio', { name: 'Dollars' }).check();
  const dollars = slip.getByLabel('Amount in USD');
  await dollars.fill('5.555');
  await expect(slip.getByText('Dollars go to the cent: enter 5.55 or 5.56.')).toBeVisible();
  await expect(request).toBeDisabled();
  await dollars.fill('.5');
  await expect(slip.getByText('Read as $0.50.')).toBeVisible();
  await keepScreenshot(page, testInfo, 'slip-size-read');
});

test('a market’s lots and minimum are said before quoting, and its refusals in words', async ({
  page,
  betdesk,
}, testInfo) => {
  await page.goto(betdesk.url);
  await pickIn(page, 'NHL');
  const slip = slipOf(page);
  await expect(
    slip.getByText('Lots of 5 contracts; the smallest bet is 10 contracts.'),
  ).toBeVisible();
  await slip.getByLabel('Number of contracts').fill('3');
  await expect(slip.getByText(/^Too small: the smallest bet on .* is 10 contracts/)).toBeVisible();
  await expect(slip.getByRole('button', { name: 'Request quote' })).toBeDisabled();

  // A dollar amount's contracts only the exchange can count: its refusal is a sentence too.
  await slip.getByRole('radio', { name: 'Dollars' }).check();
  await slip.getByLabel('Amount in USD').fill('0.01');
  await slip.getByRole('button', { name: 'Request quote' }).click();
  await expect(slip.getByRole('alert')).toHaveText(
    'Too small: that amount buys no contracts, and the smallest bet on this market is 10 contracts. Enter a larger size.',
  );
  await keepScreenshot(page, testInfo, 'slip-lots');
});

test('a second Ctrl+Enter right after the first cannot skip the confirmation', async ({
  page,
  betdesk,
}, testInfo) => {
  await page.clock.install();
  await page.goto(betdesk.url);
  await pick(page, 0);
  await quote(page, { contracts: '3' });
  const slip = slipOf(page);
  const size = slip.getByLabel('Number of contracts');
  // Time stands still in the page: both presses land the same instant after the step opened.
  await page.clock.pauseAt(Date.now() + 1000);
  await size.press('Control+Enter');
  await size.press('Control+Enter');
  const confirm = slip.getByRole('region', { name: 'Confirm bet' });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Confirm bet' })).toBeDisabled();
  await expect(slip.getByRole('region', { name: 'Order status' })).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'confirm-just-opened');

  // Half a second on, Confirm counts.
  await page.clock.runFor(750);
  await page.clock.resume();
  await expect(confirm.getByRole('button', { name: 'Confirm bet' })).toBeEnabled();
  await page.keyboard.press('Control+Enter');
  await expect(orderStatus(page)).toHaveText(/^Filled: bought 3 contracts/, { timeout: 30_000 });

  // A new quote is a new bet: the last one's result is not left under it.
  await slip.getByRole('button', { name: 'Request quote' }).click();
  await expect(slip.getByRole('button', { name: /^Place bet · / })).toBeEnabled();
  await expect(slip.getByRole('region', { name: 'Order status' })).toHaveCount(0);
});

test('a bet rejected after it was sent is never called placed', async ({
  page,
  betdesk,
}, testInfo) => {
  await page.goto(betdesk.url);
  await pick(page, 0);
  await practiceOf(page).getByRole('button', { name: 'Reject my next order' }).click();
  await expect(practiceOf(page).getByRole('log')).toContainText(/next bet/i);
  const slip = slipOf(page);
  await slip.getByRole('checkbox', { name: /^One-click betting/ }).check();
  const place = await quote(page, { contracts: '4' });
  await place.click();
  await expect(orderStatus(page)).toHaveText(/^Rejected: .*Nothing was bought or sold/, {
    timeout: 30_000,
  });
  await expect(
    slip.getByText('Not placed: nothing was bought or sold. Request a new quote to try again.'),
  ).toBeVisible();
  await expect(slip.getByText(/^Placed\./)).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'slip-rejected');
  await show(page, 'Orders');
  await expect(ordersRows(page).first()).toContainText('Rejected');
});

test('a bet whose answer is lost with the host says Not known yet and offers no retry', async ({
  page,
  context,
  betdesk,
  exchange,
}, testInfo) => {
  test.slow();
  await page.goto(betdesk.url);
  await addLiveAccount(page, exchange, 'Live');

  // A second tab watches Orders: the bet's row there means the host has it in hand.
  const watcher = await context.newPage();
  await watcher.goto(betdesk.url);
  await show(watcher, 'Orders');

  // The exchange holds its answer, so the host is killed with the order in flight.
  const fault = await fetch(`${exchange.url}/sandbox/faults`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${exchange.adminToken}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ route: 'POST /order', mode: 'latency', count: 1, ms: 20_000 }),
  });
  expect(fault.ok).toBe(true);
  await pick(page, 0);
  const slip = slipOf(page);
  await slip.getByRole('checkbox', { name: /^One-click betting/ }).check();
  const place = await quote(page, { contracts: '5' });
  await place.click();
  await expect(ordersRows(watcher)).toHaveCount(1);
  await watcher.close();

  process.kill(-(betdesk.process.pid ?? 0), 'SIGKILL');

  await expect(
    slip.getByText('Not known yet: see Orders when Betdesk is back.').first(),
  ).toBeVisible();
  await expect(
    slip.getByText(/^Not known yet: see Orders when Betdesk is back\. Place is off/),
  ).toBeVisible();
  await expect(slip).not.toContainText(/again|retry|Sending…/i);
  await expect(slip.getByRole('button', { name: /^Place bet/ })).toBeDisabled();
  await keepScreenshot(page, testInfo, 'slip-not-known-yet');
});

test('with the confirmation open and the host gone, Confirm is off and says why', async ({
  page,
  betdesk,
}, testInfo) => {
  await page.goto(betdesk.url);
  await pick(page, 0);
  const place = await quote(page, { contracts: '3' });
  await place.click();
  const confirm = slipOf(page).getByRole('region', { name: 'Confirm bet' });
  const button = confirm.getByRole('button', { name: 'Confirm bet' });
  await expect(button).toBeEnabled();

  process.kill(-(betdesk.process.pid ?? 0), 'SIGKILL');

  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(
    /^Betdesk’s background service is not answering, so nothing can be placed\./,
  );
  await expect(confirm.getByRole('status')).toBeVisible();
  await keepScreenshot(page, testInfo, 'confirm-host-gone');
});
