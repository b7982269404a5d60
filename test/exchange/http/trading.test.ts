/** The trading rules of docs/api.md 2 to 4, end to end through HTTP against the real sandbox. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Credentials, type HttpAnswer, type Sandbox } from '../harness.js';

type ErrorBody = { code: number; msg: string };
type Quote = {
  rfqId: string;
  reqId: string;
  contracts: number;
  isOpen: boolean;
  entryPrice: string;
  indexPrice: string;
  cost?: string;
  maxWin?: string;
  exitValue?: string;
  knockout?: string;
  minContracts: number;
  exchangeCapacity?: number;
  expiresAt: number;
};
type Order = {
  orderId: string;
  clientOrderId: string;
  contractId: string;
  outcome: string;
  side: string;
  status: string;
  contracts: number;
  entryPrice: string;
  cost: string;
  maxWin: string;
  knockout?: string;
  deadline: number;
  tx: string;
  error?: ErrorBody;
  rfqId?: string;
  updatedAt: number;
};
type Position = {
  contractId: string;
  outcome: string;
  contracts: number;
  entryPrice: string;
  boosted: boolean;
  knockout?: string;
  costBasis: string;
  value: string;
  pnl: string;
  maxPayout: string;
};
type Settlement = {
  type: string;
  contractId: string;
  outcome: string;
  contracts: number;
  payout?: string;
  price?: string;
  pnl?: string;
  tx: string;
  timestamp: string;
};
type Fixture = { contractId: string; homeTeam: string; awayTeam: string };

const BLOCK_MS = 1000;
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ rateLimits: false, blockMs: BLOCK_MS });
});
afterAll(async () => sb.close());

let teamSeq = 0;
/** A fresh fixture at a known price, so tests do not share markets. */
async function market(homePrice = '0.5'): Promise<Fixture> {
  const n = teamSeq++;
  const code = (i: number) => String.fromCharCode(65 + (Math.floor(n / 26 ** i) % 26));
  const res = await sb.control<Fixture>('POST', '/sandbox/fixtures', {
    homeTeam: `H${code(1)}${code(0)}`,
    awayTeam: `A${code(1)}${code(0)}`,
    league: 'Trading',
  });
  expect(res.status).toBe(201);
  await sb.control('POST', `/sandbox/fixtures/${res.body.contractId}/price`, {
    outcome: res.body.homeTeam,
    indexPrice: homePrice,
  });
  return res.body;
}

const leg = (f: Fixture, outcome: string, side = 'BUY', boost?: number) => ({
  contractId: f.contractId,
  outcome,
  side,
  market: 'DRAW_NO_BET',
  ...(boost !== undefined ? { boost } : {}),
});

