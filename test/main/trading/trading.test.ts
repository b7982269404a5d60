/** The trading service against the real sandbox exchange and a real SQLite store. */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IntentConflictError,
  LiveQuote,
  OrderValidationError,
  QuoteExpiredError,
  intentView,
  type OrderParams,
} from '../../../src/main/trading/index.js';
import type { Fixture } from '../../../src/shared/api/schemas.js';
import { buy, openDesk, type Desk } from './support.js';

let desk: Desk;
let localSkewMs = 0;

beforeAll(async () => {
  // The client's local clock can be moved by the tests (a quote lapsing without waiting 30 s).
  desk = await openDesk({ client: { clock: () => Date.now() + localSkewMs } });
});

afterAll(async () => {
  await desk.close();
});

/** A fixture no other test has bet on, so positions never interfere. */
function freshFixture(): Promise<Fixture> {
  return desk.newFixture();
}

async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

function intentCount(): number {
  return desk.store.db.prepare('SELECT count(*) FROM order_intents').pluck().get() as number;
}

describe('quotes', () => {
  it('tracks a quote’s expiry by the exchange clock and says how long it has left', async () => {
    const f = await freshFixture();
    const q = await desk.trading.quote(buy(f, '10'));
    expect(q).toBeInstanceOf(LiveQuote);
    expect(q.quote.contracts).toBeGreaterThan(0);
    expect(q.expiresAt).toBe(q.quote.expiresAt);
    const left = q.expiresInMs();
    expect(left).toBeGreaterThan(20_000);
    expect(left).toBeLessThanOrEqual(30_000);
    expect(q.expired()).toBe(false);
    const json = JSON.parse(JSON.stringify(q)) as Record<string, unknown>;
    expect(json.rfqId).toBe(q.rfqId);
    expect(typeof json.expiresInMs).toBe('number');
  });

  it('refuses a FOK whose quote has lapsed before sending anything', async () => {
    const f = await freshFixture();
    const q = await desk.trading.quote(buy(f, '5'));
    const before = (await desk.exchangeOrders()).length;
    const intents = intentCount();
    localSkewMs = 31_000; // the local clock jumps: by the exchange's clock the quote is over
    try {
      expect(q.expiresInMs()).toBe(0);
      const err = await thrown(desk.trading.placeOrder({ type: 'FOK', quote: q }));
      expect(err).toBeInstanceOf(QuoteExpiredError);
      expect((err as Error).message).toMatch(/expired .*request a new quote/);
      const byId = await thrown(desk.trading.placeOrder({ type: 'FOK', rfqId: q.rfqId }));
      expect(byId).toBeInstanceOf(QuoteExpiredError);
    } finally {
      localSkewMs = 0;
    }
    expect((await desk.exchangeOrders()).length).toBe(before);
    expect(intentCount()).toBe(intents);
  });
});

