/**
 * Accessibility in Chromium through the browser host: every screen (Markets, Portfolio with an
 * open position and again with a settled bet, Positions, Orders, Alerts, History, Accounts) and
 * the states a user opens (a quote in the slip, the bet confirmation, the Export dialog, the
 * shortcuts overlay, a settlement's detail, a position's detail, the practice panel), in the
 * light and the dark theme, checked with axe-core against WCAG 2.2 A and AA.
 *
 * axe checks target size (2.5.8) and label in name (2.5.3) only in part, so two checks of our
 * own run beside it on every state: each control is at least 24 × 24 px (stricter than 2.5.8,
 * which would let a smaller one pass on spacing), and each control's accessible name contains
 * the text it shows. A button's text must fit inside it.
 * Every problem of a run is listed together at the end, one line each.
 *
 * And a modal owns the keyboard: with the Export dialog, the shortcuts overlay or a settlement's
 * detail open, no shortcut acts behind it, Tab stays inside, and the focus returns on close.
 */
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { seedSettlements } from '../../bench/settlement-seed.js';
import { openStore } from '../../src/main/store/index.js';
import { axeProblems, focusInside, ownProblems } from './a11y-checks.js';
import { expect, test } from './fixtures.js';
import { pick, positionsTable, practiceOf, quote, show, slipOf } from './desk.js';

const SCHEMES = ['light', 'dark'] as const;
/** The narrowest desk the layout is made for, and a wide one (Positions changes layout at 1200). */
const WIDTHS = [1024, 1400] as const;

for (const scheme of SCHEMES) {
  for (const width of WIDTHS) {
    test(`every screen and the states a user opens pass WCAG 2.2 AA (${scheme}, ${width} px)`, async ({
      page,
      betdesk,
    }) => {
      test.setTimeout(240_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      const problems: string[] = [];
      const check = async (state: string) => {
        problems.push(...(await axeProblems(page, state)), ...(await ownProblems(page, state)));
      };

      await page.goto(betdesk.url);
      await expect(page.getByRole('listitem').first()).toBeVisible();
      await check('Markets');

      // A quote in the slip, then the confirmation.
      const bet = await pick(page, 0);
      const place = await quote(page, { contracts: '3' });
      await check('Markets, a quote in the slip');
      await place.click();
      const confirm = slipOf(page).getByRole('button', { name: 'Confirm bet' });
      await expect(confirm).toBeVisible();
      await check('Markets, the bet confirmation');
      await confirm.click();
      await expect(slipOf(page).getByRole('region', { name: 'Order status' })).toContainText(
        'Filled',
        { timeout: 30_000 },
      );

      // Portfolio, with the position just bought.
      await show(page, 'Portfolio');
      await expect(page.getByRole('heading', { name: 'Portfolio', level: 2 })).toBeVisible();
      await expect(page.getByText('Loading the portfolio…')).toHaveCount(0);
      await check('Portfolio');

      // Positions, with the practice panel on the position.
      await show(page, 'Positions');
      const row = positionsTable(page).getByRole('row', {
        name: `${bet.outcome} ${bet.home} v ${bet.away}`,
      });
      await row.click({ timeout: 30_000 });
      await expect(practiceOf(page)).toBeVisible();
      await check('Positions and the practice panel');
      // The position's detail (its price chart), and back to its row.
      const chart = positionsTable(page).getByRole('button', {
        name: `Chart ${bet.outcome} ${bet.home} v ${bet.away}`,
      });
      await chart.click();
      await expect(page.getByRole('dialog', { name: new RegExp(`^${bet.outcome}`) })).toBeVisible();
      await expect(page.getByRole('dialog').getByText(/Loading prices…/)).toHaveCount(0);
      await check('Positions, a position’s detail');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(chart).toBeFocused();

      await show(page, 'Orders');
      await expect(page.getByRole('table', { name: 'Orders' })).toBeVisible();
      await check('Orders');
      await page.getByRole('button', { name: 'Export CSV…' }).click();
      await expect(page.getByRole('dialog', { name: /^Export orders to CSV/ })).toBeVisible();
      await check('Orders, the Export dialog');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);

      // The game resolves: a settlement for History, and alerts.
      await show(page, 'Positions');
      await row.click();
      await practiceOf(page)
        .getByRole('button', { name: `${bet.outcome} wins` })
        .click();
      await expect(row).toHaveCount(0, { timeout: 30_000 });

      await show(page, 'Alerts');
      await check('Alerts');

      // Portfolio with a settled bet: its realized figure, the equity curve, latest settlements.
      await show(page, 'Portfolio');
      await expect(
        page.getByRole('region', { name: 'Latest settlements' }).getByRole('listitem'),
      ).toHaveCount(1, { timeout: 30_000 });
      await expect(page.getByRole('img', { name: /equity/i })).toBeVisible();
      await check('Portfolio with a settlement');

      await show(page, 'History');
      const settlement = page
        .getByRole('grid', { name: 'Settlements' })
        .getByRole('row')
        .filter({ has: page.locator('time') });
      await expect(settlement).toHaveCount(1, { timeout: 60_000 });
      await check('History');
      await settlement.click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await check('History, a settlement’s detail');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page.locator('body').click();
      await page.keyboard.press('?');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
      await check('History, the shortcuts overlay');
      await page.keyboard.press('Escape');

      await show(page, 'Accounts');
      await check('Accounts');

      expect(problems, problems.join('\n')).toEqual([]);
    });
  }
}