async function quote(key: Credentials, body: Record<string, unknown>): Promise<HttpAnswer<Quote>> {
  return sb.signedInject<Quote>(key, 'POST', '/order/rfq', { body });
}
async function place(key: Credentials, body: Record<string, unknown>): Promise<HttpAnswer<Order>> {
  return sb.signedInject<Order>(key, 'POST', '/order', { body });
}
async function getOrder(key: Credentials, query: Record<string, string>): Promise<Order> {
  const res = await sb.signedInject<Order>(key, 'GET', '/order', { query });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
async function positions(
  key: Credentials,
  query: Record<string, string> = {},
): Promise<Position[]> {
  const res = await sb.signedInject<{ positions: Position[] }>(key, 'GET', '/positions', { query });
  expect(res.status, res.text).toBe(200);
  return res.body.positions;
}
async function settlements(key: Credentials): Promise<Settlement[]> {
  const res = await sb.signedInject<{ settlements: Settlement[] }>(key, 'GET', '/settlements');
  expect(res.status, res.text).toBe(200);
  return res.body.settlements;
}
const nextBlock = () => sb.advanceClock(BLOCK_MS + 50);

describe('quote -> FOK -> FILLED (2.3, 2.4, 4.3, 4.4)', () => {
  it('fills exactly the quoted contracts at the locked price after the block', async () => {
    const key = await sb.newKey();
    const f = await market();
    const q = await quote(key, {
      legs: [leg(f, f.homeTeam)],
      qty: '10',
      marketUnit: 'BASE',
      orderType: 'FOK',
    });
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ isOpen: true, contracts: 10, reqId: '' });
    expect(Number(q.body.entryPrice)).toBeGreaterThan(Number(q.body.indexPrice));
    expect(q.body.cost).toBeDefined();
    expect(q.body.maxWin).toBeDefined();
    expect(Number(q.body.exitValue)).toBeLessThan(Number(q.body.cost));
    expect(q.body.knockout).toBeUndefined();

    const placed = await place(key, { orderType: 'FOK', rfqId: q.body.rfqId });
    expect(placed.status).toBe(202);
    expect(placed.body).toMatchObject({
      status: 'SUBMITTED',
      contracts: 10,
      entryPrice: q.body.entryPrice,
      side: 'BUY',
    });
    expect(placed.body.clientOrderId).toBe(placed.body.rfqId ?? q.body.rfqId);
    expect(placed.body.orderId).toMatch(/^0x[0-9a-f]+$/);

    await nextBlock();
    const filled = await getOrder(key, { orderId: placed.body.orderId });
    expect(filled.status).toBe('FILLED');
    expect(filled.contracts).toBe(10);
    expect(filled.tx).not.toBe('');

    const held = await positions(key);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({
      contractId: f.contractId,
      outcome: f.homeTeam,
      contracts: 10,
      boosted: false,
    });
  });

  it('echoes clientOrderId as reqId and keeps it as the order id when sent', async () => {
    const key = await sb.newKey();
    const f = await market();
    const q = await quote(key, {
      legs: [leg(f, f.homeTeam)],
      qty: '3',
      marketUnit: 'BASE',
      clientOrderId: 'my-bet:1',
    });
    expect(q.body.reqId).toBe('my-bet:1');
    const placed = await place(key, {
      orderType: 'FOK',
      rfqId: q.body.rfqId,
      clientOrderId: 'my-bet:1',
    });
    expect(placed.status).toBe(202);
    expect((await getOrder(key, { clientOrderId: 'my-bet:1' })).orderId).toBe(placed.body.orderId);
  });

  it('is CANCELED when the market moved so that the locked price can no longer fill', async () => {
    const key = await sb.newKey();
    const f = await market('0.4');
    const q = await quote(key, { legs: [leg(f, f.homeTeam)], qty: '5', marketUnit: 'BASE' });
    const placed = await place(key, { orderType: 'FOK', rfqId: q.body.rfqId });
    expect(placed.status).toBe(202);
    await sb.control('POST', `/sandbox/fixtures/${f.contractId}/price`, {
      outcome: f.homeTeam,
      indexPrice: '0.8',
    });
    await nextBlock();
    expect((await getOrder(key, { orderId: placed.body.orderId })).status).toBe('CANCELED');
  });

  it('executes a quote at most once (-2027), only before it lapses (-2031), only for its wallet (-2022)', async () => {
    const key = await sb.newKey();
    const other = await sb.newKey();
    const f = await market();
    const q1 = await quote(key, { legs: [leg(f, f.homeTeam)], qty: '2', marketUnit: 'BASE' });
    expect((await place(key, { orderType: 'FOK', rfqId: q1.body.rfqId })).status).toBe(202);
    const again = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: { orderType: 'FOK', rfqId: q1.body.rfqId },
    });
    expect(again.body.code).toBe(-2027);
    expect(again.status).toBe(409);

    const q2 = await quote(key, { legs: [leg(f, f.homeTeam)], qty: '2', marketUnit: 'BASE' });
    const stolen = await sb.signedInject<ErrorBody>(other, 'POST', '/order', {
      body: { orderType: 'FOK', rfqId: q2.body.rfqId },
    });
    expect(stolen.body.code).toBe(-2022);

    await sb.advanceClock(31_000);
    const late = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: { orderType: 'FOK', rfqId: q2.body.rfqId },
    });
    expect(late.body.code).toBe(-2031);
    expect(late.status).toBe(410);

    const unknown = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: { orderType: 'FOK', rfqId: 'nope' },
    });
    expect(unknown.body.code).toBe(-2022);
  });

  it('refuses qty or legs beside an rfqId, and a FOK without one (-1102)', async () => {
    const key = await sb.newKey();
    const f = await market();
    const q = await quote(key, { legs: [leg(f, f.homeTeam)], qty: '2', marketUnit: 'BASE' });
    const both = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: { orderType: 'FOK', rfqId: q.body.rfqId, qty: '2' },
    });
    expect(both.body.code).toBe(-1102);
    const noQuote = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: { orderType: 'FOK', legs: [leg(f, f.homeTeam)], qty: '2', marketUnit: 'BASE' },
    });
    expect(noQuote.body.code).toBe(-1102);
    expect(noQuote.body.msg).toMatch(/rfqId/);
  });
});

