/**
 * 200 placements while the sandbox injects faults (dropped connections, congestion, reverts,
 * answers slower than the client waits, -5002/-5003, -1003 with Retry-After), mixed at random
 * and hitting sends, resends and lookups alike. Afterwards the exchange must hold exactly one
 * order per intent that was placed and none for the others: no duplicate, nothing lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/shared/log.js';
import { intentView, type OrderOutcome } from '../../../src/main/trading/index.js';
import type { Fixture, Order } from '../../../src/shared/api/schemas.js';
import { trackPlacements } from '../../exchange/harness.js';
import { until } from '../../harness/wait.js';
import { untilOrdersFinal } from './converge.js';
import { buy, openDesk, type Desk } from './support.js';
import { mulberry32 } from '../../../src/shared/random.js';

const PLACEMENTS = 200;
const CONCURRENCY = 4;
const CLIENT_TIMEOUT_MS = 250;
const SEED = Number(process.env.BETDESK_FAULT_SEED ?? Date.now() % 1_000_000);

const ORDER_FAULTS = [
  { mode: 'drop' },
  { mode: 'congested' },
  { mode: 'revert' },
  { mode: 'latency', ms: CLIENT_TIMEOUT_MS + 200 },
  { mode: 'error', code: -5002 },
  { mode: 'error', code: -5003 },
  { mode: 'error', code: -1003 },
] as const;
const LOOKUP_FAULTS = [
  { mode: 'drop' },
  { mode: 'latency', ms: CLIENT_TIMEOUT_MS + 100 },
  { mode: 'error', code: -5002 },
] as const;

let desk: Desk;
let placements: { pending(): number };
const verdicts = new Map<string, number>();
const logger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (msg, fields) => {
    if (msg === 'order attempt failed') {
      const v = String(fields?.verdict);
      verdicts.set(v, (verdicts.get(v) ?? 0) + 1);
    }
  },
};

beforeAll(async () => {
  desk = await openDesk({
    exchange: { blockMs: 20, rateLimits: false },
    client: { timeouts: { headersMs: CLIENT_TIMEOUT_MS, bodyMs: CLIENT_TIMEOUT_MS } },
    trading: {
      logger,
      placement: {
        attempts: 12,
        timeoutMs: CLIENT_TIMEOUT_MS,
        backoff: { initialMs: 20, maxMs: 300 },
      },
      polling: { initialMs: 20, maxMs: 100, timeoutMs: 10_000 },
    },
  });
  placements = trackPlacements(desk.sandbox.domain);
});

afterAll(async () => {
  await desk.close();
});

describe('placements under injected faults', () => {
  it(`places each of ${PLACEMENTS} orders exactly once or not at all (seed ${SEED})`, async () => {
    const random = mulberry32(SEED);
    const fixtures: Fixture[] = [];
    for (let i = 0; i < 10; i++) fixtures.push(await desk.newFixture());
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

    const outcomes: OrderOutcome[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < PLACEMENTS) {
        next++;
        if (random() < 0.8) {
          await desk.sandbox.admin('POST', '/faults', {
            route: 'POST /order',
            count: 1 + Math.floor(random() * 3),
            ...pick(ORDER_FAULTS),
          });
        }
        if (random() < 0.15) {
          await desk.sandbox.admin('POST', '/faults', {
            route: 'GET /order',
            count: 1,
            ...pick(LOOKUP_FAULTS),
          });
        }
        const bet = buy(pick(fixtures), String(1 + Math.floor(random() * 3)));
        outcomes.push(
          await desk.trading.placeOrder(random() < 0.2 ? { ...bet, type: 'FOK' } : bet),
        );
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await desk.sandbox.admin('DELETE', '/faults');
    // A placement held by a latency fault lands within its delay, as it would before a restart.
    await until('every placement held by a fault has landed', () => placements.pending() === 0);

    // What was left unknown is settled the way it is after a restart.
    const report = await desk.restart().reconcileOpenIntents();
    expect(report.unknown).toEqual([]);
    await untilOrdersFinal(desk.client);
    const exchange = await desk.exchangeOrders();
    const updates = await desk.client.orderUpdates();
    desk.store.applyOrderUpdates(desk.accountId, updates.orders, updates.cursor);

    const intents = desk.store.db
      .prepare('SELECT client_order_id FROM order_intents')
      .pluck()
      .all() as string[];
    const views = intents.map((id) => intentView(desk.store.intents.get(id)!));
    const byClientId = new Map<string, Order[]>();
    for (const o of exchange)
      byClientId.set(o.clientOrderId, [...(byClientId.get(o.clientOrderId) ?? []), o]);

    expect(outcomes).toHaveLength(PLACEMENTS);
    expect(views).toHaveLength(PLACEMENTS);
    // No duplicate: every order on the exchange belongs to exactly one intent, one each.
    for (const o of exchange) expect(intents).toContain(o.clientOrderId);
    for (const orders of byClientId.values()) expect(orders).toHaveLength(1);
    // Nothing lost: an intent is done with its exchange order, or the exchange has none for it.
    for (const v of views) {
      const onExchange = byClientId.get(v.clientOrderId)?.[0];
      if (onExchange) {
        expect(v.state).toBe('done');
        expect(v.orderId).toBe(onExchange.orderId);
      } else {
        expect(['refused', 'not_placed']).toContain(v.state);
      }
    }
    // What each placement said agrees with the exchange.
    for (const out of outcomes) {
      const onExchange = byClientId.get(out.clientOrderId)?.[0];
      if (out.status === 'NOT_PLACED') expect(onExchange).toBeUndefined();
      else if (out.status !== 'UNKNOWN') expect(out.order?.orderId).toBe(onExchange?.orderId);
    }
    // The store now mirrors the exchange.
    const stored = desk.store.orders.list(desk.accountId, { limit: 1000 }).orders;
    expect(new Map(stored.map((o) => [o.orderId, o.status]))).toEqual(
      new Map(exchange.map((o) => [o.orderId, o.status])),
    );

    // The faults really happened, and most orders still went through.
    console.log(
      `seed ${SEED}: ${exchange.length} placed, ${PLACEMENTS - exchange.length} not placed;`,
      `statuses ${JSON.stringify(count(outcomes.map((o) => o.status)))};`,
      `failed attempts ${JSON.stringify(Object.fromEntries(verdicts))};`,
      `reconciled ${JSON.stringify({ placed: report.placed.length, notPlaced: report.notPlaced.length })}`,
    );
    expect(verdicts.get('lookup') ?? 0).toBeGreaterThan(10);
    expect(verdicts.get('resend') ?? 0).toBeGreaterThan(10);
    expect(exchange.length).toBeGreaterThan(PLACEMENTS * 0.75);
  }, 120_000);
});

function count(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
