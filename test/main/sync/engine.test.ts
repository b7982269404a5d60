/** The engine's life: status, pause and resume, failures and recovery, a clean stop. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateGovernor } from '../../../src/main/governor/index.js';
import {
  SyncEngine,
  SyncStoppedError,
  type SyncStatus,
  type TimeSource,
} from '../../../src/main/sync/index.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { buy, newFixture, sleep, startWorld, until, untilFinal, type World } from './helpers.js';

let world: World;

beforeAll(async () => {
  world = await startWorld({ rateLimits: false, blockMs: 20 });
});

afterAll(async () => {
  await world.close();
});

/** Real timers, counted: how many are set and not yet fired or cleared. */
function countedTime(): TimeSource & { live(): number } {
  const live = new Set<ReturnType<typeof setTimeout>>();
  return {
    now: () => Date.now(),
    setTimer(fn, ms) {
      const t = setTimeout(() => {
        live.delete(t);
        fn();
      }, ms);
      live.add(t);
      return t;
    },
    clearTimer(handle) {
      live.delete(handle as ReturnType<typeof setTimeout>);
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
    live: () => live.size,
  };
}

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
    const { db, client } = world;
    const f = await newFixture(world.sandbox);
    const placed = await client.placeOrder(buy(f, 5));
    await untilFinal(client, placed.order.orderId);

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
    const time = countedTime();
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
    await until('a few polls', () => requests.count('GET /orders/updates') >= 3);
    expect(statuses.map((s) => s.state)).toContain('syncing');
    expect(time.live()).toBeGreaterThanOrEqual(1);

    engine.pause();
    expect(engine.status()).toMatchObject({ state: 'paused', nextPollAt: null });
    await sleep(100); // a pass that was running finishes
    requests.reset();
    await sleep(400);
    expect(requests.count('GET /orders/updates')).toBe(0);
    expect(time.live()).toBe(0);

    engine.resume();
    await until('polling again', () => requests.count('GET /orders/updates') >= 2);
    expect(engine.status().state).not.toBe('paused');

    await engine.stop();
    expect(time.live()).toBe(0);
    requests.reset();
    await sleep(300);
    expect(requests.withStatus(200)).toBe(0);
    expect(engine.status().nextPollAt).toBeNull();
    await expect(engine.syncNow('orders')).rejects.toBeInstanceOf(SyncStoppedError);
  });

  it('stops at once even while a poll waits in the governor for a token', async () => {
    const { db } = world;
    // A positions bucket of one token a minute: the second poll waits about a minute.
    const governor = new RateGovernor({
      groupLimits: {
        positions: { perMinute: 1, burst: 2 },
        quotes: { perMinute: 60, burst: 10 },
        orders: { perMinute: 60, burst: 10 },
        reads: { perMinute: 60, burst: 10 },
        fixtures: { perMinute: 120, burst: 20 },
      },
    });
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
    await engine.syncNow('positions'); // spends the one token
    engine.start();
    const waiting = engine.syncNow('positions');
    await sleep(300);
    expect(governor.snapshot().queued).toBe(1);

    const started = Date.now();
    await engine.stop();
    expect(Date.now() - started).toBeLessThan(5000);
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
    await world.sandbox.control('POST', '/faults', {
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
    await world.sandbox.control('DELETE', '/faults');
  });
});
