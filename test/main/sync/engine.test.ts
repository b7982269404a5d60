/** The engine's life: status, pause and resume, failures and recovery, a clean stop. */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { SyncEngine, SyncStoppedError, type SyncStatus } from '../../../src/main/sync/index.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { positionsStarvedGovernor } from '../../harness/governor.js';
import { ManualTime } from '../../harness/manual-time.js';
import {
  buy,
  newFixture,
  startWorld,
  tempStore,
  until,
  untilFinal,
  type World,
} from './helpers.js';

let world: World;

beforeAll(async () => {
  world = await startWorld({ rateLimits: false, blockMs: 20 });
});

afterAll(async () => {
  await world.close();
});

const quick = {
  ordersPendingMs: 50,
  ordersIdleMs: 50,
  settlementsMs: 100,
  positionsBoostedMs: 100,
  positionsIdleMs: 100,
  fixturesMs: 200,
  pricesMs: 50,
};

describe('the sync engine', () => {
  it('syncs every stream once with syncOnce and reports what it did', async () => {
    const { client } = world;
    const f = await newFixture(world.sandbox);
    const placed = await client.placeOrder(buy(f, 5));
    await untilFinal(client, placed.order.orderId);

    // A store of its own: never synced, whatever the other tests did with the shared one.
    const db = tempStore(world.account.apiKey, world.sandbox.url);
    onTestFinished(() => db.cleanup());
    const engine = new SyncEngine({ client, store: db.store, accountId: db.accountId });
    expect(engine.status()).toMatchObject({ state: 'idle', lastSyncAt: null, nextPollAt: null });
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(report.errors).toEqual([]);
    expect(report.orders?.received).toBeGreaterThanOrEqual(1);
    expect(report.positions?.open).toBeGreaterThanOrEqual(1);
    expect(report.fixtures?.total).toBeGreaterThanOrEqual(20);
    expect(report.status.lastSyncAt).not.toBeNull();

    const cached = engine.cache.orders();
    expect(cached.orders.some((o) => o.orderId === placed.order.orderId)).toBe(true);
    expect(cached.syncedAt).not.toBeNull();
    expect(engine.cache.fixtures({ limit: 100 }).fixtures.length).toBeGreaterThanOrEqual(20);
    expect(engine.cache.positions().positions.some((p) => p.contractId === f.contractId)).toBe(
      true,
    );
  });

  it('pauses, resumes, and leaves no timer and no request behind when stopped', async () => {
    const { db, client, requests } = world;
    // Time moves only when the test moves it: a poll is due when the test says so.
    const time = new ManualTime(Date.now());
    const statuses: SyncStatus[] = [];
    const engine = new SyncEngine({
      client,
      store: db.store,
      accountId: db.accountId,
      time,
      intervals: quick,
    });
    engine.on('sync:status', (s) => statuses.push(s));
    requests.reset();
    engine.start();
    const polled = (n: number) => async () => {
      await time.advance(50);
      return requests.count('GET /orders/updates') >= n;
    };
    await until('a few polls', polled(3));
    expect(statuses.map((s) => s.state)).toContain('syncing');
    // Passes end and schedule the next: pause() must clear what they set.
    await until('a poll is scheduled', () => time.pending() >= 1);

    engine.pause();
    expect(engine.status()).toMatchObject({ state: 'paused', nextPollAt: null });
    expect(time.pending()).toBe(0);
    await until('a pass that was running has ended', () => requests.inFlight() === 0);
    requests.reset();
    await time.advance(400);
    expect(requests.count('GET /orders/updates')).toBe(0);
    expect(time.pending()).toBe(0);

    engine.resume();
    await until('polling again', polled(2));
    expect(engine.status().state).not.toBe('paused');

    await engine.stop();
    expect(time.pending()).toBe(0);
    requests.reset();
    await time.advance(300);
    expect(requests.inFlight()).toBe(0);
    expect(requests.withStatus(200)).toBe(0);
    expect(engine.status().nextPollAt).toBeNull();
    await expect(engine.syncNow('orders')).rejects.toBeInstanceOf(SyncStoppedError);
  });

  // How long stop() takes is measured by `npm run bench:timing`, not asserted here.
  it('stops while a poll waits in the governor for a token that never comes', async () => {
    const { db } = world;
    // The governor's clock stands still: a token spent is never refilled.
    const time = new ManualTime(Date.now());
    const governor = positionsStarvedGovernor(time);
    const client = new ExchangeClient({
      baseUrl: world.sandbox.url,
      credentials: world.account,
      account: world.account.wallet,
      governor,
    });
    const engine = new SyncEngine({
      client,
      store: db.store,
      accountId: db.accountId,
      streams: ['positions'],
    });
    await engine.syncNow('positions'); // spends a token
    engine.start(); // spends the other
    const waiting = engine.syncNow('positions');
    await until('a poll waits in the governor', () => governor.snapshot().queued === 1);

    await engine.stop();
    await expect(waiting).rejects.toBeInstanceOf(Error);
    expect(governor.snapshot().queued).toBe(0);
    await client.close();
    governor.close();
  });

  it('reports a refused poll as an error sentence and recovers by itself', async () => {
    const { db, client } = world;
    const engine = new SyncEngine({
      client,
      store: db.store,
      accountId: db.accountId,
      intervals: quick,
      backoff: { initialMs: 100, maxMs: 200 },
      streams: ['orders'],
    });
    const statuses: SyncStatus[] = [];
    engine.on('sync:status', (s) => statuses.push(s));
    await world.sandbox.admin('POST', '/faults', {
      route: 'GET /orders/updates',
      mode: 'error',
      code: -5001,
      count: 2,
    });
    engine.start();
    await until('an error status', () => statuses.some((s) => s.state === 'error'));
    const failed = statuses.find((s) => s.state === 'error')!;
    expect(failed.lastError).toMatch(/^Orders could not be synced\. .+\.$/);
    expect(failed.offlineSince).toBeNull();
    await until(
      'recovered',
      () => engine.status().state !== 'error' && engine.status().lastError === null,
    );
    await engine.stop();
    await world.sandbox.admin('DELETE', '/faults');
  });
});
