/** A position's detail: opened from its row or from main's show request, with its prices and fills. */
import { expect, test } from 'vitest';
import type { OrdersFilter, OrderPage } from '../../../src/shared/ipc/contract.js';
import { ManualClock } from '../../../src/renderer/src/lib/state/clock.svelte.js';
import { NavigationState } from '../../../src/renderer/src/lib/state/navigation.svelte.js';
import { PositionsState } from '../../../src/renderer/src/lib/state/positions.svelte.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { NOW, orderRow, position, positionsView } from '../rows.js';
import { priceSeries } from '../price-rows.js';

const ars = position({ contractId: 'EPL-1', outcome: 'ARS', boosted: true, knockout: '0.40' });
const FILLS = [
  orderRow({
    clientOrderId: 'bd-3',
    contractId: 'EPL-1',
    outcome: 'ARS',
    side: 'SELL',
    createdAt: NOW - 1000,
    status: 'FILLED',
  }),
  orderRow({
    clientOrderId: 'bd-2',
    contractId: 'EPL-1',
    outcome: 'CHE',
    side: 'BUY',
    createdAt: NOW - 2000,
    status: 'FILLED',
  }),
  orderRow({
    clientOrderId: 'bd-1',
    contractId: 'EPL-1',
    outcome: 'ARS',
    side: 'BUY',
    createdAt: NOW - 3000,
    status: 'FILLED',
  }),
];

function setup() {
  const bridge = new FakeBridge();
  bridge.answer('positions:list', positionsView([ars]));
  bridge.answer('prices:series', (q) => priceSeries(['0.50', '0.55'], q));
  bridge.answer('orders:list', (f: OrdersFilter): OrderPage => ({
    rows: FILLS,
    total: FILLS.length,
    limit: f.limit,
    offset: f.offset,
  }));
  const positions = new PositionsState(bridge, new ManualClock(NOW));
  const nav = new NavigationState(bridge, positions, { openSettlement: () => Promise.resolve() });
  return { bridge, positions, nav };
}

test('opening a row reads its outcome’s prices and the filled orders of its contract', async () => {
  const { bridge, positions } = setup();
  await positions.load();
  positions.openDetail(ars);
  expect(positions.detail.opened).toEqual({ contractId: 'EPL-1', outcome: 'ARS' });
  expect(positions.selected).toBe('EPL-1|ARS');
  await settle();
  expect(bridge.inputs('prices:series')).toEqual([{ contractId: 'EPL-1', outcome: 'ARS' }]);
  expect(bridge.inputs('orders:list')).toEqual([
    { contractId: 'EPL-1', status: 'filled', limit: 500, offset: 0 },
  ]);
  expect(positions.detail.series?.points.map((p) => p.close)).toEqual(['0.50', '0.55']);
  // The other outcome's fill is not this position's; oldest first.
  expect(positions.detail.fills?.map((f) => f.clientOrderId)).toEqual(['bd-1', 'bd-3']);
  expect(positions.detail.row?.knockout).toBe('0.40');
});

test('the chart and the fills are of the position open now, not an earlier one (issue 27 item 12)', async () => {
  const { positions } = setup();
  await positions.load();
  positions.openDetail({ ...ars, heldSince: NOW - 1500 });
  await settle();
  expect(positions.detail.fills?.map((f) => f.clientOrderId)).toEqual(['bd-1', 'bd-3']);
  // bd-1 bought a finished position: only what came after the one open now began is shown.
  expect(positions.detail.heldFills?.map((f) => f.clientOrderId)).toEqual(['bd-3']);
  positions.openDetail({ ...ars, heldSince: null });
  await settle();
  expect(positions.detail.heldFills?.map((f) => f.clientOrderId)).toEqual(['bd-1', 'bd-3']);
});

test('app:show with detail: true shows the row and opens its detail', async () => {
  const { bridge, positions, nav } = setup();
  nav.start();
  await positions.load();
  bridge.emit('app:show', {
    screen: 'positions',
    contractId: 'EPL-1',
    outcome: 'ARS',
    detail: true,
  });
  expect(nav.screen).toBe('positions');
  expect(positions.highlight?.key).toBe('EPL-1|ARS');
  expect(positions.detail.opened).toEqual({ contractId: 'EPL-1', outcome: 'ARS' });
  bridge.emit('app:show', { screen: 'positions', contractId: 'EPL-1', outcome: 'ARS' });
  expect(positions.highlight?.seq).toBe(2);
  positions.detail.close();
  bridge.emit('app:show', { screen: 'positions', contractId: 'EPL-1', outcome: 'ARS' });
  expect(positions.detail.opened).toBeNull();
});

test('a push reads the prices again and keeps the last row once the position is gone', async () => {
  const { bridge, positions } = setup();
  positions.start();
  await settle();
  positions.openDetail(ars);
  await settle();
  bridge.emit('positions:changed', { accountId: null, at: NOW + 1, view: positionsView([]) });
  await settle();
  expect(bridge.inputs('prices:series')).toHaveLength(2);
  expect(positions.detail.row?.outcome).toBe('ARS');
});

test('closing drops an answer still on its way, and another account closes the detail', async () => {
  const { bridge, positions } = setup();
  const held = bridge.hold('prices:series');
  positions.openDetail(ars);
  positions.detail.close();
  held[0]?.resolve(priceSeries(['0.50']));
  await settle();
  expect(positions.detail.series).toBeNull();
  positions.openDetail(ars);
  positions.reset();
  expect(positions.detail.opened).toBeNull();
});

test('a failed read says why, and Try again reads again', async () => {
  const { bridge, positions } = setup();
  bridge.fail('prices:series', { kind: 'internal', message: 'The store is busy.' });
  positions.openDetail(ars);
  await settle();
  expect(positions.detail.seriesReads.error).toBe('The store is busy.');
  bridge.answer('prices:series', (q) => priceSeries(['0.50'], q));
  positions.detail.retry();
  await settle();
  expect(positions.detail.seriesReads.error).toBeNull();
  expect(positions.detail.series?.points).toHaveLength(1);
});
