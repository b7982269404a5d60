/**
 * The money story of issue 18 seen end to end in Chromium through the browser host, paper mode
 * over HTTP: a history made with the practice controls (a close, a knockout, a winner held to
 * the end after two buys) gives History and the Portfolio the same realized total, the rows
 * added up; the Portfolio's exposure is the open positions added up; a practice price move shows
 * on the market's price line and on the position's chart. The screens with data pass axe
 * (WCAG 2.2 A and AA) in the light and the dark theme.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { add, cmp } from '../../src/shared/money.js';
import { expect, keepScreenshots, test } from './fixtures.js';
import {
  amountOf,
  closeFromRow,
  figureIn,
  pick,
  placeAndFill,
  portfolioFigures,
  positionTotals,
  positionsTable,
  practiceOf,
  practisePrice,
  quote,
  show,
  showPortfolio,
} from './desk.js';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe's violations on the page now, light and dark, one line each. */
async function axeLightAndDark(page: Page, state: string): Promise<string[]> {
  const problems: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const result = await new AxeBuilder({ page })
      .withTags(WCAG_22_AA)
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
      .analyze();
    problems.push(
      ...result.violations.flatMap((v) =>
        v.nodes.map((n) => `${state}, ${colorScheme}: ${v.id} ${v.help}: ${n.target.join(' ')}`),
      ),
    );
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return problems;
}

const settlementRows = (page: Page): Locator =>
  page
    .getByRole('grid', { name: 'Settlements' })
    .getByRole('row')
    .filter({ has: page.locator('time') });

const historyTotals = (page: Page): Locator =>
  page.getByRole('group', { name: 'Totals for these filters' });

/** The fixture's entry in Markets, by its name ("MUN v NEW"). */
const fixtureItem = (page: Page, name: string): Locator =>
  page.getByRole('region', { name: /^League / }).getByRole('listitem', { name, exact: true });

/** The row of an open position on the Positions screen. */
const positionRow = (page: Page, bet: { outcome: string; home: string; away: string }) =>
  positionsTable(page).getByRole('row', { name: `${bet.outcome} ${bet.home} v ${bet.away}` });

