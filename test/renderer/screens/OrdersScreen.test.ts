/**
 * The orders screen as the user sees it: the account's orders newest first with the totals of
 * the filter, a filter that asks main again, and main's failure in its own words.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import OrdersScreen from '../../../src/renderer/src/screens/OrdersScreen.svelte';
import type { OrderPage, OrdersFilter, OrderTotals } from '../../../src/shared/ipc/contract.js';
import type { Root } from '../../../src/renderer/src/lib/root.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { mountWith, testRoot } from '../mount.js';
import { NOW, orderRow } from '../rows.js';

const ROWS = [
  orderRow({ clientOrderId: 'bd-3', createdAt: NOW, outcome: 'ARS', side: 'BUY' }),
  orderRow({ clientOrderId: 'bd-2', createdAt: NOW - 1000, outcome: 'CHE', side: 'SELL' }),
  orderRow({ clientOrderId: 'bd-1', createdAt: NOW - 2000, outcome: 'ARS', side: 'BUY' }),
];
const TOTALS: OrderTotals = { count: 3, filled: 2, staked: '72.00', proceeds: '10.50' };

function orderPage(f: OrdersFilter): OrderPage {
  const rows = ROWS.filter((r) => !f.side || r.side === f.side);
  return { rows: rows.slice(f.offset, f.offset + f.limit), total: rows.length, ...f };
}

let bridge: FakeBridge;
let root: Root;
let stop: () => void;
let remove: () => void;

beforeEach(async () => {
  bridge = new FakeBridge();
  bridge.answer('orders:list', orderPage);
  bridge.answer('orders:totals', TOTALS);
  bridge.answer('orders:fixtures', { fixtures: [{ contractId: 'EPL-ARSCHE', name: 'ARS v CHE' }] });
  root = testRoot(bridge);
  stop = root.orders.start();
  await settle();
  remove = mountWith(OrdersScreen, root);
});

afterEach(() => {
  remove();
  stop();
});

test('lists the orders newest first, with the totals of every order the filters match', async () => {
  await expect.element(page.getByRole('heading', { name: 'Orders' })).toBeVisible();
  await expect.element(page.getByText('3 orders, newest first')).toBeVisible();
  const totals = page.getByRole('group', { name: 'Totals for these filters' });
  await expect.element(totals).toHaveTextContent('3 exchange orders');
  await expect.element(totals).toHaveTextContent('Staked $72.00');
  const ids = page.getByRole('row').elements().slice(1);
  expect(ids.map((r) => r.querySelector('code')?.textContent)).toEqual(['bd-3', 'bd-2', 'bd-1']);
});

test('a filter asks main for its first page, and the list shows that page', async () => {
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Side' }), 'Sell');
  await expect.element(page.getByText('1 order, newest first')).toBeVisible();
  expect(bridge.inputs('orders:list').at(-1)).toMatchObject({ side: 'SELL', offset: 0 });
  await expect.element(page.getByRole('cell', { name: 'CHE', exact: true })).toBeVisible();
});

test('a failed read says why in main’s words', async () => {
  bridge.fail('orders:list', { kind: 'internal', message: 'The store could not be read.' });
  await root.orders.load();
  await expect.element(page.getByRole('alert')).toHaveTextContent('The store could not be read.');
});
