/**
 * The knockout is judged on the index price (docs/api.md 1: "If the outcome's index price falls
 * to it, the bet is lost"), at a low and at a high price, with every real part: the sandbox over
 * HTTP moves the index, the sync engine reads it (the price watch, then positions), the knockout
 * watch and the alert centre judge it in a real SQLite store, and the positions screen's view
 * shows it. The estimated closing price sits below the index, far below at low prices (0.0378
 * for an index of 0.0479), and must never call a live bet knocked out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnockoutWatch, type KnockoutAlertEvent } from '../../../src/main/alerts/index.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { AlertCentre } from '../../../src/main/desk/alert-centre.js';
import { positionsView } from '../../../src/main/desk/positions.js';
import { SyncEngine } from '../../../src/main/sync/index.js';
import type { Dec } from '../../../src/shared/money.js';
import { dec, price } from '../../../src/shared/money.js';
import {
  buy,
  newFixture,
  startWorld,
  untilFinal,
  type OpenFixture,
  type World,
} from '../sync/helpers.js';

let world: World;

beforeAll(async () => {
  world = await startWorld({ rateLimits: false, blockMs: 20 });
});

afterAll(async () => {
  await world.close();
});

/** One account holding one boosted position, its engine, knockout watch and alert centre. */
interface Desk {
  f: OpenFixture;
  knockout: Dec;
  accountId: number;
  engine: SyncEngine;
  watch: KnockoutWatch;
  centre: AlertCentre;
  events: KnockoutAlertEvent[];
  /** Added to the watch's clock: how much older than it is the index looks. */
  clockAhead: { ms: number };
  close(): Promise<void>;
}

/**
 * A fresh account (so its price watch reads exactly this fixture) that bought 10 contracts
 * of the home team at `index` with `boost`. The engine is not started: each step reads what it
 * needs, so nothing depends on timing. The price watch's interval is long, so an index read
 * during a step is fresh for the whole step on a loaded machine.
 */
async function boughtAt(index: string, boost: number): Promise<Desk> {
  const f = await newFixture(world.sandbox);
  await setIndex(f, index);
  const account = await world.sandbox.newAccount('trade');
  const client = new ExchangeClient({
    baseUrl: world.sandbox.url,
    credentials: account,
    account: account.wallet,
  });
  const placed = await client.placeOrder(buy(f, 10, boost));
  const filled = await untilFinal(client, placed.order.orderId);
  expect(filled.status).toBe('FILLED');
  const store = world.db.store;
  const accountId = store.accounts.create({
    label: `index-${f.contractId}`,
    baseUrl: world.sandbox.url,
    apiKey: account.apiKey,
  }).id;
  const engine = new SyncEngine({ client, store, accountId, intervals: { pricesMs: 60_000 } });
  const clockAhead = { ms: 0 };
  const watch = new KnockoutWatch({
    engine,
    store,
    accountId,
    now: () => Date.now() + clockAhead.ms,
  });
  const centre = new AlertCentre({
    store,
    accountId,
    bridgeId: null,
    label: 'Paper',
    watch,
    engine,
    emit: () => undefined,
    now: () => Date.now() + clockAhead.ms,
  });
  const events: KnockoutAlertEvent[] = [];
  watch.on('alert:knockout', (e) => events.push(e));
  centre.start();
  watch.start();
  const desk: Desk = {
    f,
    knockout: dec(filled.knockout!),
    accountId,
    engine,
    watch,
    centre,
    events,
    clockAhead,
    async close() {
      centre.stop();
      await engine.stop();
      await watch.stop();
      await client.close();
    },
  };
  // The account's first sync (its history, none yet), so later rows are news.
  await engine.syncNow('orders', 'settlements');
  await read(desk);
  expect(held(desk)?.knockout).toBe(filled.knockout);
  return desk;
}

async function setIndex(f: OpenFixture, index: string): Promise<void> {
  await world.sandbox.admin('POST', `/fixtures/${f.contractId}/price`, {
    outcome: f.homeTeam,
    indexPrice: index,
  });
}

/** What the app's engine reads on its own: the index (price watch), then positions. */
async function read(d: Desk): Promise<void> {
  await d.engine.syncNow('prices');
  await d.engine.syncNow('positions');
  await d.watch.idle();
}

function held(d: Desk) {
  return world.db.store.positions
    .list(d.accountId, { contractId: d.f.contractId })
    .find((p) => p.outcome === d.f.homeTeam);
}

function row(d: Desk) {
  return positionsView(world.db.store, d.accountId, {
    bridgeId: null,
    pollMs: 3500,
    levels: ['0.1', '0.05', '0.02'],
  }).positions.find((p) => p.contractId === d.f.contractId);
}

const near = (d: Desk) => d.events.filter((e) => e.kind === 'near').map((e) => e.level!);
const knockedOut = (d: Desk) => d.events.filter((e) => e.kind === 'knocked_out');

/** The index at distance `fraction` above the knockout: (index − knockout) / index. */
const indexAt = (knockout: Dec, fraction: string): string =>
  price(knockout.dividedBy(dec(1).minus(fraction)));

