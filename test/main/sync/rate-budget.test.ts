/**
 * Two minutes of a busy account against the sandbox with its rate limits on: the sync engine
 * and knockout watch on their default intervals (a boosted position open, so positions poll
 * fast), quotes asked back to back through the governor, orders placed and followed by GET
 * /order the way the trading service does, prices moving. The exchange must not answer a
 * single 429 (nor a 503), and quotes must still get at least 95 % of their bucket's rate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateGovernor } from '../../../src/main/governor/index.js';
import { KnockoutWatch } from '../../../src/main/alerts/index.js';
import { SyncEngine } from '../../../src/main/sync/index.js';
import { buy, newFixture, sleep, startWorld, until, type World } from './helpers.js';

const WINDOW_MS = 120_000;
/** Quotes run this long before the window opens, so the bucket's initial burst is spent. */
const WARM_UP_MS = 15_000;
const QUOTES_PER_SECOND = 60 / 60;

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
  it('ends two minutes of mixed activity with zero 429s and quotes at 95% of their rate or more', async () => {
    const { db, client, requests, sandbox } = world;
    const boosted = await newFixture(sandbox);
    const plain = await newFixture(sandbox);
    const quoted = await newFixture(sandbox);
    const doomed = await newFixture(sandbox);

    const engine = new SyncEngine({ client, store: db.store, accountId: db.accountId });
    const watch = new KnockoutWatch({ engine, store: db.store, accountId: db.accountId });
    const alerts: string[] = [];
    watch.on('alert:knockout', (a) => alerts.push(a.kind));
    watch.start();
    engine.start();

    // What the trading service does: place, then poll GET /order until the order is final.
    const orderIds: string[] = [];
    async function trade(req: Parameters<typeof client.placeOrder>[0]): Promise<void> {
      const placed = await client.placeOrder(req);
      orderIds.push(placed.order.orderId);
      engine.requestSync('orders');
      for (;;) {
        const o = await client.getOrder({ orderId: placed.order.orderId });
        if (!['CLAIMED', 'SUBMITTED', 'OPEN'].includes(o.status)) return;
        await sleep(250);
      }
    }
    await trade(buy(boosted, 100, 40));
    await trade(buy(doomed, 50, 50));
    await until(
      'the engine holds the boosted positions',
      () => db.store.positions.list(db.accountId).filter((p) => p.boosted).length === 2,
      30_000,
    );

    let running = true;
    let windowStart = Infinity;
    let windowEnd = Infinity;
    let quotesInWindow = 0;
    const leg = {
      contractId: quoted.contractId,
      outcome: quoted.homeTeam,
      side: 'BUY',
      market: 'DRAW_NO_BET',
    } as const;
    const quoteWorker = async (): Promise<void> => {
      while (running) {
        await client.rfq({ legs: [leg], qty: '2', marketUnit: 'QUOTE' });
        const t = Date.now();
        if (t >= windowStart && t <= windowEnd) quotesInWindow += 1;
      }
    };
    const workers = [quoteWorker(), quoteWorker(), quoteWorker()];

    const tradeLoop = async (): Promise<void> => {
      let i = 0;
      while (running) {
        await trade(buy(plain, 3 + (i % 4), i % 3 === 0 ? 20 : 0));
        i += 1;
        await sleep(6000);
      }
    };
    const priceLoop = async (): Promise<void> => {
      const prices = ['0.52', '0.47', '0.55', '0.45', '0.5'];
      let i = 0;
      while (running) {
        await sleep(9000);
        await sandbox.control('POST', `/fixtures/${boosted.contractId}/price`, {
          outcome: boosted.homeTeam,
          indexPrice: prices[i % prices.length],
        });
        i += 1;
      }
    };
    const loops = [tradeLoop(), priceLoop()];

    await sleep(WARM_UP_MS);
    requests.reset();
    windowStart = Date.now();
    windowEnd = windowStart + WINDOW_MS;
    await sleep(WINDOW_MS / 2);
    // Halfway, a knockout: the watch must see it without breaking the budget.
    await sandbox.control('POST', `/fixtures/${doomed.contractId}/price`, {
      outcome: doomed.homeTeam,
      indexPrice: '0.1',
    });
    await sleep(WINDOW_MS / 2);
    const counts = {
      positions: requests.count('GET /positions'),
      updates: requests.count('GET /orders/updates'),
      settlements: requests.count('GET /settlements'),
      orderStatus: requests.count('GET /order'),
      orders: requests.count('POST /order'),
      quotes: requests.count('POST /order/rfq'),
      fixtures: requests.count('GET /fixtures'),
      tooMany: requests.withStatus(429),
      shed: requests.withStatus(503),
    };
    running = false;
    await Promise.all([...workers, ...loops]);
    await engine.syncNow('orders');
    await engine.stop();
    await watch.stop();
    console.log('requests in the two-minute window', { ...counts, quotesInWindow, alerts });

    expect(counts.tooMany).toBe(0);
    expect(counts.shed).toBe(0);
    expect(quotesInWindow).toBeGreaterThanOrEqual(0.95 * QUOTES_PER_SECOND * (WINDOW_MS / 1000));
    // The sync ran all along: positions fast (a boosted position stayed open), the rest too.
    expect(counts.positions).toBeGreaterThanOrEqual(25);
    expect(counts.updates).toBeGreaterThanOrEqual(20);
    expect(counts.orders).toBeGreaterThanOrEqual(15);
    expect(engine.status().lastError).toBeNull();
    expect(alerts).toContain('knocked_out');
    expect(db.store.orders.list(db.accountId, { limit: 1000 }).total).toBe(orderIds.length);
  }, 240_000);
});
