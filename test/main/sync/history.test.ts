/**
 * The history sweep (issue 8, "Keeping the history whole"): the first sync and a resync read
 * every order and every settlements page inside the exchange's rate limits, report their
 * progress page by page, lose nothing when cut short, and never run twice at once. Against the
 * sandbox with its rate limits on, through the rate governor, over HTTP; the store is a real
 * SQLite file. The exchange's own view is read off its domain, apart from the client under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { RateGovernor } from '../../../src/main/governor/index.js';
import {
  HistorySweepInterruptedError,
  HistorySweepRunningError,
  SyncEngine,
  SyncStoppedError,
  type HistorySweepProgress,
  type SettlementsChangedEvent,
} from '../../../src/main/sync/index.js';
import {
  canonicalRows as canonical,
  exchangeSettlements,
  newHistoryAccount,
  startWorld,
  storedSettlements,
  until,
  type HistoryAccount,
  type World,
} from './helpers.js';

let world: World;
let governor: RateGovernor;

beforeAll(async () => {
  governor = new RateGovernor();
  // Rate limits on (the default); orders fill at once, so a history is made in milliseconds.
  world = await startWorld({ governor, blockMs: 0 });
});

afterAll(async () => {
  await world.close();
  governor.close();
});

type Account = HistoryAccount;
const accountWithHistory = (orders: number) => newHistoryAccount(world.sandbox, orders, governor);

/** Every settlement row the exchange holds for the wallet, newest first. */
const exchangeRows = (wallet: string) => exchangeSettlements(world.sandbox.domain, wallet);
const storedRows = (a: Account) => storedSettlements(a.db.store, a.db.accountId);

function storedOrders(a: Account): number {
  return a.db.store.orders.list(a.db.accountId, { limit: 1 }).total;
}

function engineFor(a: Account, store = a.db.store): SyncEngine {
  return new SyncEngine({ client: a.client, store, accountId: a.db.accountId });
}

function recordProgress(engine: SyncEngine): HistorySweepProgress[] {
  const seen: HistorySweepProgress[] = [];
  engine.on('history:progress', (p) => seen.push(p));
  return seen;
}

