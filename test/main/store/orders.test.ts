import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../src/shared/api/schemas.js';
import type { Store } from '../../../src/main/store/index.js';
import { dump, order, tempStore } from './support.js';

let store: Store;
let accountId: number;
let done = () => {};
beforeEach(() => {
  const t = tempStore();
  ({ store, accountId, done } = t);
});
afterEach(() => done());

describe('applyOrderUpdates', () => {
  it('stores the orders and advances the cursor together', () => {
    const batch = [order(1), order(2, { knockout: '0.3012', boost: 50 })];
    const r = store.applyOrderUpdates(accountId, batch, 1_700_000_005_000);
    expect(r).toEqual({ written: 2, intentsDone: 0, realized: 0 });
    expect(store.cursors.get(accountId, 'orders')?.cursor).toBe(1_700_000_005_000);
    expect(store.orders.getByOrderId(accountId, batch[1]!.orderId)).toEqual(batch[1]);
    expect(store.orders.getByClientOrderId(accountId, 'bd-1')).toEqual(batch[0]);
  });

  it('keeps decimal strings exactly as received', () => {
    const o = order(3, { entryPrice: '0.5000', cost: '10.10', maxWin: '1000.00', qty: '0.10' });
    store.applyOrderUpdates(accountId, [o], 1);
    const back = store.orders.getByOrderId(accountId, o.orderId)!;
    expect([back.entryPrice, back.cost, back.maxWin, back.qty]).toEqual([
      '0.5000',
      '10.10',
      '1000.00',
      '0.10',
    ]);
    const types = store.db
      .prepare('SELECT typeof(entry_price), typeof(cost), typeof(qty) FROM orders')
      .raw(true)
      .get();
    expect(types).toEqual(['text', 'text', 'text']);
  });

  it('round-trips the optional fields: error, knockout, proceeds, rfqId', () => {
    const o = order(4, {
      status: 'REJECTED',
      error: { code: -2024, msg: 'reverted on chain' },
      knockout: '0.2000',
      proceeds: '12.34',
      rfqId: 'rfq-1',
      tx: '0xabc',
    });
    store.applyOrderUpdates(accountId, [o], 1);
    expect(store.orders.getByOrderId(accountId, o.orderId)).toEqual(o);
  });

  it('replaces an order with a newer report but never with an older one', () => {
    const submitted = order(5);
    const filled = {
      ...submitted,
      status: 'FILLED' as const,
      tx: '0xfeed',
      updatedAt: submitted.updatedAt + 2000,
    };
    store.applyOrderUpdates(accountId, [submitted], 10);
    store.applyOrderUpdates(accountId, [filled], 20);
    expect(store.orders.getByOrderId(accountId, submitted.orderId)?.status).toBe('FILLED');
    const r = store.applyOrderUpdates(accountId, [submitted], 30);
    expect(r.written).toBe(0);
    expect(store.orders.getByOrderId(accountId, submitted.orderId)).toEqual(filled);
    expect(store.cursors.get(accountId, 'orders')?.cursor).toBe(30);
  });

  it('writes new, newer and older reports right in any mix within a batch', () => {
    const known = [order(1), order(2), order(3)];
    store.applyOrderUpdates(accountId, known, 1);
    const newer = (o: Order): Order => ({ ...o, status: 'FILLED', updatedAt: o.updatedAt + 1 });
    const older = (o: Order): Order => ({ ...o, status: 'OPEN', updatedAt: o.updatedAt - 1 });
    // Runs of known and unknown orders, each followed by a report that must not be written.
    const batch = [
      newer(known[0]!),
      order(4),
      older(known[1]!),
      order(5),
      newer(known[2]!),
      older(known[0]!),
      order(6),
    ];
    const r = store.applyOrderUpdates(accountId, batch, 2);
    expect(r.written).toBe(5);
    expect(store.orders.getByOrderId(accountId, known[0]!.orderId)).toEqual(newer(known[0]!));
    expect(store.orders.getByOrderId(accountId, known[1]!.orderId)).toEqual(known[1]);
    expect(store.orders.getByOrderId(accountId, known[2]!.orderId)).toEqual(newer(known[2]!));
    for (const i of [4, 5, 6]) {
      expect(store.orders.getByOrderId(accountId, order(i).orderId)).toEqual(order(i));
    }
    expect(store.orders.list(accountId).total).toBe(6);
  });

  it('rewrites an order reported again with the same updatedAt', () => {
    const o = order(8);
    store.applyOrderUpdates(accountId, [o], 1);
    const again = { ...o, tx: '0xabc' };
    expect(store.applyOrderUpdates(accountId, [again], 2).written).toBe(1);
    expect(store.orders.getByOrderId(accountId, o.orderId)?.tx).toBe('0xabc');
  });

  it('is idempotent: the same batch applied twice leaves the same state', () => {
    const batch = Array.from({ length: 50 }, (_, i) => order(i));
    store.intents.create({ clientOrderId: 'bd-7', accountId, params: { qty: '1' } });
    store.applyOrderUpdates(accountId, batch, 99);
    const once = dump(store);
    store.applyOrderUpdates(accountId, batch, 99);
    const twice = dump(store);
    // Only the cursor's last_sync_at (a clock reading) may differ.
    for (const c of [...once['sync_cursors']!, ...twice['sync_cursors']!]) {
      delete (c as Record<string, unknown>)['last_sync_at'];
    }
    expect(twice).toEqual(once);
  });

  it('is atomic: a bad row mid-batch leaves orders, intents and cursor unchanged', () => {
    store.applyOrderUpdates(accountId, [order(1)], 100);
    store.intents.create({ clientOrderId: 'bd-2', accountId, params: { qty: '1' } });
    const before = dump(store);
    const bad = { ...order(3), status: 'BOGUS' } as unknown as Order;
    const batch = [
      order(2),
      { ...order(1), status: 'FILLED' as const, updatedAt: 2e12 },
      bad,
      order(4),
    ];
    expect(() => store.applyOrderUpdates(accountId, batch, 200)).toThrow(/CHECK constraint/);
    expect(dump(store)).toEqual(before);
    expect(store.cursors.get(accountId, 'orders')?.cursor).toBe(100);
    expect(store.intents.get('bd-2')?.state).toBe('pending');
  });

  it('marks the intents whose orders it sees as done, with the orderId', () => {
    store.intents.create({ clientOrderId: 'bd-1', accountId, params: { a: 1 } });
    store.intents.create({ clientOrderId: 'bd-9', accountId, params: { a: 2 } });
    store.intents.markUnknown('bd-1', { code: -5004, msg: 'timeout' });
    const r = store.applyOrderUpdates(accountId, [order(1), order(2)], 5);
    expect(r.intentsDone).toBe(1);
    expect(store.intents.get('bd-1')).toMatchObject({ state: 'done', orderId: order(1).orderId });
    expect(store.intents.listOpen(accountId).map((i) => i.clientOrderId)).toEqual(['bd-9']);
  });

  it('does not touch another account’s orders or intents', () => {
    const other = store.accounts.create({ label: 'other', baseUrl: 'http://x', apiKey: 'k2' }).id;
    store.intents.create({ clientOrderId: 'bd-1', accountId: other, params: {} });
    store.applyOrderUpdates(accountId, [order(1)], 5);
    expect(store.intents.get('bd-1')?.state).toBe('pending');
    expect(store.orders.getByOrderId(other, order(1).orderId)).toBeUndefined();
    expect(store.cursors.get(other, 'orders')).toBeUndefined();
  });
});

