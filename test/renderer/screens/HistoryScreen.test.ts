/**
 * History as the user sees it once P&L is realized for every bet (docs/pnl.md): each row's
 * figure with where it comes from in words, the totals that leave unknown rows out and say so,
 * the progress of the P&L of past bets being worked out, and a settlement's detail with its
 * arithmetic, the exchange's cost basis beside it, or why its figure is unknown.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import HistoryScreen from '../../../src/renderer/src/screens/HistoryScreen.svelte';
import type { Root } from '../../../src/renderer/src/lib/root.js';
import type { HistoryQuery, SettlementRow } from '../../../src/shared/ipc/contract.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { mountWith, testRoot } from '../mount.js';
import {
  fixtureRef,
  historySummary,
  historyTotals,
  NOW,
  orderRow,
  realizedWorking,
  settlementRow,
} from '../rows.js';

const HELD = settlementRow({
  id: 4,
  type: 'SETTLEMENT',
  price: null,
  pnl: null,
  payout: '6.00',
  realizedPnl: '2.88',
  costBasis: '3.12',
  pnlSource: 'orders',
  settledAt: NOW,
});
const CLOSED = settlementRow({ id: 3, outcome: 'CHE', settledAt: NOW - 60_000 });
const OLD = settlementRow({
  id: 2,
  type: 'SETTLEMENT',
  price: null,
  pnl: null,
  payout: '0.00',
  realizedPnl: null,
  pnlSource: 'unknown',
  pnlNote: 'The orders that built this position are older than the first sync.',
  fixture: fixtureRef({ homeTeam: 'LIV', awayTeam: 'MCI' }),
  outcome: 'MCI',
  settledAt: NOW - 120_000,
});
const DISPUTED = settlementRow({
  id: 1,
  type: 'SETTLEMENT',
  price: null,
  pnl: null,
  payout: '10.00',
  realizedPnl: '5.00',
  costBasis: '5.00',
  pnlSource: 'exchange',
  pnlNote: 'Your orders give a cost basis of 5.20; the exchange reported 5.00.',
  settledAt: NOW - 180_000,
});
const ROWS: SettlementRow[] = [HELD, CLOSED, OLD, DISPUTED];

const WORKING = realizedWorking();
/** The exchange's cost basis is the figure; the orders give $0.20 more. */
const WORKING_DISPUTED = realizedWorking({
  basisSource: 'exchange',
  boughtCost: '8.67',
  soldCost: '3.47',
  ordersCostBasis: '5.20',
  costBasis: '5.00',
  payout: '10.00',
  realizedPnl: '5.00',
  exchangeCostBasis: '5.00',
  difference: '0.20',
});

let bridge: FakeBridge;
let root: Root;
let stops: (() => void)[];
let remove: () => void;

beforeEach(async () => {
  // As wide as a desk: the list is 80rem wide at the least, and a click lands on a row's middle.
  await page.viewport(1400, 900);
  bridge = new FakeBridge();
  bridge.answer('history:list', (q: HistoryQuery) => ({
    accountId: null,
    rows: ROWS.slice(q.offset, q.offset + q.limit),
    total: ROWS.length,
    limit: q.limit,
    offset: q.offset,
  }));
  bridge.answer(
    'history:summary',
    historySummary({
      totals: historyTotals({
        count: 4,
        pnl: '8.78',
        payouts: '16.00',
        unknown: 1,
        wins: 3,
        winRate: '1.0000',
        largestWin: '4.80',
        largestLoss: null,
        knockouts: 0,
      }),
      working: { done: 40_000, total: 120_000 },
    }),
  );
  bridge.answer('history:choices', {
    leagues: ['EPL'],
    teams: ['ARS'],
    fixtures: [],
    first: NOW,
    last: NOW,
  });
  bridge.answer('history:status', { progress: null });
  bridge.answer('history:detail', ({ id }) => {
    const row = ROWS.find((r) => r.id === id) ?? null;
    const working = id === HELD.id ? WORKING : id === DISPUTED.id ? WORKING_DISPUTED : null;
    return { row, working, orders: [orderRow({ clientOrderId: 'bd-buy' })] };
  });
  root = testRoot(bridge);
  stops = [root.history.start(), root.nav.start()];
  await settle();
  remove = mountWith(HistoryScreen, root);
});

afterEach(() => {
  remove();
  for (const stop of stops) stop();
});

const grid = () => page.getByRole('grid', { name: 'Settlements' });
/** The data row of a settlement, by its place in the list (the header is row 0). */
const row = (index: number) =>
  grid()
    .getByRole('row')
    .nth(index + 1);
const cells = (index: number) => row(index).getByRole('gridcell');
const totals = () => page.getByRole('group', { name: 'Totals for these filters' });
const detail = () => page.getByRole('dialog');

test('every row shows its realized P&L and where it comes from, in words and a mark', async () => {
  await expect.element(row(3)).toBeVisible();
  await expect.element(grid().getByRole('columnheader', { name: 'Realized P&L' })).toBeVisible();
  // Realized P&L is the seventh column, its source the eighth, the payout the ninth.
  await expect.element(cells(0).nth(6)).toHaveTextContent('+$2.88 profit');
  await expect.element(cells(0).nth(7)).toHaveTextContent('Σ your orders');
  await expect
    .element(cells(0).nth(7))
    .toHaveAccessibleDescription('P&L computed from your orders.');
  await expect.element(cells(0).nth(8)).toHaveTextContent('$6.00');
  await expect.element(cells(1).nth(6)).toHaveTextContent('+$1.10 profit');
  await expect.element(cells(1).nth(7)).toHaveTextContent('◆ exchange');
  await expect
    .element(cells(1).nth(7))
    .toHaveAccessibleDescription('P&L from the exchange’s figures.');
});

