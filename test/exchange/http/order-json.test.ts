/**
 * GET /orders and GET /orders/updates write each order's JSON once per change (http/order-json.ts):
 * the bytes must be those the Order schema's serializer writes (GET /order uses it), and a
 * change must show at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Credentials, type Sandbox } from '../harness.js';

type Order = { orderId: string; status: string; updatedAt: number };
type Page = { orders: Order[]; total: number; limit: number; offset: number };

const BLOCK_MS = 1000;
let sb: Sandbox;
let key: Credentials;

beforeAll(async () => {
  sb = await startSandbox({ rateLimits: false, blockMs: BLOCK_MS });
  key = await sb.newKey();
  const f = await sb.openFixture();
  for (const boost of [0, 20]) {
    const placed = await sb.signedInject(key, 'POST', '/order', {
      body: {
        orderType: 'MARKET',
        legs: [
          {
            contractId: f.contractId,
            outcome: f.homeTeam,
            side: 'BUY',
            market: 'DRAW_NO_BET',
            boost,
          },
        ],
        qty: '1',
        marketUnit: 'BASE',
        clientOrderId: `json-${boost}`,
      },
    });
    expect(placed.status).toBe(202);
  }
});
afterAll(async () => sb.close());

/** The body GET /order answers for one order: the Order schema's own serializer. */
async function single(orderId: string): Promise<string> {
  const one = await sb.signedInject(key, 'GET', '/order', { query: { orderId } });
  expect(one.status).toBe(200);
  return one.text;
}

async function expectSchemaBytes(): Promise<Page> {
  const page = await sb.signedInject<Page>(key, 'GET', '/orders', { query: { limit: 10 } });
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(page.body.orders).toHaveLength(2);
  const items = await Promise.all(page.body.orders.map((o) => single(o.orderId)));
  expect(page.text).toBe(`{"orders":[${items.join(',')}],"total":2,"limit":10,"offset":0}`);
  return page.body;
}

describe('order lists', () => {
  it('write the bytes of the Order schema, and show a change at once', async () => {
    const first = await expectSchemaBytes();
    expect(first.orders.map((o) => o.status)).toEqual(['SUBMITTED', 'SUBMITTED']);
    await expectSchemaBytes(); // the second read comes from the kept JSON
    await sb.advanceClock(BLOCK_MS + 50);
    const after = await expectSchemaBytes();
    expect(after.orders.map((o) => o.status)).toEqual(['FILLED', 'FILLED']);
    expect(after.orders[0]!.updatedAt).toBeGreaterThan(first.orders[0]!.updatedAt);
  });

  it('GET /orders/updates writes the same order bytes and its cursor', async () => {
    const updates = await sb.signedInject<{ orders: Order[]; cursor: number }>(
      key,
      'GET',
      '/orders/updates',
    );
    expect(updates.status).toBe(200);
    const items = await Promise.all(updates.body.orders.map((o) => single(o.orderId)));
    expect(items).toHaveLength(2);
    expect(updates.text).toBe(`{"orders":[${items.join(',')}],"cursor":${updates.body.cursor}}`);
  });

  it('a failed read still answers {code, msg}', async () => {
    const bad = await sb.signedInject<{ code: number; msg: string }>(key, 'GET', '/orders', {
      query: { limit: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(-1102);
    expect(bad.body.msg).toMatch(/^limit: /);
  });
});
