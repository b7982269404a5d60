/**
 * Issue 27 item 8: every order the store gains or changes reaches the open screens, whoever
 * wrote it. Real SQLite files: this process's writes (any path: a guardian's close goes through
 * the same repositories) and a second connection standing for the CLI's process.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceOrderWrites, MAX_PUSHED_ROWS } from '../../../src/main/desk/orders-news.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import type { IpcEventPayload } from '../../../src/shared/ipc/contract.js';
import { order, tempStore } from '../store/support.js';

type Push = IpcEventPayload<'orders:changed'>;

let store: Store;
let file: string;
let accountId: number;
let done = () => {};
let pushes: Push[];
let stop = () => {};

beforeEach(() => {
  ({ store, file, accountId, done } = tempStore());
  pushes = [];
  stop = announceOrderWrites({
    store,
    accountId,
    bridgeId: String(accountId),
    placing: () => false,
    emit: (_event, payload) => pushes.push(payload),
    checkEveryMs: 20,
  });
});
afterEach(() => {
  stop();
  done();
});

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the blotter news', () => {
  it('pushes an order written outside the desk (a guardian close, a sync) once, as stored', async () => {
    const sell = order(1, { side: 'SELL', status: 'SUBMITTED', clientOrderId: 'bdg-28-1' });
    store.transaction(() => store.orders.upsert(accountId, sell));
    store.transaction(() =>
      store.orders.upsert(accountId, { ...sell, status: 'FILLED', updatedAt: sell.updatedAt + 1 }),
    );
    await turn();
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({
      accountId: String(accountId),
      more: false,
      orderIds: [sell.orderId],
    });
    expect(pushes[0]?.rows.map((r) => [r.clientOrderId, r.status])).toEqual([
      ['bdg-28-1', 'FILLED'],
    ]);
  });

  it('pushes an intent as it is created and as its state changes', async () => {
    store.intents.create({ clientOrderId: 'bd-x', accountId, params: {} });
    await turn();
    store.intents.markFailed('bd-x', { code: -2010, msg: 'refused' });
    await turn();
    expect(pushes.map((p) => p.rows.map((r) => r.clientOrderId))).toEqual([['bd-x'], ['bd-x']]);
    expect(pushes[1]?.rows[0]?.status).not.toBe(pushes[0]?.rows[0]?.status);
  });

  it('says nothing of another account’s rows', async () => {
    const other = store.accounts.create({ label: 'other', baseUrl: 'http://x', apiKey: 'k' });
    store.orders.upsert(other.id, order(2));
    store.intents.create({ clientOrderId: 'theirs', accountId: other.id, params: {} });
    store.intents.markFailed('theirs', { code: -2010, msg: 'refused' });
    await turn();
    expect(pushes).toEqual([]);
  });

  it('asks for a reload past the rows one push carries', async () => {
    store.transaction(() => {
      for (let i = 0; i <= MAX_PUSHED_ROWS; i++) store.orders.upsert(accountId, order(i));
    });
    await turn();
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ more: true, rows: [] });
  });

  it('hears another process’s write to the same file, and asks the screens to read again', async () => {
    const cli = openStore(file);
    try {
      cli.orders.upsert(accountId, order(3, { status: 'FILLED' }));
    } finally {
      cli.close();
    }
    await expect.poll(() => pushes.length, { timeout: 5_000, interval: 10 }).toBe(1);
    expect(pushes[0]).toMatchObject({ more: true });
  });

  it('stops when told: no push after it', async () => {
    stop();
    store.orders.upsert(accountId, order(4));
    await new Promise((r) => setTimeout(r, 60));
    expect(pushes).toEqual([]);
  });
});