describe('MARKET orders', () => {
  it('places an inline bet without a quote and fills it after the block', async () => {
    const key = await sb.newKey();
    const f = await market();
    const placed = await place(key, {
      orderType: 'market',
      legs: [leg(f, f.awayTeam.toLowerCase(), 'buy')],
      qty: '4',
      marketUnit: 'base',
    });
    expect(placed.status).toBe(202);
    expect(placed.body).toMatchObject({
      status: 'SUBMITTED',
      outcome: f.awayTeam,
      side: 'BUY',
      contractId: f.contractId,
    });
    await nextBlock();
    const filled = await getOrder(key, { orderId: placed.body.orderId });
    expect(filled.status).toBe('FILLED');
    expect(filled.contracts).toBe(4);
  });

  it('keeps a dollar-sized bet within its cap', async () => {
    const key = await sb.newKey();
    const f = await market('0.3');
    const q = await quote(key, { legs: [leg(f, f.homeTeam)], qty: '25', marketUnit: 'QUOTE' });
    expect(q.status).toBe(200);
    expect(Number(q.body.cost)).toBeLessThanOrEqual(25);
    const placed = await place(key, {
      orderType: 'MARKET',
      legs: [leg(f, f.homeTeam)],
      qty: '25',
      marketUnit: 'QUOTE',
    });
    expect(placed.status).toBe(202);
    await nextBlock();
    const filled = await getOrder(key, { orderId: placed.body.orderId });
    expect(filled.status).toBe('FILLED');
    expect(Number(filled.cost)).toBeLessThanOrEqual(25);
  });

  it('refuses a dollar-sized close (QUOTE on SELL) with -1102', async () => {
    const key = await sb.newKey();
    const f = await market();
    const res = await sb.signedInject<ErrorBody>(key, 'POST', '/order/rfq', {
      body: { legs: [leg(f, f.homeTeam, 'SELL')], qty: '5', marketUnit: 'QUOTE' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.code).toBe(-1102);
  });
});

describe('clientOrderId (2.2, 3)', () => {
  it('returns the order already placed when the same clientOrderId is resent', async () => {
    const key = await sb.newKey();
    const f = await market();
    const body = {
      orderType: 'MARKET',
      legs: [leg(f, f.homeTeam)],
      qty: '2',
      marketUnit: 'BASE',
      clientOrderId: 'idem-1',
    };
    const first = await place(key, body);
    const second = await place(key, body);
    expect(first.status).toBe(202);
    expect(second.body.orderId).toBe(first.body.orderId);
    const list = await sb.signedInject<{ orders: Order[]; total: number }>(key, 'GET', '/orders');
    expect(list.body.total).toBe(1);
  });

  it('is spent even when the order fails: a retry with it returns the failed order', async () => {
    const key = await sb.newKey();
    const f = await market('0.4');
    const q = await quote(key, { legs: [leg(f, f.homeTeam)], qty: '2', marketUnit: 'BASE' });
    const placed = await place(key, {
      orderType: 'FOK',
      rfqId: q.body.rfqId,
      clientOrderId: 'spent-1',
    });
    await sb.control('POST', `/sandbox/fixtures/${f.contractId}/price`, {
      outcome: f.homeTeam,
      indexPrice: '0.9',
    });
    await nextBlock();
    expect((await getOrder(key, { clientOrderId: 'spent-1' })).status).toBe('CANCELED');
    const retry = await place(key, {
      orderType: 'MARKET',
      legs: [leg(f, f.homeTeam)],
      qty: '2',
      marketUnit: 'BASE',
      clientOrderId: 'spent-1',
    });
    expect(retry.body.orderId).toBe(placed.body.orderId);
  });

  it('belongs to its wallet: another wallet may use the same clientOrderId', async () => {
    const a = await sb.newKey();
    const b = await sb.newKey();
    const f = await market();
    const body = {
      orderType: 'MARKET',
      legs: [leg(f, f.homeTeam)],
      qty: '1',
      marketUnit: 'BASE',
      clientOrderId: 'shared-id',
    };
    const pa = await place(a, body);
    const pb = await place(b, body);
    expect(pb.status).toBe(202);
    expect(pb.body.orderId).not.toBe(pa.body.orderId);
  });
});

describe('closing and conflicts (2.3, 7.3)', () => {
  it('refuses to sell what is not held (-2029) and to bet against a held outcome (-2030)', async () => {
    const key = await sb.newKey();
    const f = await market();
    const sell = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: {
        orderType: 'MARKET',
        legs: [leg(f, f.homeTeam, 'SELL')],
        qty: '1',
        marketUnit: 'BASE',
      },
    });
    expect(sell.body.code).toBe(-2029);
    expect(sell.status).toBe(409);
    await place(key, {
      orderType: 'MARKET',
      legs: [leg(f, f.homeTeam)],
      qty: '3',
      marketUnit: 'BASE',
    });
    await nextBlock();
    const opposite = await sb.signedInject<ErrorBody>(key, 'POST', '/order/rfq', {
      body: { legs: [leg(f, f.awayTeam)], qty: '1', marketUnit: 'BASE' },
    });
    expect(opposite.body.code).toBe(-2030);
  });

  it('quotes a close of more than held as the full position, without open-only fields', async () => {
    const key = await sb.newKey();
    const f = await market();
    await place(key, {
      orderType: 'MARKET',
      legs: [leg(f, f.homeTeam)],
      qty: '6',
      marketUnit: 'BASE',
    });
    await nextBlock();
    const q = await quote(key, {
      legs: [leg(f, f.homeTeam, 'SELL')],
      qty: '50',
      marketUnit: 'BASE',
    });
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ isOpen: false, contracts: 6 });
    for (const field of ['cost', 'maxWin', 'exitValue', 'exchangeCapacity', 'knockout']) {
      expect(q.body, field).not.toHaveProperty(field);
    }
    const sold = await place(key, { orderType: 'FOK', rfqId: q.body.rfqId });
    expect(sold.status).toBe(202);
    await nextBlock();
    expect(await positions(key)).toEqual([]);
    const rows = await settlements(key);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'CLOSED',
      contractId: f.contractId,
      outcome: f.homeTeam,
      contracts: 6,
    });
    expect(rows[0]).toHaveProperty('price');
    expect(rows[0]).toHaveProperty('pnl');
    expect(rows[0]).not.toHaveProperty('payout');
    expect(new Date(rows[0]!.timestamp).toISOString()).toBe(rows[0]!.timestamp);
  });

  it('refuses a boost on a SELL with -1102', async () => {
    const key = await sb.newKey();
    const f = await market();
    const res = await sb.signedInject<ErrorBody>(key, 'POST', '/order/rfq', {
      body: { legs: [leg(f, f.homeTeam, 'SELL', 10)], qty: '1', marketUnit: 'BASE' },
    });
    expect(res.body.code).toBe(-1102);
  });

  it('answers an unknown contract with -1121 and a closed market with 503 -2019', async () => {
    const key = await sb.newKey();
    const unknown = await sb.signedInject<ErrorBody>(key, 'POST', '/order/rfq', {
      body: {
        legs: [{ contractId: 'NO-SUCH', outcome: 'XX', side: 'BUY', market: 'DRAW_NO_BET' }],
        qty: '1',
        marketUnit: 'BASE',
      },
    });
    expect(unknown.body.code).toBe(-1121);
    const f = await market();
    await sb.control('POST', `/sandbox/fixtures/${f.contractId}/close`);
    const closed = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: { orderType: 'MARKET', legs: [leg(f, f.homeTeam)], qty: '1', marketUnit: 'BASE' },
    });
    expect(closed.status).toBe(503);
    expect(closed.body.code).toBe(-2019);
  });
});

