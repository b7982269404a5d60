/**
 * The orders cursor: whatever happens while orders are placed and fill, the store ends equal to
 * the exchange's GET /orders: no gap, no double, across a stop and a restart of the engine
 * (and of the store) with the cursor persisted in between.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../../src/shared/api/schemas.js';
import { SyncEngine } from '../../../src/main/sync/index.js';
import {
  buy,
  newFixture,
  sell,
  startWorld,
  until,
  untilFinal,
  type OpenFixture,
  type World,
} from './helpers.js';

let world: World;
let fixtures: OpenFixture[];

beforeAll(async () => {
  // Limits off: this test is about ordering and atomicity, not the rate budget.
  world = await startWorld({ rateLimits: false, blockMs: 25 });
  fixtures = [];
  for (let i = 0; i < 4; i++) fixtures.push(await newFixture(world.sandbox));
  // A holding on every fixture before the bursts, so a burst's sells never race its own buys
  // to the block (a sell placed before any buy filled is refused with -2029 at once).
  const seeded = await Promise.all(
    fixtures.map((f, i) => world.client.placeOrder({ ...buy(f, 10), clientOrderId: `seed-${i}` })),
  );
  await Promise.all(seeded.map((p) => untilFinal(world.client, p.order.orderId)));
});

afterAll(async () => {
  await world.close();
});

const fast = {
  ordersPendingMs: 10,
  ordersIdleMs: 10,
  positionsBoostedMs: 200,
  positionsIdleMs: 200,
  settlementsMs: 500,
  fixturesMs: 5000,
  pricesMs: 200,
  minSpacingMs: 5,
};

/** Every order of the wallet, as GET /orders pages them. */
async function exchangeOrders(world: World): Promise<Order[]> {
  const all: Order[] = [];
  for (;;) {
    const page = await world.client.orders({ limit: 100, offset: all.length });
    all.push(...page.orders);
    if (page.orders.length === 0 || all.length >= page.total) return all;
  }
}

function storedOrders(world: World): Order[] {
  const all: Order[] = [];
  for (;;) {
    const page = world.db.store.orders.list(world.db.accountId, {
      limit: 1000,
      offset: all.length,
    });
    all.push(...page.orders);
    if (page.orders.length === 0 || all.length >= page.total) return all;
  }
}

const byId = (a: Order, b: Order): number => a.orderId.localeCompare(b.orderId);

/** Places `n` orders at once: buys on every fixture, some boosted, some sells. */
async function placeBurst(world: World, n: number, tag: string): Promise<Order[]> {
  const placed = await Promise.all(
    Array.from({ length: n }, (_, i) => {
      const f = fixtures[i % fixtures.length]!;
      const req = i % 7 === 6 ? sell(f, 1) : buy(f, 2 + (i % 5), i % 3 === 0 ? 20 : 0);
      return world.client.placeOrder({ ...req, clientOrderId: `${tag}-${i}` }).then((p) => p.order);
    }),
  );
  return placed;
}

describe('the orders cursor', () => {
  it('leaves the store equal to GET /orders after bursts of orders, a stop and a restart', async () => {
    const { db, client } = world;
    let engine = new SyncEngine({
      client,
      store: db.store,
      accountId: db.accountId,
      intervals: fast,
      streams: ['orders'],
    });
    engine.start();

    // Some orders fill while the engine polls every few milliseconds.
    const first = await placeBurst(world, 40, 'a');
    await until(
      'the engine has synced some of them',
      () => (db.store.cursors.get(db.accountId, 'orders')?.cursor ?? 0) > 0,
    );
    await engine.stop();
    const cursorAtStop = db.store.cursors.get(db.accountId, 'orders')?.cursor;
    expect(cursorAtStop).toBeGreaterThan(0);

    // While it is stopped, more orders are placed and earlier ones fill.
    const second = await placeBurst(world, 30, 'b');
    await Promise.all([...first, ...second].map((o) => untilFinal(client, o.orderId)));

    // A new engine over a reopened store picks up at the persisted cursor.
    const store = db.reopen();
    expect(store.cursors.get(db.accountId, 'orders')?.cursor).toBe(cursorAtStop);
    engine = new SyncEngine({
      client,
      store,
      accountId: db.accountId,
      intervals: fast,
      streams: ['orders'],
    });
    engine.start();
    const third = await placeBurst(world, 30, 'c');
    await Promise.all(third.map((o) => untilFinal(client, o.orderId)));
    await engine.syncNow('orders');
    await engine.stop();

    const exchange = (await exchangeOrders(world)).sort(byId);
    const stored = storedOrders(world).sort(byId);
    expect(exchange).toHaveLength(fixtures.length + 100); // the seeded holdings, then 40 + 30 + 30
    expect(stored).toHaveLength(exchange.length);
    expect(new Set(stored.map((o) => o.orderId)).size).toBe(stored.length);
    expect(stored).toEqual(exchange);
    // The burst really filled and moved positions: this was not a store of SUBMITTED orders.
    expect(stored.filter((o) => o.status === 'FILLED').length).toBeGreaterThan(50);
  }, 60_000);
});
