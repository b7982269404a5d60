/** POST /sandbox/faults: latency, error, drop, revert, congested; DELETE clears. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from '../../harness/wait.js';
import { startSandbox, type Credentials, type Sandbox } from '../harness.js';

type ErrorBody = { code: number; msg: string };
type Order = {
  orderId: string;
  clientOrderId: string;
  status: string;
  error?: { code: number; msg: string };
};

let sb: Sandbox;
let trader: Credentials;
let leg: Record<string, string>;

beforeAll(async () => {
  sb = await startSandbox({ rateLimits: false });
  trader = await sb.newKey({ permission: 'trade' });
  const f = (
    await sb.get<{ fixtures: { contractId: string; homeTeam: string }[] }>(
      '/fixtures?bettingOpen=true&limit=1',
    )
  ).body.fixtures[0]!;
  leg = { contractId: f.contractId, outcome: f.homeTeam, side: 'BUY', market: 'DRAW_NO_BET' };
});
afterAll(async () => sb.close());
afterEach(async () => {
  await sb.control('DELETE', '/sandbox/faults');
});

let seq = 0;
const order = (clientOrderId = `f-${++seq}-${Date.now()}`) => ({
  orderType: 'MARKET',
  legs: [leg],
  qty: '2',
  marketUnit: 'BASE',
  clientOrderId,
});

async function fault(body: Record<string, unknown>): Promise<void> {
  const res = await sb.control('POST', '/sandbox/faults', body);
  expect(res.status, res.text).toBe(200);
}

async function getOrder(clientOrderId: string): Promise<Order> {
  const res = await sb.signedInject<Order>(trader, 'GET', '/order', { query: { clientOrderId } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('error', () => {
  it('answers the next `count` requests with the code and its HTTP status, then recovers', async () => {
    await fault({ route: 'POST /order', mode: 'error', count: 2, code: -5002 });
    for (let i = 0; i < 2; i++) {
      const res = await sb.signedInject<ErrorBody>(trader, 'POST', '/order', { body: order() });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe(-5002);
    }
    const ok = await sb.signedInject(trader, 'POST', '/order', { body: order() });
    expect(ok.status).toBe(202);
  });

  it('places nothing when it answers an error', async () => {
    const id = `err-${Date.now()}`;
    await fault({ route: 'POST /order', mode: 'error', count: 1, code: -5003 });
    const res = await sb.signedInject<ErrorBody>(trader, 'POST', '/order', { body: order(id) });
    expect(res.body.code).toBe(-5003);
    const read = await sb.signedInject<ErrorBody>(trader, 'GET', '/order', {
      query: { clientOrderId: id },
    });
    expect(read.body.code).toBe(-2025);
  });

  it('answers -1003 as 429 with Retry-After', async () => {
    await fault({ route: 'POST /order', mode: 'error', count: 1, code: -1003 });
    const res = await sb.signedInject<ErrorBody>(trader, 'POST', '/order', { body: order() });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe(-1003);
    expect(res.headers['retry-after']).toBe('1');
  });

  it('applies to any public route, e.g. GET /fixtures', async () => {
    await fault({ route: 'GET /fixtures', mode: 'error', count: 1, code: -5001 });
    const res = await sb.get<ErrorBody>('/fixtures');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe(-5001);
    expect((await sb.get('/fixtures')).status).toBe(200);
  });

  it('is drawn only by requests that pass authentication', async () => {
    await fault({ route: 'GET /orders', mode: 'error', count: 1, code: -5001 });
    const unsigned = await sb.app.inject({ url: '/orders' });
    expect(unsigned.json()).toMatchObject({ code: -1022 });
    expect((await sb.signedInject<ErrorBody>(trader, 'GET', '/orders')).body.code).toBe(-5001);
    expect((await sb.signedInject(trader, 'GET', '/orders')).status).toBe(200);
  });
});

describe('latency', () => {
  // How long the delay really is: `npm run bench:timing`.
  it('holds the route while other routes answer at once, then answers it', async () => {
    await fault({ route: 'GET /time', mode: 'latency', count: 1, ms: 300 });
    const answered: string[] = [];
    const slow = sb.get('/time').then((res) => (answered.push('/time'), res));
    const fast = await sb.get('/health').then((res) => (answered.push('/health'), res));
    expect(fast.status).toBe(200);
    expect((await slow).status).toBe(200);
    expect(answered).toEqual(['/health', '/time']);
  });

  it('holds an order while its clientOrderId is claimed: a concurrent duplicate gets -2028', async () => {
    await fault({ route: 'POST /order', mode: 'latency', count: 1, ms: 400 });
    const id = `lat-${Date.now()}`;
    const placing = vi.spyOn(sb.domain, 'placeOrder');
    const slow = sb.signed<Order>(trader, 'POST', '/order', { body: order(id) });
    // The domain claims the clientOrderId as soon as the placement reaches it.
    await until('the first order reaches the exchange', () => placing.mock.calls.length === 1);
    placing.mockRestore();
    const dup = await sb.signed<ErrorBody>(trader, 'POST', '/order', { body: order(id) });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe(-2028);
    const first = await slow;
    expect(first.status).toBe(202);
    expect(first.body.clientOrderId).toBe(id);
    // Once placed, resending the clientOrderId returns the order already placed.
    const again = await sb.signed<Order>(trader, 'POST', '/order', { body: order(id) });
    expect(again.body.orderId).toBe(first.body.orderId);
  });
});

describe('drop', () => {
  it('applies the request and closes the connection without answering', async () => {
    await fault({ route: 'POST /order', mode: 'drop', count: 1 });
    const id = `drop-${Date.now()}`;
    await expect(sb.signed(trader, 'POST', '/order', { body: order(id) })).rejects.toThrow();
    const placed = await getOrder(id);
    expect(placed.clientOrderId).toBe(id);
    // The connection pool recovers: the next request is answered.
    expect((await sb.get('/health')).status).toBe(200);
  });
});

describe('revert', () => {
  it('answers 202, then the order ends REJECTED with -2024', async () => {
    await fault({ route: 'POST /order', mode: 'revert', count: 1 });
    const id = `rev-${Date.now()}`;
    const res = await sb.signedInject<Order>(trader, 'POST', '/order', { body: order(id) });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('SUBMITTED');
    await sb.advanceClock(5_000);
    const after = await getOrder(id);
    expect(after.status).toBe('REJECTED');
    expect(after.error?.code).toBe(-2024);
  });
});

describe('congested', () => {
  it('answers 202 carrying error -5004, and the order still stands', async () => {
    await fault({ route: 'POST /order', mode: 'congested', count: 1 });
    const id = `cng-${Date.now()}`;
    const res = await sb.signedInject<Order>(trader, 'POST', '/order', { body: order(id) });
    expect(res.status).toBe(202);
    expect(res.body.error?.code).toBe(-5004);
    await sb.advanceClock(5_000);
    const after = await getOrder(id);
    expect(after.status).not.toBe('REJECTED');
    expect(after.orderId).toBe(res.body.orderId);
  });
});

describe('the fault table', () => {
  it('DELETE /sandbox/faults clears every fault', async () => {
    await fault({ route: 'POST /order', mode: 'error', count: 5, code: -5002 });
    await fault({ route: 'GET /health', mode: 'error', count: 5, code: -5002 });
    expect((await sb.control('DELETE', '/sandbox/faults')).status).toBe(204);
    expect((await sb.signedInject(trader, 'POST', '/order', { body: order() })).status).toBe(202);
    expect((await sb.get('/health')).status).toBe(200);
  });

  it.each([
    [{ route: 'GET /nowhere', mode: 'error', count: 1, code: -5002 }, /route/],
    [{ route: 'POST /order', mode: 'explode', count: 1 }, /mode/],
    [{ route: 'GET /orders', mode: 'revert', count: 1 }, /revert/],
    [{ route: 'POST /order', mode: 'error', count: 1 }, /code/],
    [{ route: 'POST /order', mode: 'error', count: 1, code: 42 }, /code/],
    [{ route: 'POST /order', mode: 'latency', count: 1 }, /ms/],
    [{ route: 'POST /order', mode: 'drop', count: 0 }, /count/],
  ])('refuses %j with 400 -1102', async (body, msg) => {
    const res = await sb.control<ErrorBody>('POST', '/sandbox/faults', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-1102);
    expect(res.body.msg).toMatch(msg);
  });
});