describe('boost, knockout and settlement (2.6, 2.7)', () => {
  it('gives a boosted bet a knockout; reaching it knocks the position out', async () => {
    const key = await sb.newKey();
    const f = await market('0.6');
    const q = await quote(key, {
      legs: [leg(f, f.homeTeam, 'BUY', 50)],
      qty: '10',
      marketUnit: 'BASE',
    });
    expect(q.body.knockout).toBeDefined();
    expect(Number(q.body.knockout)).toBeLessThan(Number(q.body.entryPrice));
    await place(key, { orderType: 'FOK', rfqId: q.body.rfqId });
    await nextBlock();
    const [pos] = await positions(key);
    expect(pos).toMatchObject({ boosted: true, contracts: 10 });
    expect(pos?.knockout).toBeDefined();
    const hit = await sb.control<{ knockedOut: number }>(
      'POST',
      `/sandbox/fixtures/${f.contractId}/price`,
      {
        outcome: f.homeTeam,
        indexPrice: pos!.knockout,
      },
    );
    expect(hit.body.knockedOut).toBe(1);
    expect(await positions(key)).toEqual([]);
    const [row] = await settlements(key);
    expect(row).toMatchObject({ type: 'KNOCKED_OUT', contracts: 10 });
    expect(row).not.toHaveProperty('payout');
  });

  it('settles a held bet when the game resolves: a SETTLEMENT row with payout', async () => {
    const key = await sb.newKey();
    const f = await market();
    await place(key, {
      orderType: 'MARKET',
      legs: [leg(f, f.homeTeam)],
      qty: '7',
      marketUnit: 'BASE',
    });
    await nextBlock();
    await sb.control('POST', `/sandbox/fixtures/${f.contractId}/close`);
    const resolved = await sb.control('POST', `/sandbox/fixtures/${f.contractId}/resolve`, {
      winner: f.homeTeam,
    });
    expect(resolved.status).toBe(200);
    expect(await positions(key)).toEqual([]);
    const [row] = await settlements(key);
    expect(row).toMatchObject({ type: 'SETTLEMENT', contracts: 7 });
    expect(row?.payout).toMatch(/^7(\.0+)?$/);
    expect(row).not.toHaveProperty('price');
    expect(row).not.toHaveProperty('pnl');
  });
});