describe('the history sweep', () => {
  it('makes the first sync read every order and every settlements page, reporting each page, with no 429', async () => {
    const a = await accountWithHistory(600);
    const rows = exchangeRows(a.wallet);
    expect(rows.length).toBeGreaterThan(200); // three pages or more
    const engine = engineFor(a);
    const progress = recordProgress(engine);
    const changed: SettlementsChangedEvent[] = [];
    engine.on('settlements:changed', (e) => changed.push(e));
    world.requests.reset();

    engine.start();
    await until('the first sync is done', () => engine.historyProgress()?.state === 'done');
    const updates = world.requests.count('GET /orders/updates');
    await engine.stop();

    const pages = 1 + Math.ceil(rows.length / 100);
    const last = progress.at(-1)!;
    expect(last).toMatchObject({
      accountId: a.db.accountId,
      reason: 'first-sync',
      state: 'done',
      pages,
      estimatedPages: pages,
      added: 600 + rows.length,
      message: null,
    });
    // Running from page 0, one more page each time, the estimate known from the first
    // settlements page on.
    expect(progress[0]).toMatchObject({ state: 'running', pages: 0, estimatedPages: 0 });
    const running = progress.filter((p) => p.state === 'running');
    expect(running.map((p) => p.pages)).toEqual([...Array(pages + 1).keys()]);
    expect(running.slice(2).every((p) => p.estimatedPages === pages)).toBe(true);
    expect(new Set(progress.map((p) => p.startedAt)).size).toBe(1);

    expect(storedOrders(a)).toBe(600);
    expect(canonical(storedRows(a))).toEqual(canonical(rows));
    // History being loaded, not news: the knockout watch raises nothing for it.
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((e) => e.initial)).toBe(true);
    // The sweep read the orders; the orders stream did not read them again meanwhile.
    expect(updates).toBe(1);
    expect(world.requests.count('GET /settlements')).toBe(pages - 1);
    expect(world.requests.withStatus(429)).toBe(0);
    await a.close();
  });

  it('resyncs on request, puts back what the store lost, doubles nothing, and refuses a second resync meanwhile', async () => {
    const a = await accountWithHistory(500);
    const engine = engineFor(a);
    await engine.syncOnce(); // the first sync
    expect(engine.historyProgress()).toMatchObject({ reason: 'first-sync', state: 'done' });
    const rows = exchangeRows(a.wallet);
    // The local cache lost rows and an order (test-only SQL).
    const lost = a.db.store.db
      .prepare('DELETE FROM settlements WHERE account_id = ? AND id % 7 = 0')
      .run(a.db.accountId).changes;
    a.db.store.db
      .prepare(
        `DELETE FROM orders WHERE account_id = ?
         AND order_id = (SELECT min(order_id) FROM orders WHERE account_id = ?)`,
      )
      .run(a.db.accountId, a.db.accountId);
    expect(lost).toBeGreaterThan(0);
    expect(storedOrders(a)).toBe(499);

    const progress = recordProgress(engine);
    world.requests.reset();
    const resync = engine.resyncHistory();
    // Running at once, before any request was answered.
    expect(engine.historyProgress()).toMatchObject({ reason: 'resync', state: 'running' });
    await expect(engine.resyncHistory()).rejects.toBeInstanceOf(HistorySweepRunningError);
    await resync;

    const pages = 1 + Math.ceil(rows.length / 100);
    expect(progress.at(-1)).toMatchObject({
      reason: 'resync',
      state: 'done',
      pages,
      estimatedPages: pages,
      added: lost + 1,
    });
    expect(storedOrders(a)).toBe(500);
    expect(canonical(storedRows(a))).toEqual(canonical(rows));
    expect(world.requests.withStatus(429)).toBe(0);

    // Once done, another resync may start; a stopped engine refuses one.
    await engine.resyncHistory();
    expect(engine.historyProgress()).toMatchObject({ state: 'done', added: 0 });
    await engine.stop();
    await expect(engine.resyncHistory()).rejects.toBeInstanceOf(SyncStoppedError);
    await a.close();
  });

  it('keeps what an interrupted first sync stored, and the next start carries on to the end', async () => {
    const a = await accountWithHistory(3000);
    const rows = exchangeRows(a.wallet);
    const pages = 1 + Math.ceil(rows.length / 100);
    expect(pages).toBeGreaterThan(12);

    // Stopped after the fifth settlements page.
    let engine = engineFor(a);
    const first = recordProgress(engine);
    engine.on('history:progress', (p) => {
      if (p.state === 'running' && p.pages === 6) void engine.stop();
    });
    world.requests.reset();
    engine.start();
    await until('the sweep is interrupted', () => first.at(-1)?.state === 'interrupted');
    await engine.stop();
    expect(first.at(-1)).toMatchObject({ pages: 6, state: 'interrupted' });
    expect(first.at(-1)!.message).toMatch(/kept\.$/);
    expect(storedOrders(a)).toBe(3000);
    expect(a.db.store.settlements.count(a.db.accountId)).toBe(500);
    const readBefore = world.requests.count('GET /settlements');

    // A new process over the same file: the first sync carries on from the sixth page.
    engine = engineFor(a, a.db.reopen());
    const second = recordProgress(engine);
    world.requests.reset();
    engine.start();
    await until('the first sync is done', () => second.at(-1)?.state === 'done', 60_000);
    await engine.stop();
    expect(second.at(-1)).toMatchObject({ reason: 'first-sync', pages, estimatedPages: pages });
    expect(second.find((p) => p.pages > 0)!.pages).toBe(6); // orders, then five pages read before
    expect(readBefore + world.requests.count('GET /settlements')).toBe(pages - 1);
    expect(canonical(storedRows(a))).toEqual(canonical(rows));
    expect(storedOrders(a)).toBe(3000);
    expect(world.requests.withStatus(429)).toBe(0);
    await a.close();
  }, 60_000);

  it('answers a settlements check during a sweep with the newest page, not after the whole sweep', async () => {
    const a = await accountWithHistory(3000);
    const engine = engineFor(a);
    const progress = recordProgress(engine);
    world.requests.reset();
    engine.start();
    // Past the burst: from here the sweep reads a page a second.
    await until('the sweep is past its burst', () => (progress.at(-1)?.pages ?? 0) >= 10, 30_000);
    const before = world.requests.count('GET /settlements');
    await engine.syncNow('settlements');
    // Answered by one more GET /settlements, while the sweep still had pages to read.
    expect(engine.historyProgress()!.state).toBe('running');
    expect(world.requests.count('GET /settlements')).toBeGreaterThan(before);

    // A resync meanwhile is refused: the first sync is a sweep too.
    await expect(engine.resyncHistory()).rejects.toBeInstanceOf(HistorySweepRunningError);
    await until('the first sync is done', () => progress.at(-1)?.state === 'done', 60_000);
    const updates = world.requests.count('GET /orders/updates');
    await engine.stop();
    // No order of ours was pending: the orders stream left the reads to the sweep.
    expect(updates).toBe(1);
    expect(world.requests.withStatus(429)).toBe(0);
    await a.close();
  }, 60_000);

  it('interrupts a resync asked for while the exchange cannot be reached when the engine stops', async () => {
    const a = await accountWithHistory(10);
    const client = new ExchangeClient({
      baseUrl: 'http://127.0.0.1:9', // nothing listens there
      credentials: { apiKey: 'k', secret: 's' },
      account: a.wallet,
    });
    const engine = new SyncEngine({ client, store: a.db.store, accountId: a.db.accountId });
    engine.start();
    await until('offline', () => engine.status().state === 'offline');
    // A first sync that failed has nothing running: a resync may be asked for, and it waits.
    expect(engine.historyProgress()).toMatchObject({ reason: 'first-sync', state: 'failed' });
    const resync = engine.resyncHistory();
    const settled = resync.catch((err: unknown) => err);
    expect(engine.historyProgress()).toMatchObject({ reason: 'resync', state: 'running' });
    await engine.stop();
    expect(await settled).toBeInstanceOf(HistorySweepInterruptedError);
    expect(engine.historyProgress()).toMatchObject({ reason: 'resync', state: 'interrupted' });
    await client.close();
    await a.close();
  });
});
