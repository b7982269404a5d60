/**
 * The sandbox as Betdesk starts it inside itself (paper mode, `embedded`): no served
 * documentation, and route schemas compiled on first use. Everything else answers as the
 * standalone sandbox does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Credentials, type Sandbox } from '../harness.js';

let standalone: Sandbox;
let embedded: Sandbox;
let keys: Map<Sandbox, Credentials>;

beforeAll(async () => {
  [standalone, embedded] = await Promise.all([
    startSandbox({ rateLimits: false }),
    startSandbox({ rateLimits: false, embedded: true }),
  ]);
  keys = new Map([
    [standalone, await standalone.newKey({ permission: 'trade' })],
    [embedded, await embedded.newKey({ permission: 'trade' })],
  ]);
});
afterAll(async () => Promise.all([standalone.close(), embedded.close()]));

/** The value with every leaf replaced by its type: what the response schema decides. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  }
  return value === null ? 'null' : typeof value;
}

describe('the embedded sandbox', () => {
  it.each(['/docs', '/openapi.yaml', '/swagger'])('serves no %s', async (path) => {
    expect((await standalone.get(path)).status).toBe(200);
    expect((await embedded.get(path)).status).toBe(404);
  });

  it('answers a read with the same fields and types', async () => {
    const path = '/fixtures?limit=3';
    const [a, b] = [await standalone.get(path), await embedded.get(path)];
    expect(b.status).toBe(200);
    expect((b.body as { fixtures: unknown[] }).fixtures).toHaveLength(3);
    expect(shape(b.body)).toEqual(shape(a.body));
  });

  it.each([
    ['GET', '/orders', { query: { limit: 'ten' } }],
    ['GET', '/positions', { query: { status: 'SOMETIMES' } }],
    ['POST', '/order/rfq', { body: { legs: [], qty: 10, marketUnit: 'BASE' } }],
  ] as const)('refuses a bad %s %s as the standalone one does', async (method, path, opts) => {
    const answer = async (sb: Sandbox) => {
      const res = await sb.signed(keys.get(sb)!, method, path, opts);
      return { status: res.status, body: res.body };
    };
    const expected = await answer(standalone);
    expect(expected.status).toBe(400);
    expect(await answer(embedded)).toEqual(expected);
  });
});