describe('reading orders (4.5 - 4.7)', () => {
  it('GET /order finds by orderId or clientOrderId and answers 404 -2025 otherwise', async () => {
    const key = await sb.newKey();
    const f = await market();
    const placed = await place(key, {
      orderType: 'MARKET',
      legs: [leg(f, f.homeTeam)],
      qty: '1',
      marketUnit: 'BASE',
      clientOrderId: 'find-me',
    });
    expect((await getOrder(key, { orderId: placed.body.orderId })).clientOrderId).toBe('find-me');
    expect((await getOrder(key, { clientOrderId: 'find-me' })).orderId).toBe(placed.body.orderId);
    const missing = await sb.signedInject<ErrorBody>(key, 'GET', '/order', {
      query: { clientOrderId: 'nope' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(-2025);
    const other = await sb.newKey();
    const foreign = await sb.signedInject<ErrorBody>(other, 'GET', '/order', {
      query: { orderId: placed.body.orderId },
    });
    expect(foreign.body.code).toBe(-2025);
  });

  it('GET /orders lists newest first, filters by status, and pages', async () => {
    const key = await sb.newKey();
    const f = await market();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await place(key, {
        orderType: 'MARKET',
        legs: [leg(f, f.homeTeam)],
        qty: '1',
        marketUnit: 'BASE',
      });
      ids.push(p.body.orderId);
      await sb.advanceClock(5);
    }
    const all = await sb.signedInject<{
      orders: Order[];
      total: number;
      limit: number;
      offset: number;
    }>(key, 'GET', '/orders', { query: { limit: 2 } });
    expect(all.body.total).toBe(5);
    expect(all.body.orders.map((o) => o.orderId)).toEqual([ids[4], ids[3]]);
    const page3 = await sb.signedInject<{ orders: Order[] }>(key, 'GET', '/orders', {
      query: { limit: 2, offset: 4 },
    });
    expect(page3.body.orders.map((o) => o.orderId)).toEqual([ids[0]]);
    const submitted = await sb.signedInject<{ total: number }>(key, 'GET', '/orders', {
      query: { status: 'SUBMITTED' },
    });
    expect(submitted.body.total).toBe(5);
    await nextBlock();
    const filled = await sb.signedInject<{ total: number }>(key, 'GET', '/orders', {
      query: { status: 'FILLED' },
    });
    expect(filled.body.total).toBe(5);
  });

  it('GET /orders/updates returns everything first, then only changes, with a cursor that always advances', async () => {
    const key = await sb.newKey();
    const f = await market();
    const placed = await place(key, {
      orderType: 'MARKET',
      legs: [leg(f, f.homeTeam)],
      qty: '1',
      marketUnit: 'BASE',
    });
    const first = await sb.signedInject<{ orders: Order[]; cursor: number }>(
      key,
      'GET',
      '/orders/updates',
    );
    expect(first.body.orders.map((o) => o.orderId)).toEqual([placed.body.orderId]);
    await sb.advanceClock(10);
    const quiet = await sb.signedInject<{ orders: Order[]; cursor: number }>(
      key,
      'GET',
      '/orders/updates',
      { query: { since: first.body.cursor } },
    );
    expect(quiet.body.orders).toEqual([]);
    expect(quiet.body.cursor).toBeGreaterThan(first.body.cursor);
    await nextBlock();
    const changed = await sb.signedInject<{ orders: Order[]; cursor: number }>(
      key,
      'GET',
      '/orders/updates',
      { query: { since: quiet.body.cursor } },
    );
    expect(changed.body.orders.map((o) => [o.orderId, o.status])).toEqual([
      [placed.body.orderId, 'FILLED'],
    ]);
    const replay = await sb.signedInject<{ orders: Order[] }>(key, 'GET', '/orders/updates', {
      query: { since: 0 },
    });
    expect(replay.status).toBe(200);
    expect(replay.body.orders.length).toBeGreaterThanOrEqual(1);
  });
});
