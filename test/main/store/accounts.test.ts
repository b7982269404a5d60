import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_ALERT_SETTINGS,
  readAlertSettings,
  writeAlertSettings,
} from '../../../src/main/desk/alert-settings.js';
import { StoreError, type Store } from '../../../src/main/store/index.js';
import { order, settlement, tempStore, accountTables } from './support.js';

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

  it('removes the account’s settings with it, so an account under the same id starts afresh', () => {
    const mine = { ...DEFAULT_ALERT_SETTINGS, levels: ['0.3', '0.1'], margin: '0.02' };
    writeAlertSettings(store, accountId, mine);
    expect(readAlertSettings(store, accountId)).toEqual(mine);
    expect(store.accounts.remove(accountId)).toBe(true);
    expect(store.settings.get(`alerts.${accountId}`)).toBeUndefined();

    // The last account removed: SQLite hands its id to the next one.
    const next = store.accounts.create({ label: 'next', baseUrl: 'http://x', apiKey: 'k2' });
    expect(next.id).toBe(accountId);
    expect(readAlertSettings(store, next.id)).toEqual(DEFAULT_ALERT_SETTINGS);
  });

  it('gives a new account none of the settings an older store left under its id', () => {
    store.settings.set(`alerts.${accountId + 1}`, JSON.stringify({ levels: ['0.5'] }));
    const next = store.accounts.create({ label: 'next', baseUrl: 'http://x', apiKey: 'k2' });
    expect(next.id).toBe(accountId + 1);
    expect(store.settings.get(`alerts.${next.id}`)).toBeUndefined();
  });

  it('leaves no row of the removed account in any table', () => {
    store.applyOrderUpdates(accountId, [order(1)], 5);
    store.applySettlements(accountId, [settlement(1)]);
    store.accounts.remove(accountId);
    const tables = accountTables(store);
    expect(tables.length).toBeGreaterThan(5);
    for (const t of tables) {
      const left = store.db.prepare(`SELECT count(*) FROM ${t} WHERE account_id = ?`).pluck();
      expect(left.get(accountId), t).toBe(0);
    }
  });
});