describe('OrdersRepo.list', () => {
  beforeEach(() => {
    const batch = Array.from({ length: 40 }, (_, i) =>
      order(i, {
        status: i % 4 === 0 ? 'FILLED' : i % 4 === 1 ? 'CANCELED' : 'SUBMITTED',
        // Pairs share a createdAt, so ordering must fall back to orderId.
        createdAt: 1_700_000_000_000 + Math.floor(i / 2) * 1000,
      }),
    );
    store.applyOrderUpdates(accountId, batch, 1);
  });

  it('lists newest first with a total, and pages neither repeat nor skip', () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 45; offset += 7) {
      const page = store.orders.list(accountId, { limit: 7, offset });
      expect(page.total).toBe(40);
      seen.push(...page.orders.map((o) => o.orderId));
    }
    expect(seen).toHaveLength(40);
    expect(new Set(seen).size).toBe(40);
    const all = store.orders.list(accountId, { limit: 100 }).orders;
    for (let i = 1; i < all.length; i++) {
      const a = all[i - 1]!;
      const b = all[i]!;
      expect(
        a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.orderId > b.orderId),
      ).toBe(true);
    }
  });

  it('filters by status, contract and team before paging', () => {
    const filled = store.orders.list(accountId, { status: 'FILLED', limit: 3 });
    expect(filled.total).toBe(10);
    expect(filled.orders.every((o) => o.status === 'FILLED')).toBe(true);
    expect(store.orders.list(accountId, { status: ['FILLED', 'CANCELED'] }).total).toBe(20);
    const contract = store.orders.list(accountId, { contractId: 'epl-3', team: 'ars' });
    const expected = Array.from({ length: 40 }, (_, i) => i).filter(
      (i) => i % 7 === 3 && i % 2 === 1,
    );
    expect(contract.total).toBe(expected.length);
    expect(contract.orders.map((o) => o.clientOrderId).sort()).toEqual(
      expected.map((i) => `bd-${i}`).sort(),
    );
  });

  it('answers an offset past the end with an empty page', () => {
    expect(store.orders.list(accountId, { offset: 500 })).toMatchObject({ orders: [], total: 40 });
  });

  it('lists the orders still pending', () => {
    expect(store.orders.listPending(accountId).every((o) => o.status === 'SUBMITTED')).toBe(true);
    expect(store.orders.listPending(accountId)).toHaveLength(20);
  });
});

