/**
 * A busy account against the sandbox, as the app makes it: the sync engine and the knockout
 * watch on their default intervals (a boosted position open, so positions poll fast), quotes
 * asked back to back, orders placed and followed by GET /order the way the trading service
 * does, prices moving. Shared by the rate-budget test (what must never happen: a 429 or a 503)
 * and `npm run bench:rate-budget` (how close quotes come to their bucket's rate).
 */
import { KnockoutWatch } from '../../src/main/alerts/index.js';
import type { ExchangeClient } from '../../src/main/client/index.js';
import { SyncEngine } from '../../src/main/sync/index.js';
import { isFinalStatus } from '../../src/shared/api/schemas.js';
import { buy, newFixture, type OpenFixture, type World } from '../main/sync/helpers.js';
import { sleep, until } from './wait.js';

export interface BusyAccountOptions {
  /** Pause between two orders of the trading loop. */
  tradeEveryMs: number;
  /** Pause between two price moves of the boosted fixture. */
  priceEveryMs: number;
  /** Quote loops running at once (each asks the next quote as soon as one is answered). */
  quoteWorkers?: number;
}

export interface BusyAccount {
  engine: SyncEngine;
  /** Kinds of the knockout alerts raised so far. */
  alerts: string[];
  /** Every order placed, in order. */
  orderIds: string[];
  /** When each quote was answered (Date.now()). */
  quotedAt: number[];
  /** Moves the doomed fixture's price down to 0.1: its boosted position is knocked out. */
  knockOut(): Promise<void>;
  /** Stops every loop, brings the orders up to date, and stops the engine and the watch. */
  stop(): Promise<void>;
}

/** What the trading service does: place, then poll GET /order until the order is final. */
async function trade(
  client: ExchangeClient,
  engine: SyncEngine,
  orderIds: string[],
  req: Parameters<ExchangeClient['placeOrder']>[0],
): Promise<void> {
  const placed = await client.placeOrder(req);
  orderIds.push(placed.order.orderId);
  engine.requestSync('orders');
  for (;;) {
    const o = await client.getOrder({ orderId: placed.order.orderId });
    if (isFinalStatus(o.status)) return;
    await sleep(250);
  }
}

export async function startBusyAccount(
  world: World,
  opts: BusyAccountOptions,
): Promise<BusyAccount> {
  const { db, client, sandbox } = world;
  const boosted = await newFixture(sandbox);
  const plain = await newFixture(sandbox);
  const quoted = await newFixture(sandbox);
  const doomed: OpenFixture = await newFixture(sandbox);

  const engine = new SyncEngine({ client, store: db.store, accountId: db.accountId });
  const watch = new KnockoutWatch({ engine, store: db.store, accountId: db.accountId });
  const alerts: string[] = [];
  watch.on('alert:knockout', (a) => alerts.push(a.kind));
  watch.start();
  engine.start();

  const orderIds: string[] = [];
  await trade(client, engine, orderIds, buy(boosted, 100, 40));
  await trade(client, engine, orderIds, buy(doomed, 50, 50));
  await until(
    'the engine holds the boosted positions',
    () => db.store.positions.list(db.accountId).filter((p) => p.boosted).length === 2,
    30_000,
  );

  let running = true;
  const quotedAt: number[] = [];
  const leg = {
    contractId: quoted.contractId,
    outcome: quoted.homeTeam,
    side: 'BUY',
    market: 'DRAW_NO_BET',
  } as const;
  const quoteLoop = async (): Promise<void> => {
    while (running) {
      await client.rfq({ legs: [leg], qty: '2', marketUnit: 'QUOTE' });
      quotedAt.push(Date.now());
    }
  };
  const tradeLoop = async (): Promise<void> => {
    for (let i = 0; running; i++) {
      await trade(client, engine, orderIds, buy(plain, 3 + (i % 4), i % 3 === 0 ? 20 : 0));
      await sleep(opts.tradeEveryMs);
    }
  };
  const priceLoop = async (): Promise<void> => {
    const prices = ['0.52', '0.47', '0.55', '0.45', '0.5'];
    for (let i = 0; running; i++) {
      await sleep(opts.priceEveryMs);
      await sandbox.admin('POST', `/fixtures/${boosted.contractId}/price`, {
        outcome: boosted.homeTeam,
        indexPrice: prices[i % prices.length],
      });
    }
  };
  const loops = [
    ...Array.from({ length: opts.quoteWorkers ?? 3 }, quoteLoop),
    tradeLoop(),
    priceLoop(),
  ];

  return {
    engine,
    alerts,
    orderIds,
    quotedAt,
    async knockOut() {
      await sandbox.admin('POST', `/fixtures/${doomed.contractId}/price`, {
        outcome: doomed.homeTeam,
        indexPrice: '0.1',
      });
    },
    async stop() {
      running = false;
      await Promise.all(loops);
      await engine.syncNow('orders');
      await engine.stop();
      await watch.stop();
    },
  };
}
