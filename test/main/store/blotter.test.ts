import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/main/store/index.js';
import { orderStatusesOf } from '../../../src/main/store/repos/blotter.js';
import { order, tempStore } from './support.js';

let t: ReturnType<typeof tempStore>;
let store: Store;
let accountId: number;

beforeEach(() => {
  t = tempStore();
  store = t.store;
  accountId = t.accountId;
});
afterEach(() => t.done());

/** Records an intent for a bet; the store's clock stamps it after the orders below. */
function intent(id: string, side: 'BUY' | 'SELL' = 'BUY', contractId = 'EPL-1') {
  store.intents.create({
    clientOrderId: id,
    accountId,
    params: { request: { orderType: 'MARKET' }, bet: { contractId, side, outcome: 'ARS' } },
  });
}

/** An order accepted before any intent below was recorded (the store's clock starts at 1.7e12). */
const early = (i: number, over: Parameters<typeof order>[1] = {}) =>
  order(i, { createdAt: 1_600_000_000_000 + i * 1000, ...over });

const keys = (page: ReturnType<Store['blotter']['page']>) =>
  page.entries.map((e) => (e.source === 'order' ? e.order.clientOrderId : e.intent.clientOrderId));

describe('the order blotter', () => {
  it('lists orders and the intents not matched to one, newest first, each once', () => {
    store.applyOrderUpdates(accountId, [early(1), early(2), early(3)], 1);
    intent('sending');
    intent('refused');
    store.intents.markFailed('refused', { code: -2030, msg: 'opposite held' });
    // An intent whose order is stored is that order's row, not a row of its own.
    intent('bd-2');
    store.applyOrderUpdates(accountId, [early(2, { status: 'FILLED', updatedAt: 2e12 })], 2);

    const page = store.blotter.page(accountId, { limit: 50 });
    expect(keys(page)).toEqual(['refused', 'sending', 'bd-3', 'bd-2', 'bd-1']);
    expect(page.total).toBe(5);
    expect(store.blotter.get(accountId, 'bd-2')).toMatchObject({ source: 'order' });
    expect(store.blotter.get(accountId, 'sending')).toMatchObject({ source: 'intent' });
    expect(store.blotter.get(accountId, 'nothing')).toBeUndefined();
  });

  it('filters by status group, side and fixture across orders and intents', () => {
    store.applyOrderUpdates(
      accountId,
      [
        early(1, { status: 'FILLED', contractId: 'EPL-1' }),
        early(2, { status: 'CANCELED', side: 'SELL', contractId: 'EPL-1' }),
        early(3, { status: 'REJECTED', error: { code: -2024, msg: 'reverted' } }),
        early(4, { status: 'SUBMITTED', contractId: 'EPL-2' }),
      ],
      1,
    );
    intent('checking', 'SELL', 'EPL-1');
    store.intents.markUnknown('checking');
    intent('refused', 'BUY', 'EPL-2');
    store.intents.markFailed('refused', { code: -2019, msg: 'closed' });

    const by = (f: Parameters<Store['blotter']['page']>[1]) =>
      keys(store.blotter.page(accountId, { limit: 50, ...f }));
    expect(by({ status: 'working' })).toEqual(['checking', 'bd-4']);
    expect(by({ status: 'filled' })).toEqual(['bd-1']);
    expect(by({ status: 'canceled' })).toEqual(['bd-2']);
    expect(by({ status: 'rejected' })).toEqual(['bd-3']);
    expect(by({ status: 'not_placed' })).toEqual(['refused']);
    expect(by({ side: 'SELL' })).toEqual(['checking', 'bd-2']);
    expect(by({ contractId: 'epl-1' })).toEqual(['checking', 'bd-2', 'bd-1']);
    expect(by({ contractId: 'EPL-2', status: 'not_placed' })).toEqual(['refused']);
    expect(store.blotter.page(accountId, { status: 'working', limit: 50 }).total).toBe(2);
  });

  it('pages without repeating or skipping, whatever the page size', () => {
    store.applyOrderUpdates(
      accountId,
      Array.from({ length: 23 }, (_, i) => order(i, { createdAt: 1_700_000_000_000 })),
      1,
    );
    for (let i = 0; i < 4; i++) intent(`i-${i}`);
    const all = keys(store.blotter.page(accountId, { limit: 100 }));
    expect(new Set(all).size).toBe(27);
    for (const size of [1, 5, 7]) {
      const seen: string[] = [];
      for (let offset = 0; offset < 27; offset += size) {
        seen.push(...keys(store.blotter.page(accountId, { limit: size, offset })));
      }
      expect(seen).toEqual(all);
    }
    expect(keys(store.blotter.page(accountId, { limit: 10, offset: 100 }))).toEqual([]);
  });

  it('names the contracts the account has orders on, once each', () => {
    store.applyOrderUpdates(
      accountId,
      [order(1, { contractId: 'B' }), order(2, { contractId: 'A' }), order(3, { contractId: 'B' })],
      1,
    );
    expect(store.blotter.contracts(accountId)).toEqual(['A', 'B']);
  });
});

describe('the blotter by date', () => {
  it('keeps orders and intents created in [from, to)', () => {
    store.applyOrderUpdates(
      accountId,
      [early(1), early(2), early(3)], // created 1_600_000_001_000, ..._002_000, ..._003_000
      1,
    );
    intent('sending'); // stamped by the store's clock, from 1_700_000_000_000 on
    const since = (from?: number, to?: number) =>
      keys(
        store.blotter.page(accountId, {
          limit: 50,
          ...(from === undefined ? {} : { from }),
          ...(to === undefined ? {} : { to }),
        }),
      );
    expect(since(1_600_000_002_000)).toEqual(['sending', 'bd-3', 'bd-2']);
    expect(since(1_600_000_002_000, 1_600_000_003_000)).toEqual(['bd-2']);
    expect(since(undefined, 1_600_000_002_000)).toEqual(['bd-1']);
    expect(since(1_700_000_000_000)).toEqual(['sending']);
    expect(store.blotter.page(accountId, { from: 1_600_000_002_000, limit: 1 }).total).toBe(3);
  });
});

describe('orderStatusesOf', () => {
  it('names the exchange statuses of each status group', () => {
    expect(orderStatusesOf('working')).toEqual(['CLAIMED', 'SUBMITTED', 'OPEN']);
    expect(orderStatusesOf('filled')).toEqual(['FILLED']);
    expect(orderStatusesOf('canceled')).toEqual(['CANCELED', 'EXPIRED']);
    expect(orderStatusesOf('rejected')).toEqual(['REJECTED', 'FAILED']);
    expect(orderStatusesOf('not_placed')).toEqual([]);
  });
});
