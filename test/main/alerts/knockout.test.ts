/**
 * The knockout watch against the real sandbox: prices are moved with the control API, the
 * engine reads the exchange, and the alerts land in a real SQLite store.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dec } from '../../../src/shared/money.js';
import { KnockoutWatch, type KnockoutAlertEvent } from '../../../src/main/alerts/index.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
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
} from '../sync/helpers.js';

let world: World;
let engine: SyncEngine;
let watch: KnockoutWatch;
let events: KnockoutAlertEvent[];

beforeAll(async () => {
  world = await startWorld({ rateLimits: false, blockMs: 20 });
});

afterAll(async () => {
  await world.close();
});

function startWatch(): void {
  engine = new SyncEngine({
    client: world.client,
    store: world.db.store,
    accountId: world.db.accountId,
  });
  watch = new KnockoutWatch({
    engine,
    store: world.db.store,
    accountId: world.db.accountId,
    settleWaitMs: 60_000,
  });
  events = [];
  watch.on('alert:knockout', (e) => events.push(e));
  watch.start();
}

beforeEach(() => {
  startWatch();
});

/**
 * Reads the index prices (the fixtures) and positions, and what a change calls for, and lets
 * the watch finish its checks.
 */
async function poll(): Promise<void> {
  await engine.syncNow('fixtures');
  await engine.syncNow('positions');
  await watch.idle();
}

async function setIndex(f: OpenFixture, index: string): Promise<void> {
  await world.sandbox.admin('POST', `/fixtures/${f.contractId}/price`, {
    outcome: f.homeTeam,
    indexPrice: index,
  });
}

async function place(req: Parameters<World['client']['placeOrder']>[0]): Promise<void> {
  const placed = await world.client.placeOrder(req);
  const done = await untilFinal(world.client, placed.order.orderId);
  expect(done.status).toBe('FILLED');
}

function position(f: OpenFixture) {
  return world.db.store.positions
    .list(world.db.accountId, { contractId: f.contractId })
    .find((p) => p.outcome === f.homeTeam);
}

function stored(kind: 'near' | 'knocked_out', f: OpenFixture) {
  return world.db.store.alerts
    .list(world.db.accountId, { kind, limit: 1000 })
    .alerts.filter((a) => a.contractId === f.contractId);
}

/**
 * A boosted position and a way to put its outcome's index price at a chosen distance from its
 * knockout, (index − knockout) / index: the price the exchange knocks out on.
 */
async function boostedPosition(contracts = 100, boost = 50) {
  const f = await newFixture(world.sandbox);
  await place(buy(f, contracts, boost));
  await poll();
  const p = position(f);
  expect(p?.boosted).toBe(true);
  const knockout = dec(p!.knockout!);
  return {
    f,
    knockout,
    /** Sets the index so the distance is about `d`, reads it and positions; the distance. */
    async at(d: string): Promise<string> {
      const index = knockout.dividedBy(dec(1).minus(d)).toFixed(4);
      await setIndex(f, index);
      await poll();
      return dec(index).minus(knockout).dividedBy(index).toFixed(4);
    },
  };
}

