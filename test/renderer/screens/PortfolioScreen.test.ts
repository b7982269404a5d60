/**
 * The Portfolio screen as the user sees it: its figures in words (unknown P&L left out, the
 * largest fixture's share), the scope and period pickers, the chart's words, the exposure by
 * league, fixture or outcome, rows that open what they name, and its loading, failed and empty
 * states in words.
 */
import axe from 'axe-core';
import { afterEach, expect, test } from 'vitest';
import { cdp, page, userEvent } from 'vitest/browser';
import '../../../src/renderer/src/app.css';
import PortfolioScreen from '../../../src/renderer/src/screens/PortfolioScreen.svelte';
import type { Root } from '../../../src/renderer/src/lib/root.js';
import type { AppInfo, PortfolioView } from '../../../src/shared/ipc/contract.js';
import { BridgeFailure } from '../../../src/renderer/src/lib/bridge.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { mountWith, testRoot } from '../mount.js';
import {
  account,
  emptyPortfolio,
  equitySeries,
  exposureGroup,
  portfolioView,
} from '../portfolio-rows.js';
import { appInfo, appStatus } from '../rows.js';

const LIVE_MAIN = appInfo({ mode: 'live', activeAccountId: 'acc-main', accountLabel: 'Main' });

let bridge: FakeBridge;
let root: Root;
let stops: (() => void)[] = [];

async function open(
  options: { info?: AppInfo; accounts?: number; view?: Partial<PortfolioView> } = {},
): Promise<void> {
  bridge = new FakeBridge();
  bridge.answer('app:info', options.info ?? LIVE_MAIN);
  bridge.answer('status:get', appStatus({ mode: 'live' }));
  const accounts = [account(), account({ id: 'acc-isa', label: 'ISA', active: false })];
  bridge.answer('accounts:list', { accounts: accounts.slice(0, options.accounts ?? 2) });
  bridge.answer('portfolio:view', ({ scope }) => portfolioView({ scope, ...options.view }));
  bridge.answer('portfolio:equity', ({ scope, period }) => equitySeries(scope, period));
  root = testRoot(bridge);
  stops = [root.app.start(), root.portfolio.start()];
  await root.accounts.load();
  await settle();
  stops.push(mountWith(PortfolioScreen, root));
  await settle();
}

afterEach(() => {
  for (const stop of stops.reverse()) stop();
});

const figures = () => page.getByRole('group', { name: 'Portfolio figures' });

test('shows equity, realized and unrealized with their words, and where the risk gathers', async () => {
  await open({
    view: {
      unknownSettlements: 3,
      exposure: {
        ...portfolioView().exposure,
        largestFixture: exposureGroup({ share: '0.3812' }),
        nearKnockout: { positions: 2, atRisk: '40.00' },
      },
    },
  });
  await expect.element(page.getByRole('heading', { name: 'Portfolio', level: 2 })).toBeVisible();
  await expect.element(figures()).toHaveTextContent('Equity +$12.90 profit');
  await expect.element(figures()).toHaveTextContent('3 bets with unknown P&L not counted');
  await expect.element(figures()).toHaveTextContent('Worst case (every open bet loses) −$5.10');
  await expect
    .element(figures())
    .toHaveTextContent('$40.00 on 2 boosted positions within 10 % of the knockout');
  await expect.element(page.getByText('38 % of the money at risk is on ARS v CHE.')).toBeVisible();
  await expect.element(page.getByText('All exchange accounts (2) · positions read')).toBeVisible();
});

test('the scope picker reads another account, and paper is said to be apart', async () => {
  await open();
  const picker = page.getByRole('combobox', { name: 'Portfolio of' });
  await userEvent.selectOptions(picker, 'ISA');
  await expect.element(page.getByText(/^ISA · positions read/)).toBeVisible();
  expect(bridge.inputs('portfolio:view').at(-1)).toEqual({
    scope: { kind: 'account', accountId: 'acc-isa' },
  });
  await userEvent.selectOptions(picker, 'Paper (practice money)');
  await expect
    .element(
      page.getByText('Paper: practice money on its own, never added to your exchange accounts.'),
    )
    .toBeVisible();
  expect(bridge.inputs('portfolio:view').at(-1)).toEqual({ scope: { kind: 'paper' } });
});

