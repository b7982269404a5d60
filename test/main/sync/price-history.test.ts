/**
 * The price watch records what it reads: with a boosted position open, a move of the index
 * (the sandbox over HTTP) read by one tick of the watch is a new point of the outcome's price
 * history, at exchange time, with no request beyond the watch's own GET /fixtures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncEngine } from '../../../src/main/sync/index.js';
import { buy, newFixture, startWorld, untilFinal, type World } from './helpers.js';

let world: World;
beforeAll(async () => {
  world = await startWorld({ rateLimits: false, blockMs: 20 });
});
afterAll(async () => {
  await world.close();
});

describe('the price watch and the price history', () => {
  it('records a moved index price of a boosted position from one tick, and no other request', async () => {
    const { store } = world.db;
    const accountId = store.accounts.list()[0]!.id;
    const f = await newFixture(world.sandbox);
    const placed = await world.client.placeOrder(buy(f, 10, 2));
    expect((await untilFinal(world.client, placed.order.orderId)).status).toBe('FILLED');
    const engine = new SyncEngine({
      client: world.client,
      store,
      accountId,
      intervals: { pricesMs: 60_000 },
    });
    try {
      await engine.syncNow('positions');
      await world.sandbox.admin('POST', `/fixtures/${f.contractId}/price`, {
        outcome: f.homeTeam,
        indexPrice: '0.6100',
      });
      world.requests.reset();
      const before = Date.now() + world.client.clockOffsetMs;
      await engine.syncNow('prices');
      const after = Date.now() + world.client.clockOffsetMs;

      expect(world.requests.count('GET /fixtures')).toBe(1);
      expect(world.requests.count('GET /positions')).toBe(0);
      const series = store.prices.series(accountId, f.contractId, f.homeTeam)!;
      expect(series.lastPrice).toBe(610_000);
      expect(series.lastAt).toBeGreaterThanOrEqual(before);
      expect(series.lastAt).toBeLessThanOrEqual(after);
    } finally {
      await engine.stop();
    }
  });
});