test('an unknown row says so, with why as its description; a disagreement is flagged', async () => {
  await expect.element(row(3)).toBeVisible();
  await expect.element(cells(2).nth(6)).toHaveTextContent('—');
  await expect.element(cells(2).nth(7)).toHaveTextContent('? unknown');
  await expect
    .element(cells(2).nth(7))
    .toHaveAccessibleDescription(
      'P&L unknown, and not counted in the totals: The orders that built this position are ' +
        'older than the first sync.',
    );
  await expect.element(cells(3).nth(7)).toHaveTextContent('◆ exchange ≠ (your orders differ)');
  await expect
    .element(cells(3).nth(7))
    .toHaveAccessibleDescription(
      'P&L from the exchange’s figures: Your orders give a cost basis of 5.20; the exchange ' +
        'reported 5.00.',
    );
});

test('the totals are realized, leave unknown bets out and say so, and are incomplete meanwhile', async () => {
  await expect.element(totals()).toHaveTextContent('Realized P&L +$8.78 profit');
  await expect.element(totals()).toHaveTextContent('1 bet with unknown P&L, not counted');
  await expect.element(totals()).toHaveTextContent('Payouts $16.00');
  await expect.element(totals()).toHaveTextContent('3 won of 3 known');
  await expect
    .element(totals())
    .toHaveTextContent('incomplete: the P&L of past bets is still being worked out');
});

test('while main works out the P&L of past bets, a progress line says how far', async () => {
  const bar = page.getByRole('progressbar', { name: 'P&L of past bets worked out' });
  await expect.element(bar).toBeVisible();
  await expect.element(bar).toHaveAttribute('value', String(40_000 / 120_000));
  await expect
    .element(page.getByText('Working out the P&L of past bets: 40,000 of 120,000.'))
    .toBeVisible();
});

test('a settlement held to the end shows the arithmetic from its orders', async () => {
  await row(0).click();
  const table = detail().getByRole('table', { name: 'How the P&L was worked out' });
  await expect.element(table).toBeVisible();
  const lines = table.getByRole('row');
  await expect.element(lines.nth(1)).toHaveTextContent('Bought, fees included10$5.20');
  await expect
    .element(lines.nth(2))
    .toHaveTextContent(
      'less the cost carried by those sold or knocked out before the result4−$2.08',
    );
  await expect
    .element(lines.nth(3))
    .toHaveTextContent('= Cost basis of the contracts that settled6$3.12');
  await expect.element(lines.nth(4)).toHaveTextContent('Payout6$6.00');
  await expect.element(lines.nth(5)).toHaveTextContent('less the cost basis−$3.12');
  await expect.element(lines.nth(6)).toHaveTextContent('= Realized P&L+$2.88 profit');
  // One full stop: main's method already ends its sentence (issue 27 item 13: "..").
  await expect.element(detail()).toHaveTextContent(`Method: ${WORKING.method}`);
  expect(detail().element().textContent).not.toContain('..');
  await expect
    .element(detail())
    .toHaveTextContent(/The exchange’s last cost basis, \$3\.12 \(read .+\), agrees\./);
  // The orders stay beside it.
  await expect.element(detail().getByRole('cell', { name: 'bd-buy' })).toBeVisible();
});

test('the exchange’s cost basis is the figure, the orders its check, a disagreement in words', async () => {
  await row(3).click();
  const table = detail().getByRole('table', { name: 'How the P&L was worked out' });
  const lines = table.getByRole('row');
  await expect
    .element(lines.nth(3))
    .toHaveTextContent('= Cost basis from your orders (the check)6$5.20');
  await expect.element(lines.nth(4)).toHaveTextContent('Cost basis reported by the exchange6$5.00');
  await expect.element(lines.nth(6)).toHaveTextContent('less the cost basis−$5.00');
  await expect.element(lines.nth(7)).toHaveTextContent('= Realized P&L+$5.00 profit');
  await expect
    .element(detail())
    .toHaveTextContent(
      /Disagreement: The exchange’s cost basis, \$5\.00 .*disagrees: your orders give \$0\.20 more\. The exchange’s figure stands/,
    );
});

test('an unknown settlement shows why in place of the arithmetic', async () => {
  await row(2).click();
  await expect.element(detail()).toHaveTextContent('Realized P&L unknown');
  await expect
    .element(detail())
    .toHaveTextContent(
      'P&L unknown: The orders that built this position are older than the first sync.',
    );
  await expect
    .element(detail().getByRole('table', { name: 'How the P&L was worked out' }))
    .not.toBeInTheDocument();
});

test('a close says its P&L is reported by the exchange', async () => {
  await row(1).click();
  await expect.element(detail()).toHaveTextContent('P&L reported by the exchange: +$1.10 profit.');
});

test('asked to show History with a settlement id, the screen opens that settlement', async () => {
  bridge.emit('app:show', { screen: 'history', settlementId: DISPUTED.id });
  await expect.element(detail()).toBeVisible();
  expect(root.nav.screen).toBe('history');
  await expect
    .element(detail().getByRole('heading', { level: 2 }))
    .toHaveTextContent('Settled · ARS · ARS v CHE');
  await expect.element(detail()).toHaveTextContent('= Realized P&L+$5.00 profit');
  await userEvent.keyboard('{Escape}');
  await expect.element(detail()).not.toBeInTheDocument();
});
