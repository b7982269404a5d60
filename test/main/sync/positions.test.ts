/**
 * Positions are polled fast while a boosted position is open and slowly otherwise. The
 * assertions count GET /positions answers the exchange sent in equal windows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncEngine } from '../../../src/main/sync/index.js';
import { buy, newFixture, sell, sleep, startWorld, untilFinal, type World } from './helpers.js';

let world: World;

beforeAll(async () => {
  world = await startWorld({ rateLimits: false, blockMs: 20 });
});

afterAll(async () => {
  await world.close();
});

const WINDOW_MS = 1500;

describe('adaptive positions polling', () => {
  it('polls many times more often while a boosted position is open', async () => {
    const { db, client, requests } = world;
    const engine = new SyncEngine({
      client,
      store: db.store,
      accountId: db.accountId,
      streams: ['positions'],
      intervals: { positionsBoostedMs: 100, positionsIdleMs: 60_000 },
    });
    const plain = await newFixture(world.sandbox);
    const boosted = await newFixture(world.sandbox);
    let placed = await client.placeOrder(buy(plain, 10));
    await untilFinal(client, placed.order.orderId);

    engine.start();
    await engine.syncNow('positions');
    requests.reset();
    await sleep(WINDOW_MS);
    const unboosted = requests.count('GET /positions');

    placed = await client.placeOrder(buy(boosted, 10, 30));
    await untilFinal(client, placed.order.orderId);
    await engine.syncNow('positions');
    requests.reset();
    await sleep(WINDOW_MS);
    const whileBoosted = requests.count('GET /positions');

    placed = await client.placeOrder(sell(boosted, 10));
    await untilFinal(client, placed.order.orderId);
    await engine.syncNow('positions');
    await sleep(150); // a pass already scheduled on the fast interval may still start
    requests.reset();
    await sleep(WINDOW_MS);
    const afterClose = requests.count('GET /positions');
    await engine.stop();

    expect(unboosted).toBe(0);
    expect(afterClose).toBe(0);
    expect(whileBoosted).toBeGreaterThanOrEqual(5);
    expect(db.store.positions.list(db.accountId).map((p) => p.contractId)).toEqual([
      plain.contractId,
    ]);
  }, 30_000);
});