describe('orders', () => {
  it('places a MARKET bet in contracts and follows it to FILLED, storing order and intent', async () => {
    const f = await freshFixture();
    const placed = await desk.trading.placeOrder(buy(f, '7'));
    expect(placed.status).toBe('SUBMITTED');
    expect(placed.order?.clientOrderId).toBe(placed.clientOrderId);
    const final = await desk.trading.waitForFinal(placed.order!.orderId);
    expect(final.status).toBe('FILLED');
    expect(final.error).toBeUndefined();
    expect(final.order?.contracts).toBe(7);
    const stored = desk.store.orders.getByOrderId(desk.accountId, placed.order!.orderId);
    expect(stored?.status).toBe('FILLED');
    const intent = desk.trading.intent(placed.clientOrderId)!;
    expect(intent.state).toBe('done');
    expect(intent.orderId).toBe(placed.order!.orderId);
    expect(intent.paramsHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('places a boosted bet in dollars, within the amount', async () => {
    const f = await freshFixture();
    const out = await desk.trading.trade(buy(f, '20', { unit: 'QUOTE', boost: 10 }));
    expect(out.status).toBe('FILLED');
    expect(out.order?.marketUnit).toBe('QUOTE');
    expect(out.order?.boost).toBe(10);
    expect(out.order?.knockout).toBeDefined();
    expect(Number(out.order?.cost)).toBeLessThanOrEqual(20);
  });

  it('executes a FOK through its quote at exactly the quoted terms', async () => {
    const f = await freshFixture();
    const q = await desk.trading.quote(buy(f, '12'));
    const out = await desk.trading.trade({ type: 'FOK', quote: q });
    expect(out.status).toBe('FILLED');
    expect(out.order?.orderType).toBe('FOK');
    expect(out.order?.contracts).toBe(q.quote.contracts);
    expect(out.order?.entryPrice).toBe(q.quote.entryPrice);
  });

  it('executes a quote named by its rfqId', async () => {
    const f = await freshFixture();
    const q = await desk.trading.quote(buy(f, '8'));
    const out = await desk.trading.trade({ type: 'FOK', rfqId: q.rfqId });
    expect(out.status).toBe('FILLED');
    expect(out.order?.rfqId).toBe(q.rfqId);
  });

  it('answers a FOK bet placed again under its clientOrderId with the first order', async () => {
    const f = await freshFixture();
    const params = { ...buy(f, '5'), type: 'FOK', clientOrderId: 'fok-twice' };
    const first = await desk.trading.trade(params);
    expect(first.status).toBe('FILLED');
    const again = await desk.trading.trade(params);
    expect(again.order?.orderId).toBe(first.order?.orderId);
    await expect(desk.trading.placeOrder({ ...params, qty: '6' })).rejects.toBeInstanceOf(
      IntentConflictError,
    );
    const mine = (await desk.exchangeOrders()).filter((o) => o.clientOrderId === 'fok-twice');
    expect(mine).toHaveLength(1);
  });

  it('quotes and executes a FOK given as a bet', async () => {
    const f = await freshFixture();
    const out = await desk.trading.trade({ type: 'fok', ...buy(f, '6') });
    expect(out.status).toBe('FILLED');
    expect(out.order?.orderType).toBe('FOK');
    expect(out.order?.rfqId).toBeDefined();
  });

  it('closes a bet with SELL', async () => {
    const f = await freshFixture();
    expect((await desk.trading.trade(buy(f, '9'))).status).toBe('FILLED');
    const sold = await desk.trading.trade(buy(f, '9', { side: 'SELL' }));
    expect(sold.status).toBe('FILLED');
    expect(sold.order?.side).toBe('SELL');
    const held = await desk.client.positions({ contractId: f.contractId });
    expect(held.positions).toEqual([]);
  });

  it('returns a refusal of the exchange with its code and a readable message', async () => {
    const f = await freshFixture();
    const out = await desk.trading.trade(buy(f, '3', { side: 'SELL' }));
    expect(out.status).toBe('NOT_PLACED');
    expect(out.error?.code).toBe(-2029);
    expect(out.error?.message).toMatch(/Nothing is held/);
    const view = intentView(desk.trading.intent(out.clientOrderId)!);
    expect(view.state).toBe('refused');
    expect(view.error?.code).toBe(-2029);
  });

  it('reports an order that reverted on chain as REJECTED with -2024', async () => {
    const f = await freshFixture();
    await desk.sandbox.admin('POST', '/faults', {
      route: 'POST /order',
      mode: 'revert',
      count: 1,
    });
    const out = await desk.trading.trade(buy(f, '4'));
    expect(out.status).toBe('REJECTED');
    expect(out.error).toEqual({
      code: -2024,
      message: expect.stringMatching(/reverted/) as string,
    });
  });

  it('passes on the -5004 warning of a congested 202 and still follows the order', async () => {
    const f = await freshFixture();
    await desk.sandbox.admin('POST', '/faults', {
      route: 'POST /order',
      mode: 'congested',
      count: 1,
    });
    const out = await desk.trading.trade(buy(f, '4'));
    expect(out.warning?.code).toBe(-5004);
    expect(out.status).toBe('FILLED');
  });

  it('reports a FOK the market moved away from as CANCELED', async () => {
    const f = await freshFixture();
    const q = await desk.trading.quote(buy(f, '10'));
    const up = Math.min(0.94, Number(f.homePrice) + 0.2).toFixed(4);
    await desk.sandbox.admin('POST', `/fixtures/${f.contractId}/price`, {
      outcome: f.homeTeam,
      indexPrice: up,
    });
    const out = await desk.trading.trade({ type: 'FOK', quote: q });
    expect(out.status).toBe('CANCELED');
    expect(out.error?.code).toBe('CANCELED');
    expect(out.error?.message).toMatch(/market moved/);
  });

  it('reports betting on a closed market as not placed, -2019', async () => {
    const f = await freshFixture();
    await desk.sandbox.admin('POST', `/fixtures/${f.contractId}/close`);
    const out = await desk.trading.trade(buy(f, '2'));
    expect(out.status).toBe('NOT_PLACED');
    expect(out.error?.code).toBe(-2019);
  });
});

describe('one request, at most one bet', () => {
  it('commits the intent before the request leaves', async () => {
    const f = await freshFixture();
    // Hold the placement inside the exchange, then look at the database from another connection.
    await desk.sandbox.admin('POST', '/faults', {
      route: 'POST /order',
      mode: 'latency',
      ms: 400,
      count: 1,
    });
    const placing = desk.trading.placeOrder({ ...buy(f, '2'), clientOrderId: 'commit-first-1' });
    const reader = new Database(desk.file, { readonly: true });
    try {
      let row: { state: string } | undefined;
      for (let i = 0; i < 100 && !row; i++) {
        row = reader
          .prepare('SELECT state FROM order_intents WHERE client_order_id = ?')
          .get('commit-first-1') as { state: string } | undefined;
        if (!row) await new Promise((r) => setTimeout(r, 5));
      }
      expect(row?.state).toBe('pending');
    } finally {
      reader.close();
    }
    expect((await placing).status).toBe('SUBMITTED');
  });

  it('sends nothing when the intent cannot be recorded', async () => {
    const f = await freshFixture();
    desk.store.db.exec(
      "CREATE TRIGGER refuse_intents BEFORE INSERT ON order_intents BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    const before = (await desk.exchangeOrders()).length;
    try {
      const err = await thrown(desk.trading.placeOrder(buy(f, '2')));
      expect((err as Error).message).toMatch(/disk full/);
    } finally {
      desk.store.db.exec('DROP TRIGGER refuse_intents');
    }
    expect((await desk.exchangeOrders()).length).toBe(before);
  });

  it('answers the same clientOrderId with the same order, and refuses it for another bet', async () => {
    const f = await freshFixture();
    const params: OrderParams = { ...buy(f, '3'), clientOrderId: 'same-id-twice' };
    const first = await desk.trading.trade(params);
    expect(first.status).toBe('FILLED');
    const again = await desk.trading.placeOrder(params);
    expect(again.order?.orderId).toBe(first.order?.orderId);
    const restarted = desk.restart();
    const afterRestart = await restarted.trade(params);
    expect(afterRestart.order?.orderId).toBe(first.order?.orderId);

    const err = await thrown(desk.trading.placeOrder({ ...params, qty: '4' }));
    expect(err).toBeInstanceOf(IntentConflictError);
    expect((err as Error).message).toMatch(/same-id-twice .*different order parameters/);
    const mine = (await desk.exchangeOrders()).filter((o) => o.clientOrderId === 'same-id-twice');
    expect(mine).toHaveLength(1);
  });

  it('makes a new clientOrderId for every order and keeps a given one as it is', async () => {
    const f = await freshFixture();
    const a = await desk.trading.placeOrder(buy(f, '1'));
    const b = await desk.trading.placeOrder(buy(f, '1'));
    expect(a.clientOrderId).not.toBe(b.clientOrderId);
    expect(a.clientOrderId).toMatch(/^[A-Za-z0-9_:.-]{1,64}$/);
    const c = await desk.trading.placeOrder({ ...buy(f, '1'), clientOrderId: 'my:own_id.1-x' });
    expect(c.order?.clientOrderId).toBe('my:own_id.1-x');
  });
});

describe('local validation', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await freshFixture();
  });
  const f = () => fixture;
  const cases: [string, () => OrderParams, string, RegExp][] = [
    ['a zero qty', () => buy(f(), '0'), 'qty', /more than zero/],
    ['a qty that is not a number', () => buy(f(), '1e3'), 'qty', /plain decimal number/],
    ['a negative qty', () => buy(f(), '-5'), 'qty', /more than zero/],
    ['a boost above 100', () => buy(f(), '5', { boost: 101 }), 'boost', /0 to 100/],
    ['a fractional boost', () => buy(f(), '5', { boost: '2.5' }), 'boost', /whole number/],
    ['a boost on SELL', () => buy(f(), '5', { side: 'SELL', boost: 5 }), 'boost', /BUY/],
    ['dollars on SELL', () => buy(f(), '5', { side: 'SELL', unit: 'QUOTE' }), 'unit', /BASE/],
    ['an unknown side', () => buy(f(), '5', { side: 'HOLD' }), 'side', /BUY .* or SELL/],
    ['an unknown unit', () => buy(f(), '5', { unit: 'EUR' }), 'unit', /BASE .* or QUOTE/],
    ['an unknown order type', () => ({ ...buy(f(), '5'), type: 'LIMIT' }), 'type', /MARKET .*FOK/],
    [
      'a clientOrderId with a space',
      () => ({ ...buy(f(), '5'), clientOrderId: 'has space' }),
      'clientOrderId',
      /letters, digits and _ : \. -/,
    ],
    [
      'a clientOrderId of 65 characters',
      () => ({ ...buy(f(), '5'), clientOrderId: 'x'.repeat(65) }),
      'clientOrderId',
      /at most 64/,
    ],
    [
      'both a bet and a quote',
      () => ({ ...buy(f(), '5'), rfqId: 'abc' }),
      'rfqId',
      /either the bet .* or a quote/,
    ],
    ['neither a bet nor a quote', () => ({ type: 'MARKET' }), 'contractId', /Say what to bet on/],
    ['a missing outcome', () => buy(f(), '5', { outcome: ' ' }), 'outcome', /outcome .* required/],
  ];

  for (const [what, params, field, message] of cases) {
    it(`refuses ${what} before recording or sending anything`, async () => {
      const intents = intentCount();
      const err = await thrown(desk.trading.placeOrder(params()));
      expect(err).toBeInstanceOf(OrderValidationError);
      expect((err as OrderValidationError).field).toBe(field);
      expect((err as Error).message).toMatch(message);
      expect(intentCount()).toBe(intents);
    });
  }

  it('refuses the same mistakes when quoting', async () => {
    const err = await thrown(desk.trading.quote(buy(f(), '5', { boost: 200 })));
    expect(err).toBeInstanceOf(OrderValidationError);
  });
});

describe('following an order', () => {
  it('gives up waiting after the timeout, with the last status and code TIMEOUT', async () => {
    const slow = await openDesk({ exchange: { blockMs: 60_000, rateLimits: false } });
    try {
      const f = await slow.newFixture();
      const placed = await slow.trading.placeOrder(buy(f, '2'));
      const out = await slow.trading.waitForFinal(placed.order!.orderId, { timeoutMs: 200 });
      expect(out.status).toBe('SUBMITTED');
      expect(out.order?.orderId).toBe(placed.order?.orderId);
      expect(out.error?.code).toBe('TIMEOUT');
      expect(out.error?.message).toMatch(/still SUBMITTED after/);
    } finally {
      await slow.close();
    }
  });
});