/** Ctrl+7, `?` and `/` act on nothing behind the open `dialog`; Tab keeps the focus in it. */
async function keyboardStaysIn(page: Page, dialog: Locator): Promise<void> {
  // The page behind is inert, out of the accessibility tree: found by its id.
  const history = page.locator('#history-title');
  await expect.poll(() => focusInside(dialog)).toBe(true);
  await page.keyboard.press('Control+7');
  await page.keyboard.press('Control+1');
  await page.keyboard.press('?');
  await page.keyboard.press('/');
  await expect(history).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(page.locator('dialog[open]')).toHaveCount(1); // no shortcuts overlay under it
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press(i % 2 === 0 ? 'Tab' : 'Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await focusInside(dialog)).toBe(true);
  }
}

test('a modal owns the keyboard: no shortcut acts behind it, focus stays in and returns', async ({
  page,
  betdesk,
}) => {
  test.setTimeout(120_000);
  await page.goto(betdesk.url);
  await expect(page.getByRole('listitem').first()).toBeVisible();
  const store = openStore(join(betdesk.dataDir, 'betdesk.sqlite'));
  seedSettlements(store, store.accounts.list()[0]!.id, 40);
  store.close();
  await page.reload();
  await show(page, 'History');
  const rows = page
    .getByRole('grid', { name: 'Settlements' })
    .getByRole('row')
    .filter({ has: page.locator('time') });
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });

  // The Export dialog.
  const exportButton = page.getByRole('button', { name: 'Export CSV…' });
  await exportButton.click();
  const exportDialog = page.getByRole('dialog', { name: /^Export settlements to CSV/ });
  await keyboardStaysIn(page, exportDialog);
  await page.keyboard.press('Escape');
  await expect(exportDialog).toHaveCount(0);
  await expect(exportButton).toBeFocused();

  // The shortcuts overlay.
  const help = page.getByRole('button', { name: /^Shortcuts/ });
  await help.click();
  const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await keyboardStaysIn(page, overlay);
  await page.keyboard.press('Escape');
  await expect(overlay).toHaveCount(0);
  await expect(help).toBeFocused();

  // A settlement's detail.
  await rows.first().click();
  const detail = page.getByRole('dialog');
  await keyboardStaysIn(page, detail);
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);

  // With no modal open the shortcuts act again.
  await page.keyboard.press('Control+8');
  await expect(page.getByRole('heading', { name: 'Accounts', level: 2 })).toBeVisible();
});
