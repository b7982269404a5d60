import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IntentConflictError, type Store } from '../../../src/main/store/index.js';
import { tempStore } from './support.js';

let store: Store;
let accountId: number;
let done = () => {};
beforeEach(() => {
  ({ store, accountId, done } = tempStore());
});
afterEach(() => done());

const params = { orderType: 'MARKET', qty: '10', legs: [{ contractId: 'EPL-1', outcome: 'ARS' }] };

describe('IntentsRepo', () => {
  it('records an intent as pending with a hash of its parameters', () => {
    const { intent, created } = store.intents.create({ clientOrderId: 'c1', accountId, params });
    expect(created).toBe(true);
    expect(intent).toMatchObject({
      clientOrderId: 'c1',
      accountId,
      state: 'pending',
      orderId: null,
    });
    expect(intent.paramsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(intent.params).toEqual(params);
  });

  it('returns the existing intent when the same one is recorded again, key order aside', () => {
    store.intents.create({ clientOrderId: 'c1', accountId, params });
    const reordered = { legs: params.legs, qty: '10', orderType: 'MARKET' };
    const again = store.intents.create({ clientOrderId: 'c1', accountId, params: reordered });
    expect(again.created).toBe(false);
  });

  it('refuses the same clientOrderId with other parameters or for another account', () => {
    store.intents.create({ clientOrderId: 'c1', accountId, params });
    expect(() =>
      store.intents.create({ clientOrderId: 'c1', accountId, params: { ...params, qty: '11' } }),
    ).toThrow(IntentConflictError);
    const other = store.accounts.create({ label: 'b', baseUrl: 'http://x', apiKey: 'k' }).id;
    expect(() => store.intents.create({ clientOrderId: 'c1', accountId: other, params })).toThrow(
      /another account/,
    );
  });

  it('follows sent, unknown and failed, and keeps done final', () => {
    store.intents.create({ clientOrderId: 'c1', accountId, params });
    store.intents.markUnknown('c1', { code: -1, msg: 'socket hang up' });
    expect(store.intents.get('c1')).toMatchObject({ state: 'unknown', lastErrorCode: -1 });
    store.intents.markSent('c1', '0xab');
    expect(store.intents.get('c1')).toMatchObject({ state: 'sent', orderId: '0xab' });
    store.intents.markDone('c1', '0xab');
    store.intents.markUnknown('c1');
    expect(store.intents.get('c1')?.state).toBe('done');

    store.intents.create({ clientOrderId: 'c2', accountId, params });
    store.intents.markFailed('c2', { code: -2019, msg: 'betting closed' });
    expect(store.intents.get('c2')).toMatchObject({
      state: 'failed',
      lastErrorMsg: 'betting closed',
    });
  });

  it('lists open intents oldest first', () => {
    for (const id of ['a', 'b', 'c'])
      store.intents.create({ clientOrderId: id, accountId, params: { id } });
    store.intents.markDone('b', '0x1');
    expect(store.intents.listOpen(accountId).map((i) => i.clientOrderId)).toEqual(['a', 'c']);
  });

  it('says so when asked to move an intent that does not exist', () => {
    expect(() => store.intents.markSent('nope', '0x1')).toThrow(/No order intent nope/);
  });
});

describe('newClientOrderId', () => {
  it('makes ids the exchange accepts, unique, and sorting by time', async () => {
    const { newClientOrderId } = await import('../../../src/shared/client-order-id.js');
    const { CLIENT_ORDER_ID_PATTERN } = await import('../../../src/shared/api/schemas.js');
    const ids = [1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000].map((t) =>
      newClientOrderId(t),
    );
    for (const id of ids) expect(id).toMatch(new RegExp(CLIENT_ORDER_ID_PATTERN));
    expect([...ids].sort()).toEqual(ids);
    expect(newClientOrderId(5)).not.toBe(newClientOrderId(5));
  });
});
