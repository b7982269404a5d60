/**
 * Positions are polled fast while a boosted position is open and slowly otherwise. The engine
 * runs on a clock the test moves by hand, so "in 1.5 s" means 1.5 s of the engine's time, not a
 * guess at the machine's speed; the assertions count GET /positions answers the exchange sent.
 * How often it polls in real time is measured by `npm run bench:timing`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncEngine } from '../../../src/main/sync/index.js';
import { ManualTime } from '../../harness/manual-time.js';
import { buy, newFixture, sell, startWorld, until, untilFinal, type World } from './helpers.js';

let world: World;

beforeAll(async () => {
  world = await startWorld({ rateLimits: false, blockMs: 20 });
});

afterAll(async () => {
  await world.close();
});

const BOOSTED_MS = 100;
const IDLE_MS = 60_000;

describe('adaptive positions polling', () => {
  it('polls every 100 ms while a boosted position is open and not at all for a minute otherwise', async () => {
    const { db, client, requests } = world;
    const time = new ManualTime(Date.now());
    const engine = new SyncEngine({
      client,
      store: db.store,
      accountId: db.accountId,
      streams: ['positions'],
      time,
      intervals: { positionsBoostedMs: BOOSTED_MS, positionsIdleMs: IDLE_MS },
    });
    /** Moves the engine's clock by `ms` and waits for a pass it started to end and reschedule. */
    const pass = async (ms: number): Promise<number> => {
      requests.reset();
      await time.advance(ms);
      await until('the pass has ended', () => engine.status().nextPollAt !== null);
      return requests.count('GET /positions');
    };
    /** syncNow, while the engine runs: its pass waits for the clock (a gap of minSpacingMs). */
    const syncNow = async (): Promise<void> => {
      let done = false;
      const synced = engine.syncNow('positions').then(() => (done = true));
      await until('the positions are synced', async () => {
        if (!done) await time.advance(50);
        return done;
      });
      await synced;
      await until('the next pass is scheduled', () => engine.status().nextPollAt !== null);
    };
    const nextIn = (): number => engine.status().nextPollAt! - time.now();
    const plain = await newFixture(world.sandbox);
    const boosted = await newFixture(world.sandbox);
    let placed = await client.placeOrder(buy(plain, 10));
    await untilFinal(client, placed.order.orderId);

    engine.start();
    await syncNow();
    expect(nextIn()).toBe(IDLE_MS);
    expect(await pass(1500)).toBe(0);

    placed = await client.placeOrder(buy(boosted, 10, 30));
    await untilFinal(client, placed.order.orderId);
    await syncNow();
    expect(nextIn()).toBe(BOOSTED_MS);
    const whileBoosted: number[] = [];
    for (let i = 0; i < 5; i++) whileBoosted.push(await pass(BOOSTED_MS));
    expect(whileBoosted).toEqual([1, 1, 1, 1, 1]);

    placed = await client.placeOrder(sell(boosted, 10));
    await untilFinal(client, placed.order.orderId);
    await syncNow();
    expect(nextIn()).toBe(IDLE_MS);
    expect(await pass(1500)).toBe(0);
    await engine.stop();

    expect(db.store.positions.list(db.accountId).map((p) => p.contractId)).toEqual([
      plain.contractId,
    ]);
  }, 30_000);
});