describe('OrdersRepo.listBetween', () => {
  it('lists the orders on one outcome of one contract in a time window, oldest first', () => {
    const at = (i: number, createdAt: number, over: Partial<Order> = {}) =>
      order(i, { contractId: 'EPL-1', outcome: 'ARS', createdAt, updatedAt: createdAt, ...over });
    store.applyOrderUpdates(
      accountId,
      [
        at(1, 1000),
        at(2, 3000, { side: 'SELL', status: 'FILLED' }),
        at(3, 2000),
        at(4, 2000, { outcome: 'CHE' }),
        at(5, 2500, { contractId: 'EPL-2' }),
        at(6, 4000),
      ],
      1,
    );
    const ids = (after: number | null, until: number) =>
      store.orders.listBetween(accountId, 'epl-1', 'ars', after, until).map((o) => o.clientOrderId);
    expect(ids(null, 3000)).toEqual(['bd-1', 'bd-3', 'bd-2']);
    expect(ids(1000, 3000)).toEqual(['bd-3', 'bd-2']);
    expect(ids(2000, 2999)).toEqual([]);
    expect(ids(null, 10_000)).toHaveLength(4);
    expect(store.orders.listBetween(accountId, 'EPL-1', 'ARS', null, 1000)[0]).toEqual(at(1, 1000));
  });
});

describe('the orders side filter', () => {
  it('narrows the list, the totals and the export', () => {
    store.applyOrderUpdates(
      accountId,
      Array.from({ length: 10 }, (_, i) => order(i, { side: i % 3 === 0 ? 'SELL' : 'BUY' })),
      1,
    );
    const sells = store.orders.list(accountId, { side: 'SELL' });
    expect(sells.total).toBe(4);
    expect(sells.orders.every((o) => o.side === 'SELL')).toBe(true);
    expect(store.orders.totals(accountId, { side: 'BUY' }).count).toBe(6);
    const reader = store.openReader();
    try {
      const rows = [...reader.orders.iterateForExport(accountId, { side: 'SELL' })];
      expect(rows.map((r) => r[2])).toEqual([0, 3, 6, 9].map((i) => order(i).orderId));
    } finally {
      reader.close();
    }
  });
});

describe('OrdersRepo.totals', () => {
  it('counts the orders and sums filled stakes and proceeds exactly', () => {
    const batch: Order[] = [
      // 0.1 + 0.2 is not 0.3 in floating point; in micros it is.
      order(1, { status: 'FILLED', side: 'BUY', cost: '0.1' }),
      order(2, { status: 'FILLED', side: 'BUY', cost: '0.2' }),
      order(3, { status: 'FILLED', side: 'BUY', cost: '1234567.891234' }),
      order(4, { status: 'OPEN', side: 'BUY', cost: '99.00' }),
      order(5, { status: 'FILLED', side: 'SELL', cost: '5.00', proceeds: '7.25' }),
      order(6, { status: 'FILLED', side: 'SELL', cost: '5.00' }), // no proceeds reported
      order(7, { status: 'CANCELED', side: 'SELL', cost: '1.00', proceeds: '1.00' }),
      order(8, { status: 'FILLED', side: 'SELL', cost: '1.00', proceeds: '0.0000005' }),
    ];
    store.applyOrderUpdates(accountId, batch, 1);
    expect(store.orders.totals(accountId)).toEqual({
      count: 8,
      filled: 6,
      stakedMicros: 1_234_568_191_234,
      proceedsMicros: 7_250_000,
    });
    expect(store.orders.totals(accountId, { status: ['OPEN', 'CANCELED'] })).toEqual({
      count: 2,
      filled: 0,
      stakedMicros: 0,
      proceedsMicros: 0,
    });
    const types = store.db
      .prepare(`SELECT typeof(sum(CAST(betdesk_micros(cost) AS INTEGER))) FROM orders`)
      .pluck()
      .get();
    expect(types).toBe('integer');
  });

  it('answers zeros for an account without orders', () => {
    expect(store.orders.totals(accountId, { from: 0, to: 1 })).toEqual({
      count: 0,
      filled: 0,
      stakedMicros: 0,
      proceedsMicros: 0,
    });
  });
});
