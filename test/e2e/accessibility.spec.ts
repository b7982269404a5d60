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
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { seedSettlements } from '../../bench/settlement-seed.js';
import { openStore } from '../../src/main/store/index.js';
import { expect, test } from './fixtures.js';
import { pick, positionsTable, practiceOf, quote, show, slipOf } from './desk.js';

/** The little of the DOM the in-page checks use (the e2e project is typed without the DOM lib). */
interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}
interface El {
  tagName: string;
  id: string;
  type?: string;
  value?: string;
  textContent: string | null;
  innerText: string;
  scrollWidth: number;
  clientWidth: number;
  parentElement: El | null;
  labels?: Iterable<El> | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  closest(selector: string): El | null;
  contains(other: El | null): boolean;
  querySelectorAll(selector: string): Iterable<El>;
  cloneNode(deep: boolean): El;
  remove(): void;
}
declare const document: {
  activeElement: El | null;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): Iterable<El>;
  getElementById(id: string): El | null;
};
declare function getComputedStyle(el: El): { display: string; visibility: string };

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** One line per axe violation and node: rule, what it means, where. */
async function axeProblems(page: Page, state: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(WCAG_22_AA)
    // Label in name (2.5.3) is an experimental rule in axe, off unless asked for.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${state}: ${v.id} (${v.impact ?? 'n/a'}) ${v.help}: ${n.target.join(' ')}`),
  );
}

/**
 * WCAG 2.5.8 (target size, minimum) and 2.5.3 (label in name), for every control a user can
 * reach now (inside the modal when one is open): every target but a link inside a sentence is
 * at least 24 × 24 px (the line says too whether 2.5.8's spacing would have failed it as well);
 * a name must contain the control's visible text.
 */
async function ownProblems(page: Page, state: string): Promise<string[]> {
  const found = await page.evaluate(() => {
    const problems: string[] = [];
    const root = document.querySelector('dialog:modal') ?? document;
    const selector = [
      'button',
      'a[href]',
      'input:not([type="hidden"])',
      'select',
      'textarea',
      'summary',
      '[role="button"]',
      '[role="link"]',
      '[role="checkbox"]',
      '[role="radio"]',
      '[role="switch"]',
      '[role="tab"]',
      '[role="option"]',
    ].join(',');
    const describe = (el: El): string => {
      const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40);
      const id = el.id ? `#${el.id}` : '';
      return `<${el.tagName.toLowerCase()}${id}> "${name}"`;
    };
    const targets = [...root.querySelectorAll(selector)].filter((el) => {
      if (el.closest('[inert], [hidden], [aria-hidden="true"]')) return false;
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden';
    });
    const rects = targets.map((el) => el.getBoundingClientRect());
    const small = rects.map((r) => r.width < 24 - 0.01 || r.height < 24 - 0.01);
    const centre = (r: Box) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
    const circleMeetsRect = (c: { x: number; y: number }, r: Box) => {
      const dx = Math.max(r.left - c.x, 0, c.x - r.right);
      const dy = Math.max(r.top - c.y, 0, c.y - r.bottom);
      return dx * dx + dy * dy < 12 * 12;
    };
    /** What a control shows as its label: its own text, or its <label>'s for a form field. */
    const shownLabel = (el: El): string => {
      if (!['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName) || !el.labels) {
        return el.innerText ?? '';
      }
      if (el.type === 'button' || el.type === 'submit') return el.value ?? '';
      return [...el.labels]
        .map((l) => {
          const copy = l.cloneNode(true);
          for (const c of copy.querySelectorAll('select, input, textarea, button, small')) {
            c.remove();
          }
          return copy.textContent ?? '';
        })
        .join(' ');
    };
    targets.forEach((el, i) => {
      const r = rects[i]!;
      const inline =
        el.tagName === 'A' &&
        getComputedStyle(el).display === 'inline' &&
        (el.parentElement?.textContent ?? '').trim().length > (el.textContent ?? '').length;
      if (small[i] && !inline) {
        const c = centre(r);
        const crowded = rects.some((other, j) => {
          if (j === i || targets[j]!.contains(el) || el.contains(targets[j]!)) return false;
          if (circleMeetsRect(c, other)) return true;
          if (!small[j]) return false;
          const o = centre(other);
          return (o.x - c.x) ** 2 + (o.y - c.y) ** 2 < 24 * 24;
        });
        // 2.5.8 lets a small target pass on spacing; Betdesk holds every target to 24 px.
        problems.push(
          `target-size (2.5.8): ${describe(el)} is ${r.width.toFixed(1)} × ` +
            `${r.height.toFixed(1)} px${crowded ? ', with another target within 12 px' : ''}`,
        );
      }
      // A button squeezed narrower than its words (a flex row with no room) spills them out.
      if (el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1) {
        problems.push(
          `text-overflow: ${describe(el)} is ${el.clientWidth} px wide for ` +
            `${el.scrollWidth} px of text`,
        );
      }
      const label = el.getAttribute('aria-label');
      const labelledBy = el.getAttribute('aria-labelledby');
      const name =
        label ??
        (labelledBy
          ? labelledBy
              .split(/\s+/)
              .map((id) => document.getElementById(id)?.textContent ?? '')
              .join(' ')
          : null);
      // Case, spacing and a trailing ellipsis or colon do not change what a user says.
      const norm = (s: string) =>
        s.replace(/[…:]+/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
      const shown = norm(shownLabel(el));
      if (name !== null && /[a-z0-9]/.test(shown) && !norm(name).includes(shown)) {
        problems.push(`label-in-name (2.5.3): ${describe(el)} shows "${shown}"`);
      }
    });
    return problems;
  });
  return found.map((p) => `${state}: ${p}`);
}

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

/** True when the focus is inside `dialog`. */
async function focusInside(dialog: Locator): Promise<boolean> {
  return dialog.evaluate((d: El) => d.contains(document.activeElement));
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
  await page.keyboard.press('Control+7');
  await expect(page.getByRole('heading', { name: 'Accounts', level: 2 })).toBeVisible();
});
