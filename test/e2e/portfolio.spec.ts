/**
 * The Portfolio screen in Chromium through the browser host: reached by Ctrl/Cmd+2 and by the
 * navigation, and a fresh paper desk's empty state, in words, with a way forward, passing axe
 * (WCAG 2.2 A and AA) in the light and the dark theme. With two exchange accounts on two sandbox
 * exchanges and paper beside them: "All exchange accounts" adds both up, each account shows its
 * own, Paper shows only paper; with the exchange gone the figures still show, and say so.
 * The money story (History and the Portfolio agreeing) is test/e2e/money.spec.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { add, cmp } from '../../src/shared/money.js';
import {
  addAccount,
  addLiveAccount,
  expect,
  keepScreenshots,
  switchToAccount,
  test,
} from './fixtures.js';
import {
  amountOf,
  figureIn,
  pick,
  placeAndFill,
  portfolioFigures,
  positionTotals,
  positionsTable,
  quote,
  screenButton,
  show,
  showPortfolio,
} from './desk.js';
import { startExchange } from './processes.js';
import { a11yLightAndDark } from './a11y-checks.js';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

const heading = (page: Page) => page.getByRole('heading', { name: 'Portfolio', level: 2 });

test('Portfolio is the second screen: Ctrl+2 and the navigation show it', async ({
  page,
  betdesk,
}) => {
  await page.goto(betdesk.url);
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await page.locator('body').click();
  await page.keyboard.press('Control+2');
  await expect(heading(page)).toBeVisible();
  await expect(screenButton(page, 'Portfolio')).toHaveAttribute('aria-current', 'page');
  await expect(screenButton(page, 'Portfolio')).toHaveAttribute(
    'aria-keyshortcuts',
    'Control+2 Meta+2',
  );

  await show(page, 'Markets');
  await show(page, 'Portfolio');
  await expect(heading(page)).toBeVisible();
});

test('a fresh paper desk: the empty state says so and leads on, axe-clean light and dark', async ({
  page,
  betdesk,
}, testInfo) => {
  await page.goto(betdesk.url);
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await show(page, 'Portfolio');
  // Paper mode shows paper, apart from real money.
  await expect(page.getByRole('combobox', { name: 'Portfolio of' })).toHaveValue('paper');
  await expect(
    page.getByText('Paper: practice money on its own, never added to your exchange accounts.'),
  ).toBeVisible();
  await expect(
    page.getByText('Nothing here yet: no open position and no settled bet.'),
  ).toBeVisible();

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const result = await new AxeBuilder({ page })
      .withTags(WCAG_22_AA)
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
      .analyze();
    const problems = result.violations.flatMap((v) =>
      v.nodes.map((n) => `${colorScheme}: ${v.id} ${v.help}: ${n.target.join(' ')}`),
    );
    expect(problems, problems.join('\n')).toEqual([]);
  }
  await keepScreenshots(page, testInfo, 'portfolio-empty');

  await page.getByRole('button', { name: 'Go to Markets' }).click();
  await expect(screenButton(page, 'Markets')).toHaveAttribute('aria-current', 'page');
});

/** The account's one bet, on the `fixture`th listed; answers its Positions totals. */
async function onlyBet(page: Page, fixture: number, contracts: string) {
  await pick(page, fixture);
  await placeAndFill(page, await quote(page, { contracts }));
  await show(page, 'Positions');
  await expect(positionsTable(page).locator('tbody tr')).toHaveCount(1, { timeout: 30_000 });
  return positionTotals(page);
}

/** The Portfolio's open positions and money at risk for the scope shown. */
async function exposureShown(page: Page): Promise<{ open: string; atRisk: string; max: string }> {
  const figures = portfolioFigures(page);
  return {
    open: await figureIn(figures, 'Open positions').innerText(),
    atRisk: amountOf(await figureIn(figures, 'Money at risk').innerText()),
    max: amountOf(await figureIn(figures, 'Max payout').innerText()),
  };
}

