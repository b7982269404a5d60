/**
 * A position's detail on the positions screen: opened from its row's Chart button, by Enter on
 * its row, or by main's show request; its chart with the entry, knockout and closing lines and
 * the fills; Esc closes it and the focus goes back to the row.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { flushSync } from 'svelte';
import PositionsScreen from '../../../src/renderer/src/screens/PositionsScreen.svelte';
import type { OrderPage, PriceSeries } from '../../../src/shared/ipc/contract.js';
import type { Root } from '../../../src/renderer/src/lib/root.js';
import { FakeBridge, settle, type Deferred } from '../fake-bridge.js';
import { mountWith, testRoot } from '../mount.js';
import { NOW, orderRow, position, positionsView } from '../rows.js';
import { priceSeries } from '../price-rows.js';

const boosted = position({
  contractId: 'EPL-ARSCHE',
  outcome: 'ARS',
  boosted: true,
  knockout: '0.4000',
  entryPrice: '0.5000',
  estimatedClosingPrice: '0.5400',
});
const plain = position({ contractId: 'EPL-LIVMUN', outcome: 'LIV', entryPrice: '0.6000' });
const FILLS: OrderPage = {
  rows: [
    orderRow({
      clientOrderId: 'bd-1',
      side: 'BUY',
      contracts: 10,
      entryPrice: '0.5000',
      createdAt: NOW - 7_000_000,
      status: 'FILLED',
    }),
    orderRow({
      clientOrderId: 'bd-2',
      side: 'SELL',
      contracts: 4,
      entryPrice: '0.5500',
      createdAt: NOW - 600_000,
      status: 'FILLED',
    }),
  ],
  total: 2,
  limit: 500,
  offset: 0,
};

let bridge: FakeBridge;
let root: Root;
let series: Deferred<PriceSeries>[];
let stop: () => void;
let remove: () => void;

beforeEach(async () => {
  bridge = new FakeBridge();
  bridge.answer('positions:list', positionsView([boosted, plain]));
  bridge.answer('orders:list', FILLS);
  series = bridge.hold('prices:series');
  root = testRoot(bridge);
  stop = root.positions.start();
  await settle();
  remove = mountWith(PositionsScreen, root);
});

afterEach(() => {
  remove();
  stop();
});

const dialog = () => page.getByRole('dialog');

test('the Chart button opens the detail: loading, then the chart with its lines and fills', async () => {
  const button = page.getByRole('button', { name: 'Chart ARS ARS v CHE' });
  await button.click();
  await expect.element(dialog()).toBeVisible();
  await expect
    .element(dialog().getByRole('heading', { level: 2 }))
    .toHaveTextContent('ARS ⚡ boosted · ARS v CHE');
  await expect.element(dialog().getByText('Loading prices…')).toBeVisible();
  expect(bridge.inputs('prices:series')).toEqual([{ contractId: 'EPL-ARSCHE', outcome: 'ARS' }]);
  series[0]?.resolve(priceSeries(['0.5000', '0.4800', '0.5500']));
  const chart = dialog().getByRole('img', { name: /^ARS index price from 0\.5000/ });
  await expect.element(chart).toBeVisible();
  await expect.element(chart).toHaveAccessibleName(/Knockout at 0\.4000\./);
  await expect.element(chart).toHaveAccessibleName(/2 fills: bought 10 contracts at 0\.5000/);
  await expect.element(dialog().getByText(/knockout 0\.4000 \(red dotted\)/)).toBeVisible();
  // uPlot draws it (a canvas) and its legend names every line.
  await expect.poll(() => chart.element().querySelector('canvas')).not.toBeNull();
  const legend = chart.element().querySelector('.u-legend')?.textContent ?? '';
  for (const label of ['Index price', 'Entry', 'Knockout', 'Closing now (est.)', 'Buys', 'Sells']) {
    expect(legend).toContain(label);
  }
  await expect
    .element(dialog().getByRole('listitem').first())
    .toHaveTextContent(/^bought 10 contracts at 0\.5000/);
});

test('Esc closes the detail and the focus goes back to the row’s Chart button', async () => {
  const button = page.getByRole('button', { name: 'Chart LIV ARS v CHE' });
  await button.click();
  await expect.element(dialog()).toBeVisible();
  await expect.element(dialog().getByRole('heading', { level: 2 })).toHaveTextContent(/^LIV · /);
  series[0]?.resolve(priceSeries([]));
  await expect.element(dialog().getByText(/No price recorded for LIV yet/)).toBeVisible();
  await expect.element(dialog().getByText('Not boosted')).toBeVisible();
  await userEvent.keyboard('{Escape}');
  await expect.element(dialog()).not.toBeInTheDocument();
  await expect.element(button).toHaveFocus();
});

test('nav.show with detail: true opens it; on close the focus goes to the row', async () => {
  root.nav.show({ screen: 'positions', contractId: 'EPL-ARSCHE', outcome: 'ARS', detail: true });
  flushSync();
  await expect.element(dialog()).toBeVisible();
  await dialog().getByRole('button', { name: 'Close', exact: true }).click();
  await expect.element(dialog()).not.toBeInTheDocument();
  await expect.element(page.getByRole('row', { name: 'ARS ARS v CHE' })).toHaveFocus();
});

test('Enter on a focused row opens its detail; a failed read says why and reads again', async () => {
  bridge.fail('prices:series', { kind: 'internal', message: 'The store is busy.' });
  const row = page.getByRole('row', { name: 'LIV ARS v CHE' });
  (row.element() as HTMLElement).focus();
  await userEvent.keyboard('{Enter}');
  await expect
    .element(dialog().getByRole('alert'))
    .toHaveTextContent('The prices could not be read: The store is busy.');
  bridge.answer(
    'prices:series',
    priceSeries(['0.60', '0.61'], { contractId: 'EPL-LIVMUN', outcome: 'LIV' }),
  );
  await dialog().getByRole('button', { name: 'Try again' }).click();
  const chart = dialog().getByRole('img', { name: /^LIV index price from 0\.60/ });
  await expect.element(chart).toBeVisible();
  // Not boosted: no knockout line, in the legend or the words; the legend shows the last price.
  await expect.poll(() => chart.element().querySelector('.u-legend')).not.toBeNull();
  const legend = chart.element().querySelector('.u-legend')?.textContent ?? '';
  expect(legend).not.toContain('Knockout');
  expect(legend).toContain('0.61');
  await expect.element(chart).toHaveAccessibleName(/Not boosted: no knockout\./);
});
