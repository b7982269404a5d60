/**
 * Arming never sells by surprise, end to end in Chromium through the browser host, paper mode
 * over HTTP (docs/guardians.md, "Arming says what it would do now"; issue 27, items 1, 2 and
 * 5): the Guard dialog says before Arm that a rule would fire at once, with the figure, and
 * nothing is sold unless the user arms it knowing that; a time exit whose minutes have begun is
 * refused before Arm; a figure out of its kind's range is refused in the dialog's words. What
 * was sold is read from the host's store (the orders the sync read back from the exchange).
 * axe (WCAG 2.2 A and AA) on the dialog's states, light and dark.
 */
import type { Locator, Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { a11yLightAndDark } from './a11y-checks.js';
import { expect, keepScreenshots, test } from './fixtures.js';
import { pick, placeAndFill, positionsTable, practiceOf, quote, show } from './desk.js';

type Bet = { outcome: string; home: string; away: string };

const positionName = (bet: Bet): string => `${bet.outcome} ${bet.home} v ${bet.away}`;

/** The guardians' SELLs in the host's store: what the exchange said was sold. */
function guardianSells(dataDir: string): number {
  const db = new Database(join(dataDir, 'betdesk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (
      db
        .prepare(
          "SELECT count(*) AS n FROM orders WHERE side = 'SELL' AND client_order_id LIKE 'bdg-%'",
        )
        .get() as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

/** When the host's store says the fixture kicks off (its sync read the practice move). */
function startsAt(dataDir: string, bet: Bet): number {
  const db = new Database(join(dataDir, 'betdesk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare('SELECT min(starts_at) AS at FROM fixtures WHERE home_team = ? AND away_team = ?')
      .get(bet.home, bet.away) as { at: number | null };
    return row.at ?? 0;
  } finally {
    db.close();
  }
}

/** A bet bought in the slip (boosted or not), its row selected. */
async function bought(page: Page, fixture: number, boost: number): Promise<Bet> {
  const bet: Bet = await pick(page, fixture);
  await placeAndFill(page, await quote(page, { contracts: '5', boost }));
  await show(page, 'Positions');
  const row = positionsTable(page).getByRole('row', { name: positionName(bet), exact: true });
  await row.click({ timeout: 30_000 });
  return bet;
}

async function openGuard(page: Page, bet: Bet): Promise<Locator> {
  await page.getByRole('button', { name: `Guard ${positionName(bet)}` }).click();
  const dialog = page.getByRole('dialog', {
    name: `Guardians · ${bet.outcome} · ${bet.home} v ${bet.away}`,
  });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function guardDialog(page: Page, fixture: number, boost: number): Promise<Locator> {
  return openGuard(page, await bought(page, fixture, boost));
}

test('a rule that would fire at once is said before Arm, and nothing is sold unless meant', async ({
  page,
  betdesk,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.goto(betdesk.url);
  const dialog = await guardDialog(page, 0, 50);
  await dialog.getByRole('combobox', { name: 'Rule' }).selectOption('knockout');
  const figure = dialog.getByRole('textbox', { name: 'Close within (% of the knockout)' });
  await figure.fill('99.99');
  await expect(dialog.getByText(/^Rule 1 would fire at once on the figures now/)).toContainText(
    /\(knockout [0-9.]+ % away, within 99\.99 %\): armed, it sells 5 contracts/,
    { timeout: 15_000 },
  );
  await expect(dialog.getByRole('button', { name: 'Arm and close now' })).toBeVisible();
  await keepScreenshots(page, testInfo, 'guard-fires-now');
  expect(await a11yLightAndDark(page, 'Guard dialog, fires now')).toEqual([]);

  // A figure that does not hold: the warning goes, the button is plain Arm, and arming it
  // sells nothing.
  await figure.fill('5');
  await expect(dialog.getByText(/would fire at once/)).toHaveCount(0, { timeout: 15_000 });
  await dialog.getByRole('button', { name: 'Arm rule' }).click();
  await expect(dialog).toHaveCount(0);

  // A stop at −150 % is refused in the dialog's words, as the CLI and main refuse it.
  const again = await guardDialog(page, 1, 0);
  await again.getByRole('combobox', { name: 'Rule' }).selectOption('stop_loss');
  await again.getByRole('textbox', { name: 'Close at a loss of (%)' }).fill('150');
  await again.getByRole('button', { name: 'Arm rule' }).click();
  await expect(
    again.getByText('A loss is a % above 0 and at most 100, with up to two places, like 20.'),
  ).toBeVisible();
  await again.getByRole('button', { name: 'Close (Esc)' }).click();
  expect(guardianSells(betdesk.dataDir)).toBe(0);
});

test('a time exit whose minutes have begun is refused before Arm, and nothing is sold', async ({
  page,
  betdesk,
}) => {
  test.setTimeout(180_000);
  await page.goto(betdesk.url);
  const bet = await bought(page, 2, 0);
  await practiceOf(page).getByRole('button', { name: 'Kick off in 10 min' }).click();
  await expect(practiceOf(page)).toContainText(/now kicks off in 10 min/, { timeout: 15_000 });
  await expect
    .poll(() => startsAt(betdesk.dataDir, bet), { timeout: 30_000 })
    .toBeLessThan(Date.now() + 11 * 60_000);
  const exit = await openGuard(page, bet);
  await exit.getByRole('combobox', { name: 'Rule' }).selectOption('time_exit');
  await exit.getByRole('textbox', { name: 'Minutes before kick-off' }).fill('30');
  await expect(
    exit.getByText(/sooner than this time exit’s 30 min: it would close at once/),
  ).toBeVisible({
    timeout: 30_000,
  });
  expect(await a11yLightAndDark(page, 'Guard dialog, time exit refused')).toEqual([]);
  await exit.getByRole('button', { name: 'Arm rule' }).click();
  await expect(exit.getByRole('alert')).toContainText(/sooner than this time exit’s 30 min/);
  expect(guardianSells(betdesk.dataDir)).toBe(0);
});