/** Distances of a steady fall, each well away from a level and its re-arm margin. */
const FALL: { distance: string; near: string[] }[] = [
  { distance: '0.15', near: [] },
  { distance: '0.12', near: [] },
  { distance: '0.08', near: ['0.1'] },
  { distance: '0.06', near: ['0.1'] },
  { distance: '0.04', near: ['0.1', '0.05'] },
  { distance: '0.03', near: ['0.1', '0.05'] },
  { distance: '0.015', near: ['0.1', '0.05', '0.02'] },
  { distance: '0.005', near: ['0.1', '0.05', '0.02'] },
];

describe.each([
  // The bet: boost 60 on an outcome at 0.06, knockout 0.0379.
  { name: 'a low price (about 0.06)', index: '0.0600', boost: 60, knockout: '0.0379' },
  // Boost 90 at 0.95: the knockout is about 0.78, so the fall happens around 0.8.
  { name: 'a high price (about 0.8)', index: '0.9500', boost: 90, knockout: undefined },
])('the knockout on the index price, at $name', ({ index, boost, knockout }) => {
  it('keeps a bet an index tick above it alive with no alert beyond the levels, fires 10 %, 5 % and 2 % once each on the way down, and knocks it out once at the knockout', async () => {
    const d = await boughtAt(index, boost);
    try {
      if (knockout !== undefined) expect(d.knockout.toFixed(4)).toBe(knockout);
      const k = d.knockout;
      const oneCentAbove = k.plus('0.01');
      // The whole fall, with the knockout + 0.01 step in its place (20.9 % above at the low
      // price, the first step; 1.3 % at the high one, after the 2 % level fired).
      const steps = FALL.map((s) => ({
        index: indexAt(k, s.distance),
        near: s.near,
        above: false,
      }));
      const at = steps.findIndex((s) => dec(s.index).lt(oneCentAbove));
      steps.splice(at, 0, {
        index: price(oneCentAbove),
        near: at === 0 ? [] : steps[at - 1]!.near,
        above: true,
      });

      for (const step of steps) {
        await setIndex(d.f, step.index);
        await read(d);
        expect(held(d), `alive at ${step.index}`).toBeDefined();
        expect(near(d), `near alerts at ${step.index}`).toEqual(step.near);
        expect(knockedOut(d), `knocked out at ${step.index}`).toEqual([]);
        const shown = row(d)!;
        const distance = dec(step.index).minus(k).dividedBy(step.index);
        // The Positions bar and %: on the index, not the closing estimate below it.
        expect(shown.knockoutDistance, `distance shown at ${step.index}`).toEqual({
          price: price(dec(step.index).minus(k)),
          fraction: distance.toFixed(4),
        });
        expect(shown.indexPrice).toBe(step.index);
        // The tray's "N positions near knockout".
        expect(d.centre.summary().nearKnockout).toBe(distance.lte('0.1') ? 1 : 0);
        if (step.above) expect(dec(shown.knockoutDistance!.fraction).gt(0)).toBe(true);
      }

      // Each alert names the index it was judged on, and how far above the knockout it is.
      for (const e of d.events) {
        expect(e.message).toMatch(
          new RegExp(
            `is [\\d.]+% above its knockout: index price 0\\.\\d{4}, knockout ${k.toFixed(4)}, inside the`,
          ),
        );
      }

      await setIndex(d.f, k.toFixed(4));
      await read(d);
      await d.engine.syncNow('settlements', 'orders');
      await d.watch.idle();
      await read(d);
      expect(held(d)).toBeUndefined();
      expect(knockedOut(d)).toEqual([
        expect.objectContaining({ contractId: d.f.contractId, contracts: 10 }),
      ]);
      expect(near(d)).toEqual(['0.1', '0.05', '0.02']);
    } finally {
      await d.close();
    }
  }, 60_000);
});

describe('an index price read too long ago', () => {
  it('raises no alert and shows how old it is; read again, it alerts', async () => {
    const d = await boughtAt('0.5000', 50);
    try {
      d.clockAhead.ms = 10 * 60_000; // every read looks ten minutes old to the watch
      const inside = indexAt(d.knockout, '0.04');
      await setIndex(d.f, inside);
      await read(d);
      expect(d.events).toEqual([]);
      expect(d.centre.summary().nearKnockout).toBe(0);
      const shown = row(d)!;
      expect(shown.indexPrice).toBe(inside);
      expect(shown.indexReadAt).not.toBeNull();
      expect(shown.indexStaleAfterMs).toBe(120_000); // twice the price watch's interval
      expect(Date.now() + d.clockAhead.ms - shown.indexReadAt!).toBeGreaterThan(
        shown.indexStaleAfterMs!,
      );

      d.clockAhead.ms = 0;
      await read(d);
      expect(near(d)).toEqual(['0.05']);
      expect(d.centre.summary().nearKnockout).toBe(1);
    } finally {
      await d.close();
    }
  }, 60_000);
});
