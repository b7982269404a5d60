/**
 * Which accounts read one wallet (src/main/store/repos/wallets.ts), on a real SQLite file: the
 * same orders on the same exchange, and nothing else.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/main/store/index.js';
import { WALLET_PROBE_ORDERS } from '../../../src/main/store/index.js';
import { order, tempStore } from './support.js';

let store: Store;
let main: number;
let done = () => {};
beforeEach(() => {
  ({ store, accountId: main, done } = tempStore());
});
afterEach(() => done());

const BASE = 'http://127.0.0.1:9';
const account = (label: string, baseUrl = BASE, isPaper = false) =>
  store.accounts.create({ label, baseUrl, apiKey: `key-${label}`, isPaper }).id;
const orders = (id: number, from: number, to: number) =>
  store.applyOrderUpdates(
    id,
    Array.from({ length: to - from }, (_, k) => order(from + k)),
    1,
  );

describe('one wallet, several keys', () => {
  it('groups the accounts of one exchange that hold the same orders, transitively', () => {
    const read = account('read');
    const third = account('third');
    const other = account('other');
    orders(main, 0, 10);
    orders(read, 0, 10);
    // A third key that synced only the newest of them still holds orders the others hold.
    orders(third, 8, 10);
    orders(other, 100, 105);
    expect(store.wallets.groups()).toEqual([[main, read, third]]);
    expect(store.wallets.sameWalletAs(third)).toEqual([main, read]);
    expect(store.wallets.sameWalletAs(other)).toEqual([]);
  });

  it('recognises a key far behind the other, from the newest orders of the one behind', () => {
    const behind = account('behind');
    orders(main, 0, 3 * WALLET_PROBE_ORDERS);
    orders(behind, 0, 5);
    expect(store.wallets.groups()).toEqual([[main, behind]]);
  });

  it('never groups accounts on two exchanges, paper, or an order id with another client id', () => {
    const elsewhere = account('elsewhere', 'http://127.0.0.1:10');
    const paper = account('paper', BASE, true);
    const clash = account('clash');
    orders(main, 0, 4);
    orders(elsewhere, 0, 4);
    orders(paper, 0, 4);
    store.applyOrderUpdates(clash, [order(1, { clientOrderId: 'someone-else' })], 1);
    expect(store.wallets.groups()).toEqual([]);
  });

  it('names the accounts holding a new key’s newest orders', () => {
    const read = account('read');
    orders(main, 0, 4);
    const newest = [order(3), order(2)].map(({ orderId, clientOrderId }) => ({
      orderId,
      clientOrderId,
    }));
    expect(store.wallets.holders(BASE, newest)).toEqual([main]);
    expect(store.wallets.holders(BASE, newest, main)).toEqual([]);
    expect(store.wallets.holders('http://127.0.0.1:10', newest)).toEqual([]);
    expect(store.wallets.holders(BASE, [])).toEqual([]);
    expect(read).toBeGreaterThan(main);
  });

  it('forgets a group once one of its two accounts is removed', () => {
    const read = account('read');
    orders(main, 0, 3);
    orders(read, 0, 3);
    expect(store.wallets.groups()).toHaveLength(1);
    store.accounts.remove(read);
    expect(store.wallets.groups()).toEqual([]);
  });
});
