import { describe, expect, test } from 'vitest';
import type {
  OrderPage,
  OrdersChanged,
  OrdersFilter,
  OrderTotals,
} from '../../../src/shared/ipc/contract.js';
import { OrdersState } from '../../../src/renderer/src/lib/state/orders.svelte.js';
import { chooseBackwardsRange } from './backwards-range.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { NOW, orderRow } from '../rows.js';

/** A store of `n` orders, newest first, paged as main pages them. */
function store(n: number) {
  const rows = Array.from({ length: n }, (_, i) =>
    orderRow({ clientOrderId: `o-${n - i}`, createdAt: NOW - i * 1000, updatedAt: NOW - i * 1000 }),
  );
  return (f: OrdersFilter): OrderPage => {
    const matching = rows.filter((r) => !f.side || r.side === f.side);
    return {
      rows: matching.slice(f.offset, f.offset + f.limit),
      total: matching.length,
      limit: f.limit,
      offset: f.offset,
    };
  };
}

function setup(n = 12, pageSize = 5) {
  const bridge = new FakeBridge();
  bridge.answer('orders:list', store(n));
  bridge.answer('orders:fixtures', { fixtures: [{ contractId: 'EPL-ARSCHE', name: 'ARS v CHE' }] });
  bridge.answer('orders:totals', TOTALS);
  const orders = new OrdersState(bridge, pageSize, () => NOW);
  return { bridge, orders };
}

const TOTALS: OrderTotals = { count: 12, filled: 7, staked: '120.50', proceeds: '33.10' };

function midnight(ms: number, days = 0): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days).getTime();
}

const change = (rows: OrdersChanged['rows'], more = false): OrdersChanged => ({
  accountId: null,
  orderIds: [],
  rows,
  more,
  at: NOW,
});

