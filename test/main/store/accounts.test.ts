import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError, type Store } from '../../../src/main/store/index.js';
import { order, settlement, tempStore } from './support.js';

let store: Store;
let accountId: number;
let done = () => {};
beforeEach(() => {
  ({ store, accountId, done } = tempStore());
});
afterEach(() => done());

describe('AccountsRepo', () => {
  it('adds, reads, lists and updates accounts', () => {
    const paper = store.accounts.create({
      label: 'paper',
      baseUrl: 'http://127.0.0.1:4000',
      apiKey: 'pk',
      isPaper: true,
    });
    expect(paper).toMatchObject({ label: 'paper', permission: null, wallet: null, isPaper: true });
    expect(store.accounts.get(paper.id)).toEqual(paper);
    expect(store.accounts.getByLabel('paper')).toEqual(paper);
    expect(store.accounts.list().map((a) => a.label)).toEqual(['main', 'paper']);
    const updated = store.accounts.update(paper.id, { permission: 'read', wallet: '0xabc' });
    expect(updated).toMatchObject({
      label: 'paper',
      permission: 'read',
      wallet: '0xabc',
      apiKey: 'pk',
    });
    expect(store.accounts.update(999, { label: 'x' })).toBeUndefined();
  });

  it('refuses a second account with the same label', () => {
    expect(() =>
      store.accounts.create({ label: 'main', baseUrl: 'http://x', apiKey: 'k' }),
    ).toThrow(StoreError);
    const b = store.accounts.create({ label: 'b', baseUrl: 'http://x', apiKey: 'k' });
    expect(() => store.accounts.update(b.id, { label: 'main' })).toThrow(/already exists/);
  });

  it('removes an account together with everything it owns', () => {
    store.intents.create({ clientOrderId: 'c', accountId, params: {} });
    store.applyOrderUpdates(accountId, [order(1)], 5);
    store.applySettlements(accountId, [settlement(1)]);
    store.alerts.insertOnce({
      accountId,
      kind: 'near',
      contractId: 'EPL-1',
      outcome: 'ARS',
      message: 'near',
      createdAt: 1,
    });
    expect(store.accounts.remove(accountId)).toBe(true);
    for (const t of ['order_intents', 'orders', 'settlements', 'alerts', 'sync_cursors']) {
      expect(store.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get()).toBe(0);
    }
    expect(store.accounts.remove(accountId)).toBe(false);
  });
});