describe('near alerts', () => {
  it('fire once per level as the price falls, and not again while it wobbles around a level', async () => {
    const p = await boostedPosition();
    const levels = (): string[] => events.filter((e) => e.kind === 'near').map((e) => e.level!);

    expect(dec(await p.at('0.20')).gt('0.1')).toBe(true);
    expect(levels()).toEqual([]);
    await p.at('0.09');
    expect(levels()).toEqual(['0.1']);
    await p.at('0.08');
    expect(levels()).toEqual(['0.1']);
    await p.at('0.04');
    expect(levels()).toEqual(['0.1', '0.05']);

    // Around the 5% level, inside the 1-point margin: no storm.
    for (const d of ['0.055', '0.045', '0.058', '0.042', '0.055', '0.048']) await p.at(d);
    expect(levels()).toEqual(['0.1', '0.05']);

    // Recovered past 5% + margin: the level re-arms and fires again when crossed.
    await p.at('0.07');
    await p.at('0.04');
    expect(levels()).toEqual(['0.1', '0.05', '0.05']);
    await p.at('0.015');
    expect(levels()).toEqual(['0.1', '0.05', '0.05', '0.02']);

    const near = events.filter((e) => e.kind === 'near');
    expect(near.length).toBeGreaterThan(0);
    expect(near.every((e) => e.contractId === p.f.contractId && e.outcome === p.f.homeTeam)).toBe(
      true,
    );
    expect(near[1]!.message).toMatch(
      /^Your boosted bet on .+ is \d+(\.\d)?% above its knockout: index price 0\.\d{4}, knockout 0\.\d{4}, inside the 5% alert level\.$/,
    );
    expect(dec(near[1]!.distance!).lte('0.05')).toBe(true);
    expect(stored('near', p.f)).toHaveLength(4);
    expect(stored('knocked_out', p.f)).toHaveLength(0);
  }, 30_000);

  it('are not repeated by a restart while the price stays near the knockout', async () => {
    const p = await boostedPosition();
    await p.at('0.04');
    expect(events.map((e) => e.level)).toEqual(['0.05']);
    await watch.stop();

    startWatch(); // a new engine and watch over the same store, as after a restart
    await poll();
    await p.at('0.035');
    expect(events).toEqual([]);
    expect(stored('near', p.f)).toHaveLength(1);
  }, 30_000);
});

