/**
 * A guardian never sells what the user did not mean, end to end in Chromium through the browser
 * host, paper mode over HTTP (issue 27, items 3 and 4; docs/guardians.md, "Knockout guard" and
 * "Sells by hand"): a partial Close… keeps the rules on what is left, and the slip's
 * confirmation names them before Confirm; a knockout guard on a position of unboosted and
 * boosted contracts ends when the exchange knocks the boosted ones out, and sells none of the
 * unboosted. What was sold is read from the host's store (the orders the sync read back from
 * the exchange): exactly the SELLs expected, none other. axe (WCAG 2.2 A and AA) on the slip's
 * confirmation, light and dark.
 */
import type { Locator, Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { a11yLightAndDark } from './a11y-checks.js';
import { expect, keepScreenshots, test } from './fixtures.js';
import { pick, placeAndFill, positionsTable, practiceOf, quote, show, slipOf } from './desk.js';

type Bet = { outcome: string; home: string; away: string };

const positionName = (bet: Bet): string => `${bet.outcome} ${bet.home} v ${bet.away}`;

function query<T>(dataDir: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(dataDir, 'betdesk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Every SELL the exchange filled, as the host's store holds them: by hand and by guardians. */
function sells(dataDir: string): { byHand: number; byGuardians: number } {
  const rows = query<{ id: string }>(
    dataDir,
    "SELECT client_order_id AS id FROM orders WHERE side = 'SELL' AND status = 'FILLED'",
  );
  const byGuardians = rows.filter((r) => r.id.startsWith('bdg-')).length;
  return { byHand: rows.length - byGuardians, byGuardians };
}

function ruleStates(dataDir: string): { state: string; reason: string | null }[] {
  return query(dataDir, 'SELECT state, reason FROM guard_rules ORDER BY id');
}

function row(page: Page, bet: Bet): Locator {
  return positionsTable(page).getByRole('row', { name: positionName(bet), exact: true });
}

async function openGuard(page: Page, bet: Bet): Promise<Locator> {
  await show(page, 'Positions');
  await row(page, bet).click({ timeout: 30_000 });
  await page.getByRole('button', { name: `Guard ${positionName(bet)}` }).click();
  const dialog = page.getByRole('dialog', {
    name: `Guardians · ${bet.outcome} · ${bet.home} v ${bet.away}`,
  });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('a partial sell by hand keeps the rules on what is left, and the slip names them first', async ({
  page,
  betdesk,
}, testInfo) => {
  test.setTimeout(240_000);
  await page.goto(betdesk.url);
  const bet = await pick(page, 3);
  await placeAndFill(page, await quote(page, { contracts: '10' }));

  const dialog = await openGuard(page, bet);
  const first = dialog.getByRole('group', { name: 'Rule 1' });
  await first.getByRole('combobox', { name: 'Rule' }).selectOption('stop_loss');
  await first.getByRole('textbox', { name: 'Close at a loss of (%)' }).fill('90');
  await dialog.getByRole('button', { name: 'Add another rule' }).click();
  const second = dialog.getByRole('group', { name: 'Rule 2' });
  await second.getByRole('combobox', { name: 'Rule' }).selectOption('take_profit');
  await second.getByRole('textbox', { name: 'Close at a profit of (%)' }).fill('500');
  await dialog.getByRole('button', { name: 'Arm 2 rules' }).click();
  await expect(dialog).toHaveCount(0);

  // Close… 5 of the 10: the confirmation says both rules stay armed on the 5 left.
  await page.getByRole('button', { name: `Close ${positionName(bet)}` }).click();
  const slip = slipOf(page);
  await slip.getByRole('textbox', { name: 'Contracts to sell' }).fill('5');
  await slip.getByRole('button', { name: 'Request quote' }).click();
  await slip.getByRole('button', { name: /^Place bet · Sell 5 contracts/ }).click();
  const keeps = slip.getByText(/^Sells 5 of 10: your 2 rules \(.+\) stay armed on the 5 left/);
  await expect(keeps).toBeVisible();
  await keeps.scrollIntoViewIfNeeded();
  await keepScreenshots(page, testInfo, 'slip-partial-sell-keeps-rules');
  expect(await a11yLightAndDark(page, 'Slip confirmation naming the rules')).toEqual([]);
  await slip.getByRole('button', { name: 'Confirm bet' }).click();
  await expect(slip.getByRole('region', { name: 'Order status' }).getByRole('status')).toHaveText(
    /^Filled: /,
    { timeout: 30_000 },
  );

  // The positions read after the sale shows 5; the rules are still armed on them.
  await show(page, 'Positions');
  await expect(row(page, bet).getByRole('cell').nth(2)).toHaveText('5', { timeout: 30_000 });
  await page.waitForTimeout(3_000); // a few more positions reads: nothing changes
  expect(ruleStates(betdesk.dataDir).map((r) => r.state)).toEqual(['armed', 'armed']);
  expect(sells(betdesk.dataDir)).toEqual({ byHand: 1, byGuardians: 0 });

  // The rest sold by hand: both rules end, said as such, and still nothing by a guardian.
  await page.getByRole('button', { name: `Close ${positionName(bet)}` }).click();
  await slip.getByRole('button', { name: 'Request quote' }).click();
  await slip.getByRole('button', { name: /^Place bet · Sell 5 contracts/ }).click();
  await expect(
    slip.getByText(/^Sells all 5: ends your .+ \(nothing left for them\)\./),
  ).toBeVisible();
  await slip.getByRole('button', { name: 'Confirm bet' }).click();
  await expect
    .poll(() => ruleStates(betdesk.dataDir).map((r) => r.state), { timeout: 30_000 })
    .toEqual(['ended', 'ended']);
  expect(ruleStates(betdesk.dataDir).map((r) => r.reason)).toEqual([
    'you sold it by hand',
    'you sold it by hand',
  ]);
  expect(sells(betdesk.dataDir)).toEqual({ byHand: 2, byGuardians: 0 });
});

test('a knockout guard ends when the boosted contracts are knocked out, and sells none of the rest', async ({
  page,
  betdesk,
}) => {
  test.setTimeout(240_000);
  await page.goto(betdesk.url);
  const bet = await pick(page, 4);
  await placeAndFill(page, await quote(page, { contracts: '5' }));
  await pick(page, 4);
  await placeAndFill(page, await quote(page, { contracts: '5', boost: 50 }));

  const dialog = await openGuard(page, bet);
  await dialog.getByRole('combobox', { name: 'Rule' }).selectOption('knockout');
  await dialog.getByRole('textbox', { name: 'Close within (% of the knockout)' }).fill('1');
  await expect(dialog.getByText(/^Its share is of the boosted contracts/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Arm rule' }).click();
  await expect(dialog).toHaveCount(0);

  // The exchange knocks the 5 boosted out: the index jumps past the knockout.
  const practice = practiceOf(page);
  await practice
    .getByRole('combobox', { name: 'Fixture' })
    .selectOption({ label: `${bet.home} v ${bet.away} · you hold ${bet.outcome}` });
  await practice.getByRole('radio', { name: bet.outcome }).check();
  await practice.getByRole('button', { name: 'Move past the knockout' }).click();

  await expect
    .poll(() => ruleStates(betdesk.dataDir).map((r) => r.state), { timeout: 60_000 })
    .toEqual(['ended']);
  expect(ruleStates(betdesk.dataDir)[0]?.reason).toMatch(/boosted contracts it guarded are gone/);
  await show(page, 'Positions');
  await expect(row(page, bet).getByRole('cell').nth(2)).toHaveText('5', { timeout: 30_000 });
  expect(sells(betdesk.dataDir)).toEqual({ byHand: 0, byGuardians: 0 });
});
