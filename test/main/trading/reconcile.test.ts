/**
 * Reconciliation of open intents: what a placement could not settle, and what a crash left
 * behind, is settled with the exchange before anything else, and nothing is placed by itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { TradingService, intentView } from '../../../src/main/trading/index.js';
import type { Fixture, OrderRequest } from '../../../src/shared/api/schemas.js';
import { countRequests } from '../../harness/requests.js';
import { until } from '../../harness/wait.js';
import { buy, openDesk, type Desk } from './support.js';

let desk: Desk;
let fixture: Fixture;

beforeAll(async () => {
  desk = await openDesk({
    client: { timeouts: { headersMs: 300, bodyMs: 300 } },
    trading: { placement: { attempts: 3, timeoutMs: 300, backoff: { initialMs: 10, maxMs: 50 } } },
  });
  fixture = await desk.newFixture();
});

afterAll(async () => {
  await desk.close();
});

/** What the crashed process had committed: the intent, exactly as placeOrder records it. */
function recordIntent(clientOrderId: string, qty = '2'): OrderRequest {
  const request: OrderRequest = {
    clientOrderId,
    legs: [
      {
        contractId: fixture.contractId,
        market: 'DRAW_NO_BET',
        outcome: fixture.homeTeam,
        side: 'BUY',
      },
    ],
    marketUnit: 'BASE',
    orderType: 'MARKET',
    qty,
  };
  desk.store.intents.create({
    clientOrderId,
    accountId: desk.accountId,
    params: {
      request,
      bet: {
        contractId: fixture.contractId,
        outcome: fixture.homeTeam,
        side: 'BUY',
        qty,
        unit: 'BASE',
        boost: 0,
      },
    },
  });
  return request;
}

async function onExchange(clientOrderId: string) {
  return (await desk.exchangeOrders()).filter((o) => o.clientOrderId === clientOrderId);
}

describe('reconciling open intents', () => {
  it('leaves an order whose every answer was lost unknown, and finds it later', async () => {
    await desk.sandbox.admin('POST', '/faults', {
      route: 'POST /order',
      mode: 'drop',
      count: 50,
    });
    await desk.sandbox.admin('POST', '/faults', { route: 'GET /order', mode: 'drop', count: 50 });
    const out = await desk.trading.placeOrder({ ...buy(fixture, '2'), clientOrderId: 'lost-1' });
    await desk.sandbox.admin('DELETE', '/faults');
    expect(out.status).toBe('UNKNOWN');
    expect(out.error?.message).toMatch(/not known yet.*do not place it a second time/);
    expect(desk.trading.intent('lost-1')?.state).toBe('unknown');

    const report = await desk.restart().reconcileOpenIntents();
    expect(report.placed).toContain('lost-1');
    const orders = await onExchange('lost-1');
    expect(orders).toHaveLength(1);
    const intent = desk.trading.intent('lost-1')!;
    expect(intent.state).toBe('done');
    expect(intent.orderId).toBe(orders[0]!.orderId);
    expect(desk.store.orders.getByClientOrderId(desk.accountId, 'lost-1')?.orderId).toBe(
      orders[0]!.orderId,
    );
  });

  it('finds the order a crashed process sent before it could record the answer', async () => {
    const request = recordIntent('crashed-after-send');
    const sent = await desk.sandbox.signed(
      { ...desk.key, permission: 'trade', expiresAt: null },
      'POST',
      '/order',
      { body: request },
    );
    expect(sent.status).toBe(202);
    const report = await desk.restart().reconcileOpenIntents();
    expect(report.placed).toEqual(['crashed-after-send']);
    expect(desk.trading.intent('crashed-after-send')?.state).toBe('done');
    expect(await onExchange('crashed-after-send')).toHaveLength(1);
  });

  it('marks an intent that never reached the exchange not placed, and does not place it', async () => {
    recordIntent('crashed-before-send');
    const requests = countRequests(desk.sandbox.app.server);
    const report = await desk.restart().reconcileOpenIntents();
    expect(report.notPlaced).toEqual(['crashed-before-send']);
    const view = intentView(desk.trading.intent('crashed-before-send')!);
    expect(view.state).toBe('not_placed');
    expect(view.error?.code).toBe(-2025);
    expect(view.error?.message).toMatch(/never places a bet by itself after a restart/);
    await until('the exchange has answered every request', () => requests.inFlight() === 0);
    requests.detach();
    expect(requests.count('POST /order')).toBe(0);
    expect(await onExchange('crashed-before-send')).toHaveLength(0);

    // Asking again with the same id gets the same answer; a new bet needs a new id.
    const again = await desk.restart().placeOrder({
      ...buy(fixture, '2'),
      clientOrderId: 'crashed-before-send',
    });
    expect(again.status).toBe('NOT_PLACED');
    expect(await onExchange('crashed-before-send')).toHaveLength(0);
  });

  it('reconciles before the first placement of a new service', async () => {
    recordIntent('left-open');
    const fresh = desk.restart();
    const out = await fresh.placeOrder(buy(fixture, '1'));
    expect(out.status).toBe('SUBMITTED');
    expect(intentView(fresh.intent('left-open')!).state).toBe('not_placed');
  });

  it('keeps intents unknown while the exchange cannot be reached', async () => {
    recordIntent('offline-1');
    const offline = new ExchangeClient({
      baseUrl: 'http://127.0.0.1:9',
      credentials: { apiKey: desk.key.apiKey, secret: desk.key.secret },
    });
    try {
      const service = new TradingService({
        client: offline,
        store: desk.store,
        accountId: desk.accountId,
        placement: { backoff: { initialMs: 5, maxMs: 10 } },
      });
      const report = await service.reconcileOpenIntents();
      expect(report.unknown).toEqual(['offline-1']);
      expect(desk.trading.intent('offline-1')?.state).toBe('unknown');
    } finally {
      await offline.close();
    }
    const report = await desk.restart().reconcileOpenIntents();
    expect(report.notPlaced).toEqual(['offline-1']);
  });

  it('closes a not-placed intent when its order shows up late in a sync', async () => {
    const request = recordIntent('late-arrival');
    await desk.restart().reconcileOpenIntents();
    expect(intentView(desk.trading.intent('late-arrival')!).state).toBe('not_placed');
    // The request was still on its way when the lookup ran; it lands afterwards.
    await desk.sandbox.signed(
      { ...desk.key, permission: 'trade', expiresAt: null },
      'POST',
      '/order',
      { body: request },
    );
    const updates = await desk.client.orderUpdates();
    desk.store.applyOrderUpdates(desk.accountId, updates.orders, updates.cursor);
    const intent = desk.trading.intent('late-arrival')!;
    expect(intent.state).toBe('done');
    expect(intent.orderId).toBe((await onExchange('late-arrival'))[0]?.orderId);
  });
});