test('a history made at the desk: History and Portfolio agree, exposure adds up, prices move', async ({
  page,
  betdesk,
}, testInfo) => {
  test.setTimeout(360_000);
  await page.goto(betdesk.url);

  // A boosted bet, knocked out with the practice controls.
  const ko = await pick(page, 0);
  await placeAndFill(page, await quote(page, { contracts: '5', boost: 50 }));
  await show(page, 'Positions');
  await positionRow(page, ko).click({ timeout: 30_000 });
  await practiceOf(page).getByRole('button', { name: 'Move past the knockout' }).click();
  await expect(positionRow(page, ko)).toHaveCount(0, { timeout: 30_000 });

  // A bet closed from its row.
  const closed = await pick(page, 2);
  await placeAndFill(page, await quote(page, { contracts: '4' }));
  await closeFromRow(page, closed, '4');
  await expect(positionRow(page, closed)).toHaveCount(0, { timeout: 30_000 });

  // A winner held to the end, built by two buys.
  const held = await pick(page, 4);
  await placeAndFill(page, await quote(page, { contracts: '3' }));
  await pick(page, 4);
  await placeAndFill(page, await quote(page, { contracts: '2' }));
  await show(page, 'Positions');
  // The Contracts column: both buys in one position.
  await expect(positionRow(page, held).locator('td').nth(2)).toHaveText('5', { timeout: 30_000 });
  await positionRow(page, held).click();
  await practiceOf(page)
    .getByRole('button', { name: `${held.outcome} wins` })
    .click();
  await expect(positionRow(page, held)).toHaveCount(0, { timeout: 30_000 });

  // Two bets left open, one of them boosted.
  const open = await pick(page, 6);
  await placeAndFill(page, await quote(page, { contracts: '7' }));
  const boosted = await pick(page, 8, 'away');
  await placeAndFill(page, await quote(page, { contracts: '5', boost: 20 }));
  await show(page, 'Positions');
  await expect(positionRow(page, open)).toBeVisible({ timeout: 30_000 });
  await expect(positionRow(page, boosted)).toBeVisible({ timeout: 30_000 });

  // History: three rows, each from the exchange's figures (the game held to the end: its payout
  // less the cost basis Positions showed after both buys); the realized total is the rows added
  // up.
  await show(page, 'History');
  await expect(settlementRows(page)).toHaveCount(3, { timeout: 60_000 });
  await expect(historyTotals(page)).toHaveAttribute('aria-busy', 'false');
  const cells = (n: number) =>
    settlementRows(page).locator(`[role="gridcell"]:nth-child(${n})`).allInnerTexts();
  const sources = await cells(8);
  expect(sources.filter((t) => t.includes('exchange'))).toHaveLength(3);
  const pnls = (await cells(7)).map(amountOf);
  expect(pnls).toHaveLength(3);
  const historyRealized = amountOf(await figureIn(historyTotals(page), 'Realized P&L').innerText());
  expect(cmp(historyRealized, add(...pnls)), `${historyRealized} = ${pnls.join(' + ')}`).toBe(0);

  // The held bet's detail shows the arithmetic: payout less the basis, the two buys its check.
  await settlementRows(page).filter({ hasText: 'Settled' }).click();
  const detail = page.getByRole('dialog');
  await expect(detail.getByRole('heading', { name: 'How the P&L was worked out' })).toBeVisible();
  await expect(detail.getByRole('row').filter({ hasText: 'BUY' })).toHaveCount(2);
  const detailProblems = await axeLightAndDark(page, 'History, a held bet’s detail');
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);

  // Exposure is the open positions added up.
  const positions = await positionTotals(page);

  // The Portfolio (paper, apart): the same realized total, the same exposure.
  await showPortfolio(page, 'paper');
  const figures = portfolioFigures(page);
  await expect(figureIn(figures, 'Open positions')).toHaveText('2', { timeout: 30_000 });
  const realized = amountOf(await figureIn(figures, 'Realized to date').innerText());
  expect(cmp(realized, historyRealized), `Portfolio ${realized}, History ${historyRealized}`).toBe(
    0,
  );
  await expect(figureIn(figures, 'Realized to date')).not.toContainText('unknown');
  const atRisk = amountOf(await figureIn(figures, 'Money at risk').innerText());
  const maxPayout = amountOf(await figureIn(figures, 'Max payout').innerText());
  expect(cmp(atRisk, positions.atRisk), `${atRisk} vs ${positions.atRisk}`).toBe(0);
  expect(cmp(maxPayout, positions.maxPayout), `${maxPayout} vs ${positions.maxPayout}`).toBe(0);
  const latest = page.getByRole('region', { name: 'Latest settlements' });
  await expect(latest.getByRole('listitem')).toHaveCount(3);
  const portfolioProblems = await axeLightAndDark(page, 'Portfolio with data');
  await keepScreenshots(page, testInfo, 'portfolio-data');

  // A practice price move: the market's price line says it in words, and the position's chart.
  const fixtureName = `${open.home} v ${open.away}`;
  await show(page, 'Markets');
  const line = fixtureItem(page, fixtureName).getByRole('img', {
    name: new RegExp(`^${open.outcome} `),
  });
  await expect(line).toBeVisible({ timeout: 30_000 });
  const before = (await line.getAttribute('aria-label')) ?? '';
  await show(page, 'Positions');
  await positionRow(page, open).click();
  await practisePrice(page, '0.9100');
  await show(page, 'Markets');
  await expect(line).not.toHaveAttribute('aria-label', before, { timeout: 30_000 });
  await expect(line).toHaveAttribute('aria-label', /up [\d.]+ cents? .* to 0\.91(00)?$/);
  await keepScreenshots(page, testInfo, 'markets-lines');

  await show(page, 'Positions');
  await positionsTable(page)
    .getByRole('button', { name: `Chart ${open.outcome} ${fixtureName}` })
    .click();
  const chart = page.getByRole('dialog', { name: new RegExp(`^${open.outcome}`) });
  await expect(chart.getByText(/Loading/)).toHaveCount(0, { timeout: 30_000 });
  await expect(chart.getByRole('img', { name: /index price from/ })).toHaveAttribute(
    'aria-label',
    /to 0\.91(00)? on /,
    { timeout: 30_000 },
  );
  const chartProblems = await axeLightAndDark(page, 'a position’s detail with its chart');
  await keepScreenshots(page, testInfo, 'position-chart');
  await page.keyboard.press('Escape');

  const problems = [...detailProblems, ...portfolioProblems, ...chartProblems];
  expect(problems, problems.join('\n')).toEqual([]);
});