test('a period reads its curve, and the chart says the change in words', async () => {
  await open();
  const chart = page.getByRole('img', { name: /^Equity over the last month: up \$15\.00/ });
  await expect.element(chart).toBeInTheDocument();
  await expect.element(chart).toHaveAccessibleName(/lowest \+\$4\.00 .* highest \+\$31\.00/);
  await page.getByRole('radio', { name: 'Year' }).click();
  await expect
    .element(page.getByRole('img', { name: /^Equity over the last year: up \$15\.00/ }))
    .toBeInTheDocument();
  expect(bridge.inputs('portfolio:equity').at(-1)).toEqual({
    scope: { kind: 'live' },
    period: 'year',
  });
});

test('an empty period says so, in words', async () => {
  await open();
  bridge.answer('portfolio:equity', ({ scope, period }) => equitySeries(scope, period, []));
  await page.getByRole('radio', { name: 'Day' }).click();
  await expect.element(page.getByText(/^No equity recorded over the last day yet/)).toBeVisible();
});

test('exposure by league, fixture or outcome, each share as a bar and a number', async () => {
  await open();
  const table = () => page.getByRole('table', { name: /^Money at risk by/ });
  await expect.element(table().getByRole('rowheader', { name: 'EPL' })).toBeVisible();
  await page.getByRole('radio', { name: 'Outcome' }).click();
  await expect.element(table().getByRole('rowheader', { name: 'ARS in ARS v CHE' })).toBeVisible();
  await expect.element(table().getByRole('row').nth(1)).toHaveTextContent('100.00 %');
});

test('a position row opens its detail on Positions; a settlement opens on History', async () => {
  await open();
  await page
    .getByRole('region', { name: 'Best open positions' })
    .getByRole('button', { name: /^ARS in ARS v CHE/ })
    .click();
  await settle();
  expect(root.nav.screen).toBe('positions');
  root.nav.screen = 'portfolio';
  await page
    .getByRole('region', { name: 'Latest settlements' })
    .getByRole('button', { name: /computed from your orders/ })
    .click();
  await settle();
  expect(root.nav.screen).toBe('history');
});

test('a row of another account says that opening it switches account', async () => {
  await open({
    view: {
      best: [
        {
          ...portfolioView().best[0]!,
          accountId: 'acc-isa',
          accountLabel: 'ISA',
        },
      ],
    },
  });
  await expect
    .element(
      page
        .getByRole('region', { name: 'Best open positions' })
        .getByRole('button', { name: /ISA \(not the active account: opening switches to it\)/ }),
    )
    .toBeVisible();
});

test('while the first figures are read it says so; a failure says why and offers Try again', async () => {
  await open();
  const held = bridge.hold('portfolio:view');
  // Another scope: its figures are not held yet.
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Portfolio of' }), 'ISA');
  await expect.element(page.getByText('Loading the portfolio…')).toBeVisible();
  held[0]!.reject(new BridgeFailure({ kind: 'internal', message: 'The store could not be read.' }));
  await expect.element(page.getByRole('alert')).toHaveTextContent('The store could not be read.');
  bridge.answer('portfolio:view', ({ scope }) => portfolioView({ scope }));
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect.element(figures()).toBeVisible();
});

test('nothing yet: an empty state with a way forward', async () => {
  await open({ accounts: 0 });
  bridge.answer('portfolio:view', ({ scope }) => emptyPortfolio(scope));
  root.portfolio.refresh();
  await expect.element(page.getByText('No exchange account yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Add an exchange account' }).click();
  expect(root.nav.screen).toBe('accounts');
});

test('offline, the figures say they come from this computer', async () => {
  await open();
  bridge.emit('sync:status', appStatus({ mode: 'live', online: false }));
  await expect
    .element(page.getByText(/^Offline: these are the figures saved on this computer/))
    .toBeVisible();
});

test('with figures in every part, axe finds no WCAG 2.2 A/AA problem, light and dark', async () => {
  await open({ view: { unknownSettlements: 2 } });
  await expect.element(figures()).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await cdp().send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-color-scheme', value: scheme }],
    });
    await new Promise((done) => requestAnimationFrame(done));
    const result = await axe.run(document.body, {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'],
    });
    const problems = result.violations.flatMap((v) =>
      v.nodes.map((n) => `${scheme}: ${v.id} ${v.help}: ${n.target.join(' ')}`),
    );
    expect(problems, problems.join('\n')).toEqual([]);
  }
});