describe('knocked out', () => {
  it('is stored and emitted exactly once when the price crosses the knockout', async () => {
    const p = await boostedPosition();
    await p.at('0.2');
    await setIndex(p.f, p.knockout.minus('0.01').toFixed(4));
    await poll();
    await poll();
    await engine.syncNow('settlements', 'orders');
    await watch.idle();

    const out = events.filter((e) => e.kind === 'knocked_out');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      contractId: p.f.contractId,
      outcome: p.f.homeTeam,
      contracts: 100,
      knockout: p.knockout.toFixed(4),
    });
    expect(out[0]!.message).toMatch(
      /was knocked out: 100 contracts lost at an index price of 0\.\d{4}\.$/,
    );
    expect(stored('knocked_out', p.f)).toHaveLength(1);
    expect(position(p.f)).toBeUndefined();

    // A restart over the same store finds the same row and the same vanished position.
    await watch.stop();
    startWatch();
    await engine.syncOnce();
    await watch.idle();
    expect(events).toEqual([]);
    expect(stored('knocked_out', p.f)).toHaveLength(1);
  }, 30_000);

  it('reports a partial knockout once, and not again when the rest is sold', async () => {
    const f = await newFixture(world.sandbox);
    await place(buy(f, 100, 50)); // knockout about 0.23
    await place(buy(f, 60, 10)); // knockout about 0.05
    await poll();
    expect(position(f)?.contracts).toBe(160);

    await setIndex(f, '0.15');
    await poll();
    let out = events.filter((e) => e.kind === 'knocked_out');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ contractId: f.contractId, contracts: 100 });
    expect(position(f)?.contracts).toBe(60);

    await place(sell(f, 60));
    await engine.syncNow('orders', 'settlements');
    await poll();
    const rows = world.db.store.settlements.query(world.db.accountId, { contractId: f.contractId });
    expect(rows.settlements.map((s) => s.type).sort()).toEqual(['CLOSED', 'KNOCKED_OUT']);
    out = events.filter((e) => e.kind === 'knocked_out');
    expect(out).toHaveLength(1);
    expect(stored('knocked_out', f)).toHaveLength(1);
  }, 30_000);

  it('waits while a SELL of ours on the position has no order yet, then reports the loss', async () => {
    const f = await newFixture(world.sandbox);
    await place(buy(f, 100, 50)); // knockout about 0.23
    await place(buy(f, 60, 10)); // knockout about 0.05
    await poll();
    // A SELL the trading service recorded (its intent) and the exchange has not answered yet.
    const clientOrderId = `bd-inflight-${f.contractId}`;
    world.db.store.intents.create({
      clientOrderId,
      accountId: world.db.accountId,
      params: { request: sell(f, 100), bet: null },
    });

    const passes = vi.spyOn(engine, 'syncNow');
    await setIndex(f, '0.15');
    await poll();
    expect(position(f)?.contracts).toBe(60);
    expect(events.filter((e) => e.kind === 'knocked_out')).toEqual([]);
    expect(watch.pending).toBe(1);
    // Waiting is not asking the exchange again and again: the engine's report of the watch's
    // own pass does not start another.
    const judged = passes.mock.calls.filter((names) => names.includes('settlements'));
    expect(judged.length).toBeLessThanOrEqual(4);
    passes.mockRestore();

    // The exchange refused that SELL: nothing of ours explains the loss any more, which the
    // watch finds on the engine's next change (here another bet on the fixture).
    world.db.store.intents.markFailed(clientOrderId, { code: 0, msg: 'not sent' });
    await place(buy(f, 1));
    await poll();
    expect(events.filter((e) => e.kind === 'knocked_out')).toEqual([
      expect.objectContaining({ contractId: f.contractId, contracts: 100 }),
    ]);
    expect(watch.pending).toBe(0);
  }, 30_000);

  it('is not raised when we sell a boosted position ourselves or its game resolves', async () => {
    const sold = await boostedPosition();
    const resolved = await boostedPosition();
    await place(sell(sold.f, 40));
    await poll();
    await place(sell(sold.f, 60));
    await poll();
    await world.sandbox.admin('POST', `/fixtures/${resolved.f.contractId}/resolve`, {
      winner: resolved.f.homeTeam,
    });
    await poll();
    await engine.syncNow('settlements');
    await watch.idle();

    expect(position(sold.f)).toBeUndefined();
    expect(position(resolved.f)).toBeUndefined();
    expect(events.filter((e) => e.kind === 'knocked_out')).toEqual([]);
    expect(watch.pending).toBe(0);
  }, 30_000);

  for (const boostedCount of [1, 3]) {
    const how = boostedCount === 1 ? 'lookup by team' : 'pages of the whole list';
    it(`is found by the running engine on its own, through the price watch (${how})`, async () => {
      // A fresh account, so exactly `boostedCount` boosted positions are open.
      const account = await world.sandbox.newAccount('trade');
      const client = new ExchangeClient({
        baseUrl: world.sandbox.url,
        credentials: account,
        account: account.wallet,
      });
      const store = world.db.store;
      const accountId = store.accounts.create({
        label: `price-watch-${boostedCount}`,
        baseUrl: world.sandbox.url,
        apiKey: account.apiKey,
      }).id;
      const held: { f: OpenFixture; knockout: string }[] = [];
      for (let i = 0; i < boostedCount; i++) {
        const f = await newFixture(world.sandbox);
        const placed = await client.placeOrder(buy(f, 100, 50));
        const done = await untilFinal(client, placed.order.orderId);
        held.push({ f, knockout: done.knockout! });
      }
      const running = new SyncEngine({
        client,
        store,
        accountId,
        // Positions and settlements alone would take a minute: the price watch finds it.
        intervals: {
          positionsBoostedMs: 60_000,
          positionsIdleMs: 60_000,
          settlementsMs: 60_000,
          pricesMs: 100,
        },
      });
      const seen: KnockoutAlertEvent[] = [];
      const w = new KnockoutWatch({ engine: running, store, accountId });
      w.on('alert:knockout', (e) => seen.push(e));
      w.start();
      running.start();
      await running.syncNow();
      expect(store.positions.list(accountId).filter((p) => p.boosted)).toHaveLength(boostedCount);

      const target = held[held.length - 1]!;
      await setIndex(target.f, dec(target.knockout).minus('0.02').toFixed(4));
      await until('a knocked_out alert', () => seen.some((e) => e.kind === 'knocked_out'), 10_000);
      await running.stop();
      await w.stop();
      await client.close();
      expect(seen.filter((e) => e.kind === 'knocked_out')).toEqual([
        expect.objectContaining({ contractId: target.f.contractId, contracts: 100 }),
      ]);
    }, 30_000);
  }
});