test('two exchange accounts add up under "All exchange accounts"; Paper stays apart', async ({
  page,
  betdesk,
  exchange,
}, testInfo) => {
  test.setTimeout(300_000);
  const seven = await startExchange(['--seed', '7']);
  try {
    await page.goto(betdesk.url);

    // A paper bet first: practice money, never added to the real.
    const paper = await onlyBet(page, 1, '3');

    // One bet on each of two exchanges.
    const walletA = await addLiveAccount(page, exchange, 'Desk A');
    const deskA = await onlyBet(page, 0, '4');
    await addLiveAccount(page, seven, 'Desk B');
    const deskB = await onlyBet(page, 0, '6');

    // Each account alone is its own Positions screen's totals.
    for (const [label, totals] of [
      ['Desk A', deskA],
      ['Desk B', deskB],
    ] as const) {
      await showPortfolio(page, label);
      await expect(figureIn(portfolioFigures(page), 'Open positions')).toHaveText('1', {
        timeout: 30_000,
      });
      const shown = await exposureShown(page);
      expect(cmp(shown.atRisk, totals.atRisk), `${label}: ${shown.atRisk}`).toBe(0);
      expect(cmp(shown.max, totals.maxPayout), `${label}: ${shown.max}`).toBe(0);
    }

    // All exchange accounts: both added up, paper left out.
    await showPortfolio(page, 'live');
    await expect(figureIn(portfolioFigures(page), 'Open positions')).toHaveText('2', {
      timeout: 30_000,
    });
    const all = await exposureShown(page);
    expect(cmp(all.atRisk, add(deskA.atRisk, deskB.atRisk)), `all: ${all.atRisk}`).toBe(0);
    expect(cmp(all.max, add(deskA.maxPayout, deskB.maxPayout)), `all: ${all.max}`).toBe(0);
    await expect(
      page.getByText('Real money only: paper trading is kept apart (choose Paper to see it).'),
    ).toBeVisible();
    // Each row says which account it is of, since two are shown.
    const best = page.getByRole('region', { name: 'Best open positions' });
    await expect(best.getByRole('listitem').filter({ hasText: 'Desk A' })).toHaveCount(1);
    await expect(best.getByRole('listitem').filter({ hasText: 'Desk B' })).toHaveCount(1);
    await keepScreenshots(page, testInfo, 'portfolio-two-accounts');

    // Paper: only paper.
    await showPortfolio(page, 'paper');
    await expect(figureIn(portfolioFigures(page), 'Open positions')).toHaveText('1', {
      timeout: 30_000,
    });
    const practice = await exposureShown(page);
    expect(cmp(practice.atRisk, paper.atRisk), `paper: ${practice.atRisk}`).toBe(0);
    expect(cmp(practice.max, paper.maxPayout), `paper: ${practice.max}`).toBe(0);

    // The active account's exchange stops: the figures still show, from this computer.
    await showPortfolio(page, 'live');
    await seven.stop();
    await expect(page.getByRole('alert', { name: 'Offline indicator' })).toBeVisible({
      timeout: 60_000,
    });
    await expect(
      page.getByText(/^Offline: these are the figures saved on this computer/),
    ).toBeVisible();
    const offline = await exposureShown(page);
    expect(cmp(offline.atRisk, all.atRisk)).toBe(0);
    await keepScreenshots(page, testInfo, 'portfolio-offline');

    // A read key of Desk A's wallet: said so when added, and the wallet is counted once.
    const readKey = await exchange.createKey('read', walletA);
    await addAccount(page, { label: 'Desk A (read)', baseUrl: exchange.url, ...readKey });
    await expect(
      page.getByRole('status').filter({
        hasText: 'This key reads the same wallet as "Desk A": they hold the same orders.',
      }),
    ).toBeVisible();
    await switchToAccount(page, 'Desk A (read)');
    await showPortfolio(page, 'live');
    await expect(
      page.getByText('“Desk A” reads the same wallet as “Desk A (read)”: counted once'),
    ).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('All exchange accounts (3, 2 wallets)')).toBeVisible();
    const once = await exposureShown(page);
    expect(once.open).toBe('2');
    expect(cmp(once.atRisk, all.atRisk), `once: ${once.atRisk}`).toBe(0);
    expect(await a11yLightAndDark(page, 'Portfolio, one wallet read by two keys')).toEqual([]);
    await keepScreenshots(page, testInfo, 'portfolio-one-wallet-two-keys');
    await show(page, 'Accounts');
    await expect(page.getByRole('row', { name: 'Account Desk A (read)' })).toContainText(
      'Same wallet as Desk A: counted once',
    );
    await expect(page.getByRole('row', { name: 'Account Desk A', exact: true })).toContainText(
      'Same wallet as Desk A (read): counted once',
    );
    expect(await a11yLightAndDark(page, 'Accounts, one wallet read by two keys')).toEqual([]);
    await keepScreenshots(page, testInfo, 'accounts-one-wallet-two-keys');
  } finally {
    await seven.stop();
  }
});