describe('the order blotter', () => {
  test('shows the first page newest first, and pages through the rest', async () => {
    const { orders } = setup();
    orders.start();
    await settle();
    expect(orders.rows.map((r) => r.clientOrderId)).toEqual(['o-12', 'o-11', 'o-10', 'o-9', 'o-8']);
    expect(orders.total).toBe(12);
    expect(orders.fixtures).toEqual([{ contractId: 'EPL-ARSCHE', name: 'ARS v CHE' }]);
    await orders.next();
    await orders.next();
    expect(orders.rows.map((r) => r.clientOrderId)).toEqual(['o-2', 'o-1']);
    expect(orders.paging.hasNext).toBe(false);
    await orders.previous();
    expect(orders.paging.offset).toBe(5);
  });

  test('a filter goes back to the first page and is sent to main', async () => {
    const { bridge, orders } = setup();
    await orders.load();
    await orders.next();
    orders.side = 'SELL';
    orders.status = 'filled';
    orders.contractId = 'EPL-ARSCHE';
    await settle();
    expect(orders.paging.offset).toBe(0);
    expect(bridge.inputs('orders:list').at(-1)).toEqual({
      side: 'SELL',
      status: 'filled',
      contractId: 'EPL-ARSCHE',
      limit: 5,
      offset: 0,
    });
  });

  test('a push patches a row on the page in place, by its clientOrderId', async () => {
    const { bridge, orders } = setup();
    orders.start();
    await settle();
    bridge.emit(
      'orders:changed',
      change([
        orderRow({ clientOrderId: 'o-10', createdAt: NOW - 2000, status: 'FILLED', tx: '0xfeed' }),
      ]),
    );
    expect(orders.rows[2]?.status).toBe('FILLED');
    expect(orders.rows[2]?.tx).toBe('0xfeed');
    expect(orders.rows).toHaveLength(5);
    expect(bridge.inputs('orders:list')).toHaveLength(1);
  });

  test('a new order goes on top of the first page, without a reload', async () => {
    const { bridge, orders } = setup();
    orders.start();
    await settle();
    bridge.emit(
      'orders:changed',
      change([orderRow({ clientOrderId: 'bd-new', createdAt: NOW + 5, status: 'SENDING' })]),
    );
    expect(orders.rows.map((r) => r.clientOrderId)).toEqual([
      'bd-new',
      'o-12',
      'o-11',
      'o-10',
      'o-9',
    ]);
    expect(orders.total).toBe(13);
    expect(bridge.inputs('orders:list')).toHaveLength(1);
  });

  test('a new order the filters leave out, or seen from a later page, is not added', async () => {
    const { bridge, orders } = setup();
    orders.start();
    await settle();
    orders.side = 'SELL';
    await settle();
    bridge.emit(
      'orders:changed',
      change([orderRow({ clientOrderId: 'bd-buy', createdAt: NOW + 5, side: 'BUY' })]),
    );
    expect(orders.rows.some((r) => r.clientOrderId === 'bd-buy')).toBe(false);
  });

  test('“more” reloads the page', async () => {
    const { bridge, orders } = setup();
    orders.start();
    await settle();
    bridge.emit('orders:changed', change([], true));
    await settle();
    expect(bridge.inputs('orders:list')).toHaveLength(2);
  });

  test('a failed read says why', async () => {
    const { bridge, orders } = setup();
    bridge.fail('orders:list', { kind: 'internal', message: 'The store could not be read.' });
    await orders.load();
    expect(orders.reads.error).toBe('The store could not be read.');
  });

  test('100,000 orders cost one page: the first rows come from one read of 100', async () => {
    const bridge = new FakeBridge();
    bridge.answer('orders:list', store(100_000));
    const orders = new OrdersState(bridge);
    await orders.load();
    expect(bridge.inputs('orders:list')).toEqual([{ limit: 100, offset: 0 }]);
    expect(orders.rows).toHaveLength(100);
    expect(orders.total).toBe(100_000);
  });

  test('the date filter sends local midnights to the list and the totals', async () => {
    const { bridge, orders } = setup();
    orders.start();
    await settle();
    orders.range.preset = '7d';
    await settle();
    const bounds = { from: midnight(NOW, -6), to: midnight(NOW, 1) };
    expect(bridge.inputs('orders:list').at(-1)).toEqual({ ...bounds, limit: 5, offset: 0 });
    expect(bridge.inputs('orders:totals').at(-1)).toEqual(bounds);
    expect(orders.scope).toEqual(bounds);
  });

  test('totals are of every order the filter matches, read from main', async () => {
    const { bridge, orders } = setup();
    orders.start();
    await settle();
    expect(orders.totals).toEqual(TOTALS);
    orders.status = 'filled';
    await settle();
    expect(bridge.inputs('orders:totals').at(-1)).toEqual({ status: 'filled' });
  });

  test('a filter’s totals win over an older filter’s that answer later', async () => {
    const bridge = new FakeBridge();
    bridge.answer('orders:list', store(3));
    const answers = bridge.hold('orders:totals');
    const orders = new OrdersState(bridge, 5, () => NOW);
    void orders.loadTotals();
    await settle();
    orders.side = 'SELL';
    await settle();
    expect(answers).toHaveLength(2);
    answers[1]?.resolve({ ...TOTALS, count: 2 });
    await settle();
    answers[0]?.resolve({ ...TOTALS, count: 12 });
    await settle();
    expect(orders.totals?.count).toBe(2);
  });

  test('a burst of pushes reads the totals at most twice', async () => {
    const bridge = new FakeBridge();
    bridge.answer('orders:list', store(3));
    const answers = bridge.hold('orders:totals');
    const orders = new OrdersState(bridge, 5, () => NOW);
    orders.start();
    await settle();
    answers[0]?.resolve(TOTALS);
    await settle();
    for (let i = 0; i < 10; i++) bridge.emit('orders:changed', change([orderRow()]));
    await settle();
    expect(answers).toHaveLength(2);
    answers[1]?.resolve(TOTALS);
    await settle();
    expect(answers).toHaveLength(3);
    answers[2]?.resolve(TOTALS);
    await settle();
    expect(answers).toHaveLength(3);
  });

  test('dates before 1970 are asked for; while the dates are not a range, the page is stale', async () => {
    const bridge = new FakeBridge();
    const pages = bridge.hold('orders:list');
    bridge.answer('orders:fixtures', { fixtures: [] });
    bridge.answer('orders:totals', TOTALS);
    const orders = new OrdersState(bridge, 5, () => NOW);
    orders.start();
    await settle();
    pages[0]!.resolve(store(12)({ limit: 5, offset: 0 }));
    await settle();
    expect(orders.stale).toBe(false);

    await chooseBackwardsRange(orders.range);
    expect(orders.scope).toBeNull();
    expect(orders.stale).toBe(true); // the page held is of all time, not of these dates

    orders.range.from = '0001-01-01';
    await settle();
    const asked = bridge.inputs('orders:list').at(-1)!;
    expect(new Date(asked.from!).getFullYear()).toBe(1);
    expect(asked.to).toBe(new Date(2026, 2, 2).getTime());
    expect(orders.stale).toBe(true); // its page is on its way
    pages.at(-1)!.resolve(store(12)({ limit: 5, offset: 0 }));
    await settle();
    expect(orders.stale).toBe(false);
  });

  test('a new order placed outside the dates chosen is not put on the page', async () => {
    const { bridge, orders } = setup();
    orders.start();
    orders.range.preset = 'custom';
    orders.range.from = '2020-01-01';
    orders.range.to = '2020-01-31';
    await settle();
    bridge.emit(
      'orders:changed',
      change([orderRow({ clientOrderId: 'bd-now', createdAt: NOW + 5 })]),
    );
    expect(orders.rows.some((r) => r.clientOrderId === 'bd-now')).toBe(false);
  });
});

describe('exporting what the blotter shows', () => {
  test('the export is of the scope on screen, counted by main’s totals, said in words', async () => {
    const { orders } = setup();
    orders.start();
    await settle();
    orders.side = 'SELL';
    orders.contractId = 'EPL-ARSCHE';
    await settle();
    expect(orders.exportTarget).toEqual({
      kind: 'orders',
      filter: orders.scope,
      about: 'The 12 exchange orders these filters show: All time · Sell · ARS v CHE.',
    });
  });
});
