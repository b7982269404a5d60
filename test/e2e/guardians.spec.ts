/**
 * Guardians end to end in Chromium through the browser host, paper mode over HTTP
 * (docs/guardians.md): a knockout guard armed from a position row closes the boosted bet when the
 * practice controls move its index near the knockout, and the position row, the alert and the
 * guardian log say so. Then the same with the page closed: the host keeps guarding, and the page
 * opened again finds the bet closed while it was away. The Guard dialog and the Guardians screen
 * pass axe (WCAG 2.2 A and AA) in the light and the dark theme.
 */
import type { Locator, Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { a11yLightAndDark } from './a11y-checks.js';
import { expect, keepScreenshots, test } from './fixtures.js';
import { pick, placeAndFill, positionsTable, practiceOf, quote, show } from './desk.js';

type Bet = { outcome: string; home: string; away: string };

const positionName = (bet: Bet): string => `${bet.outcome} ${bet.home} v ${bet.away}`;

const positionRow = (page: Page, bet: Bet): Locator =>
  positionsTable(page).getByRole('row', { name: positionName(bet), exact: true });

/**
 * The state of the newest guardian rule in the host's store, read beside the running host (as
 * `cli guard list` would): how the test waits while no page is open.
 */
function lastRuleState(dataDir: string): string | null {
  const db = new Database(join(dataDir, 'betdesk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT state FROM guard_rules ORDER BY id DESC LIMIT 1').get() as
      { state: string } | undefined;
    return row?.state ?? null;
  } finally {
    db.close();
  }
}

const guardLog = (page: Page): Locator => page.getByRole('table', { name: 'Guardian log' });

/** A boosted bet bought in the slip and shown on Positions, its row selected for practice. */
async function boostedBet(page: Page, fixture: number): Promise<Bet> {
  const bet = await pick(page, fixture);
  await placeAndFill(page, await quote(page, { contracts: '5', boost: 50 }));
  await show(page, 'Positions');
  await positionRow(page, bet).click({ timeout: 30_000 });
  return bet;
}

/** Opens the row's Guard dialog and arms a knockout guard at 5 % with `checks` fresh checks. */
async function armKnockoutGuard(page: Page, bet: Bet, checks = '1'): Promise<Locator> {
  await page.getByRole('button', { name: `Guard ${positionName(bet)}` }).click();
  const dialog = page.getByRole('dialog', {
    name: `Guardians · ${bet.outcome} · ${bet.home} v ${bet.away}`,
  });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Rule' }).selectOption('knockout');
  await dialog.getByRole('textbox', { name: 'Close within (% of the knockout)' }).fill('5');
  await dialog.getByRole('textbox', { name: 'Share to close (%)' }).fill('100');
  await dialog.getByRole('textbox', { name: 'Fresh checks (K)' }).fill(checks);
  return dialog;
}

test('a knockout guard armed from a position row closes the bet: the row, the alert, the log', async ({
  page,
  betdesk,
}, testInfo) => {
  test.setTimeout(240_000);
  await page.goto(betdesk.url);
  const bet = await boostedBet(page, 0);

  const dialog = await armKnockoutGuard(page, bet);
  expect(await a11yLightAndDark(page, 'Guard dialog')).toEqual([]);
  await dialog.getByRole('button', { name: 'Arm rule' }).click();
  await expect(dialog).toHaveCount(0);
  const chips = page.getByRole('list', { name: `Guardians of ${positionName(bet)}` });
  await expect(chips).toContainText('KO guard 5 %', { timeout: 30_000 });
  await keepScreenshots(page, testInfo, 'positions-guarded');

  // The index inside 2 % of the knockout: the guard (5 %) fires, the bet is sold.
  await practiceOf(page).getByRole('button', { name: 'Move near the knockout' }).click();
  await expect(positionRow(page, bet)).toHaveCount(0, { timeout: 30_000 });

  await show(page, 'Alerts');
  const alerts = page.getByRole('list', { name: 'Alerts' });
  await expect(alerts.getByRole('listitem').filter({ hasText: 'Guardian' }).first()).toContainText(
    bet.outcome,
    { timeout: 30_000 },
  );

  await show(page, 'Guardians');
  const rows = guardLog(page).locator('tbody tr');
  await expect(rows.filter({ hasText: 'Filled' })).toHaveCount(1, { timeout: 30_000 });
  await expect(rows.filter({ hasText: 'Fired' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Filled' })).toContainText('Knockout guard');
  await expect(rows.filter({ hasText: 'Filled' })).toContainText(
    `${bet.outcome} · ${bet.home} v ${bet.away}`,
  );
  await keepScreenshots(page, testInfo, 'guardians-log');
  expect(await a11yLightAndDark(page, 'Guardians screen')).toEqual([]);
});

test('with the page closed the host keeps guarding: the page opened again finds the bet closed', async ({
  page,
  context,
  betdesk,
}) => {
  test.setTimeout(240_000);
  await page.goto(betdesk.url);
  const bet = await boostedBet(page, 1);

  // Ten fresh checks (the index is read about once a second): the guard fires after the page
  // has gone, not before.
  const dialog = await armKnockoutGuard(page, bet, '10');
  await dialog.getByRole('button', { name: 'Arm rule' }).click();
  await expect(page.getByRole('list', { name: `Guardians of ${positionName(bet)}` })).toContainText(
    'KO guard 5 %',
    { timeout: 30_000 },
  );
  await practiceOf(page).getByRole('button', { name: 'Move near the knockout' }).click();
  await page.close();
  const closedAt = Date.now();

  // Nothing renders now; the host's guardian goes on. Its store says when the rule closed.
  await expect
    .poll(() => lastRuleState(betdesk.dataDir), { timeout: 60_000, intervals: [500] })
    .toBe('closed');

  // A page opened later sees what it did.
  const again = await context.newPage();
  await again.goto(betdesk.url);
  await show(again, 'Positions');
  // The screen has its figures (no table at all when nothing is open).
  await expect(again.getByRole('region', { name: 'Positions' })).toContainText('Figures updated');
  await expect(positionRow(again, bet)).toHaveCount(0);

  await show(again, 'Guardians');
  const rows = guardLog(again).locator('tbody tr');
  const fired = rows.filter({ hasText: 'Fired' });
  await expect(fired).toHaveCount(1, { timeout: 30_000 });
  await expect(rows.filter({ hasText: 'Filled' })).toHaveCount(1, { timeout: 30_000 });
  // It fired while no page was open.
  const firedAt = Date.parse((await fired.locator('time').getAttribute('datetime')) ?? '');
  expect(firedAt).toBeGreaterThan(closedAt);

  await show(again, 'Alerts');
  await expect(
    again
      .getByRole('list', { name: 'Alerts' })
      .getByRole('listitem')
      .filter({ hasText: 'Guardian' })
      .first(),
  ).toContainText(bet.outcome);
});
