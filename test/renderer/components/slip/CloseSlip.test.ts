/**
 * The close slip as the user sees it (issue 28 item 8): before sending, the P&L estimated as the
 * exchange closes, oldest lots first; after "Filled", the exchange's proceeds less what the lots
 * sold cost, never a figure from the position the sale left; every figure says where it comes
 * from, and the slip stays free of axe problems at 1024 and 1400 px.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import BetSlip from '../../../../src/renderer/src/components/slip/BetSlip.svelte';
import type { Root } from '../../../../src/renderer/src/lib/root.js';
import type { HistoryPage, PositionRow } from '../../../../src/shared/ipc/contract.js';
import { axeProblems } from '../../axe.js';
import { arsAfter, arsBefore, arsSell, arsSellQuote } from '../../close-rows.js';
import { FakeBridge, settle } from '../../fake-bridge.js';
import { mountWith, testRoot } from '../../mount.js';
import { appInfo, appStatus, NOW, positionsView, settlementRow } from '../../rows.js';

let bridge: FakeBridge;
let root: Root;
let stops: (() => void)[];

beforeEach(async () => {
  bridge = new FakeBridge();
  bridge.answer('app:info', appInfo());
  bridge.answer('status:get', appStatus());
  bridge.answer('settings:get', { oneClickBetting: true, startAtLogin: false, startHidden: false });
  bridge.answer('positions:list', positionsView([arsBefore]));
  // Alive for 30 s from now, by the page's own clock.
  bridge.answer('quote:request', {
    ...arsSellQuote,
    quote: { ...arsSellQuote.quote, expiresAt: Date.now() + 30_000 },
  });
  bridge.answer('order:place', (input) => ({
    row: arsSell({ clientOrderId: input.clientOrderId, status: 'SUBMITTED', proceeds: null }),
    repeated: false,
  }));
  root = testRoot(bridge);
  await root.app.refresh();
  await root.settings.load();
  stops = [root.positions.start(), root.slip.start()];
  await settle();
  stops.push(mountWith(BetSlip, root));
});

afterEach(() => {
  for (const stop of stops) stop();
});

const quote = () => page.getByRole('region', { name: 'Quote result' });

/** Close… on `held`, 3 contracts, quoted. */
async function quoteClose(held: PositionRow): Promise<void> {
  root.slip.closePosition(held);
  await userEvent.fill(page.getByRole('textbox', { name: 'Contracts to sell' }), '3');
  await userEvent.click(page.getByRole('button', { name: 'Request quote' }));
  await expect.element(quote()).toBeVisible();
}

/** Place, then the exchange's word: the position the sale left, and the SELL filled. */
async function placeAndFill(left: PositionRow[]): Promise<void> {
  await userEvent.click(page.getByRole('button', { name: /^Place bet/ }));
  await expect.poll(() => bridge.inputs('order:place')).toHaveLength(1);
  bridge.emit('positions:changed', { accountId: null, at: NOW, view: positionsView(left) });
  const clientOrderId = bridge.inputs('order:place')[0]!.clientOrderId;
  bridge.emit('orders:changed', {
    accountId: null,
    orderIds: [],
    rows: [arsSell({ clientOrderId })],
    more: false,
    at: NOW,
  });
}

/** The value the quote shows under `label`. */
function figure(label: string): string | undefined {
  const terms = [...document.querySelectorAll('section[aria-label="Quote result"] dt')];
  return terms.find((dt) => dt.textContent === label)?.nextElementSibling?.textContent ?? undefined;
}

test('before sending, ARS closing 3 at 0.7399 is about +$0.34: the older lot’s cost', async () => {
  await quoteClose(arsBefore);
  await expect.poll(() => figure('P&L locked in (estimate)')).toBe('about +$0.34 profit');
  expect(figure('Proceeds (estimate)')).toBe('about $2.19');
  await expect
    .element(quote().getByText(/^Estimated as the exchange closes/))
    .toHaveTextContent(
      'Estimated as the exchange closes: oldest lots first, at the sell price less any boost loan and the 1 % fee; P&L = proceeds − those lots’ cost ($1.85).',
    );
  expect(await axeProblems()).toEqual([]);
});

test('after “Filled”, the exchange’s proceeds less the lots sold, not the position left', async () => {
  await quoteClose(arsBefore);
  await placeAndFill([arsAfter]);
  await expect.poll(() => figure('P&L locked in')).toBe('+$0.34 profit');
  expect(figure('Proceeds (exchange’s)')).toBe('$2.19');
  // Before issue 28 the slip said about +$0.06 here, from the 3 contracts left.
  await expect.element(quote().getByText(/\+\$0\.0[36]/)).not.toBeInTheDocument();
  await expect
    .element(quote().getByText(/^P&L = the exchange’s proceeds/))
    .toHaveTextContent(
      'P&L = the exchange’s proceeds − what the 3 contracts sold cost ($1.85, oldest lots first).',
    );
  expect(await axeProblems()).toEqual([]);
});

test('a close that leaves nothing shows what the exchange booked, from its CLOSED row', async () => {
  bridge.answer('positions:list', positionsView([arsAfter]));
  await root.positions.load();
  const booked: HistoryPage = {
    accountId: null,
    rows: [settlementRow({ contracts: 6, pnl: '0.37', settledAt: NOW + 500 })],
    total: 1,
    limit: 1,
    offset: 0,
  };
  bridge.answer('history:list', booked);
  await quoteClose(arsAfter);
  await placeAndFill([]);
  await expect.poll(() => figure('Booked by the exchange')).toBe('+$0.37 profit');
  expect(figure('P&L locked in')).toBe('+$0.03 profit');
  await expect
    .element(quote().getByText(/^P&L = the exchange’s proceeds/))
    .toHaveTextContent(
      /Booked: the exchange’s CLOSED row for the position \(6 contracts, every sale of it\)\.$/,
    );
  expect(await axeProblems()).toEqual([]);
});

test('with the position’s orders not all stored, the estimate says it is from the average cost', async () => {
  const unknownLots = { ...arsBefore, lots: null };
  bridge.answer('positions:list', positionsView([unknownLots]));
  await root.positions.load();
  await quoteClose(unknownLots);
  // Half the cost basis, $2.005: 2.19 − 2.005 = 0.185, to the even cent.
  await expect.poll(() => figure('P&L locked in (estimate)')).toBe('about +$0.18 profit');
  await expect
    .element(quote().getByText(/^Estimate from the average cost/))
    .toHaveTextContent(
      'Estimate from the average cost: the orders that built this position are not all stored. Proceeds after the 1 % fee.',
    );
});

test('the confirmation step says the estimate, and where it comes from, as the quote does', async () => {
  bridge.answer('settings:get', {
    oneClickBetting: false,
    startAtLogin: false,
    startHidden: false,
  });
  await root.settings.load();
  await quoteClose(arsBefore);
  await userEvent.click(page.getByRole('button', { name: /^Place bet/ }));
  const confirm = page.getByRole('region', { name: 'Confirm bet' });
  await expect.element(confirm.getByText('P&L locked in (estimate)')).toBeVisible();
  await expect.element(confirm.getByText('about +$0.34 profit')).toBeVisible();
  await expect.element(confirm.getByText('about $2.19')).toBeVisible();
  expect(await axeProblems()).toEqual([]);
});
