/**
 * A busy account against the sandbox with its rate limits on (test/harness/busy-account.ts): the
 * sync engine and knockout watch on their default intervals, quotes asked back to back through
 * the governor past their bucket's burst, orders placed and followed, prices moving, a knockout.
 * The exchange must not answer a single 429 (nor a 503). How close quotes come to their
 * bucket's rate over two minutes is a measurement, not a test: `npm run bench:rate-budget`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateGovernor } from '../../../src/main/governor/index.js';
import { GROUP_LIMITS } from '../../../src/shared/api/limits.js';
import { startBusyAccount } from '../../harness/busy-account.js';
import { startWorld, until, type World } from './helpers.js';

let world: World;
let governor: RateGovernor;

beforeAll(async () => {
  governor = new RateGovernor();
  world = await startWorld({ governor, blockMs: 500 });
});

afterAll(async () => {
  await world.close();
  governor.close();
});

describe('the rate budget', () => {
  it('keeps a busy account free of 429s and 503s, quotes held past their burst and still answered', async () => {
    const { db, requests } = world;
    const busy = await startBusyAccount(world, { tradeEveryMs: 3000, priceEveryMs: 1000 });
    try {
      // Past the burst, the governor holds every quote until its bucket has a token again.
      const pastBurst = GROUP_LIMITS.quotes.burst + 5;
      await until(`${pastBurst} quotes are answered`, () => busy.quotedAt.length >= pastBurst);
      await busy.knockOut();
      // Read now rather than at the next poll (up to 20 s for settlements on their default
      // interval, behind a busy reads bucket): what matters is that the reads stay in budget.
      busy.engine.requestSync('positions', 'settlements');
      await until('the watch sees the knockout', () => busy.alerts.includes('knocked_out'), 60_000);
      await until('four orders are placed', () => busy.orderIds.length >= 4);
    } finally {
      await busy.stop();
    }

    expect(requests.withStatus(429)).toBe(0);
    expect(requests.withStatus(503)).toBe(0);
    expect(requests.count('POST /order/rfq', 200)).toBe(busy.quotedAt.length);
    // The sync ran all along.
    expect(requests.count('GET /positions')).toBeGreaterThan(0);
    expect(requests.count('GET /orders/updates')).toBeGreaterThan(0);
    expect(busy.engine.status().lastError).toBeNull();
    expect(db.store.orders.list(db.accountId, { limit: 1000 }).total).toBe(busy.orderIds.length);
  }, 120_000);
});
