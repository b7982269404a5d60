/** docs/api.md 8.1: the per-IP cap, the wallet buckets, the price-feed budget, in that order. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_LIMITS, IP_LIMIT } from '../../../src/shared/api/limits.js';
import { startSandbox, type Sandbox } from '../harness.js';

type ErrorBody = { code: number; msg: string };

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => sb.close());

/** Every test uses its own address, so the per-IP cap of one does not leak into another. */
let ipCounter = 0;
const freshIp = () => `10.20.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

async function openContract(): Promise<{ contractId: string; homeTeam: string; awayTeam: string }> {
  const res = await sb.app.inject({
    url: '/fixtures?bettingOpen=true&limit=1',
    remoteAddress: freshIp(),
  });
  const f = res.json<{ fixtures: { contractId: string; homeTeam: string; awayTeam: string }[] }>()
    .fixtures[0];
  if (!f) throw new Error('no open fixture');
  return f;
}

describe('wallet buckets', () => {
  it('answers 429 -1003 with Retry-After once the reads burst is spent', async () => {
    const key = await sb.newKey({ permission: 'read' });
    const ip = freshIp();
    const burst = GROUP_LIMITS.reads.burst;
    for (let i = 0; i < burst; i++) {
      const res = await sb.signedInject(key, 'GET', '/orders', { remoteAddress: ip });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(burst));
      expect(res.headers['x-ratelimit-remaining']).toBe(String(burst - 1 - i));
    }
    const res = await sb.signedInject<ErrorBody>(key, 'GET', '/orders', { remoteAddress: ip });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe(-1003);
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(res.headers['x-ratelimit-limit']).toBe(String(burst));
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('gives Retry-After as whole seconds until the next token (positions: 3 s)', async () => {
    const key = await sb.newKey({ permission: 'read' });
    const ip = freshIp();
    for (let i = 0; i < GROUP_LIMITS.positions.burst; i++) {
      expect((await sb.signedInject(key, 'GET', '/positions', { remoteAddress: ip })).status).toBe(
        200,
      );
    }
    const res = await sb.signedInject(key, 'GET', '/positions', { remoteAddress: ip });
    expect(res.status).toBe(429);
    // 20 per minute: one token every 3 s.
    expect(Number(res.headers['retry-after'])).toBe(3);
  });

  it('refills on the exchange clock', async () => {
    const key = await sb.newKey({ permission: 'read' });
    const ip = freshIp();
    for (let i = 0; i < GROUP_LIMITS.quotes.burst; i++) {
      await sb.signedInject(key, 'GET', '/orders', { remoteAddress: ip });
    }
    expect((await sb.signedInject(key, 'GET', '/orders', { remoteAddress: ip })).status).toBe(429);
    await sb.advanceClock(60_000);
    const res = await sb.signedInject(key, 'GET', '/orders', { remoteAddress: ip });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(GROUP_LIMITS.reads.burst - 1));
  });

  it('keeps each wallet and each group in its own bucket', async () => {
    const a = await sb.newKey({ permission: 'read' });
    const b = await sb.newKey({ permission: 'read' });
    const ip = freshIp();
    for (let i = 0; i < GROUP_LIMITS.reads.burst; i++) {
      await sb.signedInject(a, 'GET', '/orders', { remoteAddress: ip });
    }
    expect((await sb.signedInject(a, 'GET', '/orders', { remoteAddress: ip })).status).toBe(429);
    expect((await sb.signedInject(b, 'GET', '/orders', { remoteAddress: ip })).status).toBe(200);
    // Same wallet, another group.
    expect((await sb.signedInject(a, 'GET', '/positions', { remoteAddress: ip })).status).toBe(200);
  });

  it('shares a bucket between two keys of one wallet', async () => {
    const a = await sb.newKey({ permission: 'read' });
    const b = await sb.newKey({ permission: 'read', wallet: a.wallet });
    const ip = freshIp();
    for (let i = 0; i < GROUP_LIMITS.reads.burst; i++) {
      await sb.signedInject(i % 2 === 0 ? a : b, 'GET', '/settlements', { remoteAddress: ip });
    }
    expect(
      (await sb.signedInject(b, 'GET', '/order', { query: { orderId: '0x1' }, remoteAddress: ip }))
        .status,
    ).toBe(429);
  });

  it('charges rejected requests: business refusals and malformed bodies spend order quota', async () => {
    const key = await sb.newKey({ permission: 'trade' });
    const ip = freshIp();
    const f = await openContract();
    // Selling what is not held: refused by the exchange (-2029), after the bucket.
    const sell = {
      orderType: 'MARKET',
      legs: [
        { contractId: f.contractId, outcome: f.homeTeam, side: 'SELL', market: 'DRAW_NO_BET' },
      ],
      qty: '1',
      marketUnit: 'BASE',
    };
    const first = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: sell,
      remoteAddress: ip,
    });
    expect(first.status).toBeGreaterThanOrEqual(400);
    expect(first.status).toBeLessThan(500);
    expect(first.headers['x-ratelimit-remaining']).toBe(String(GROUP_LIMITS.orders.burst - 1));
    const malformed = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: { orderType: 'MARKET', qty: 10 },
      remoteAddress: ip,
    });
    expect(malformed.body.code).toBe(-1102);
    expect(malformed.headers['x-ratelimit-remaining']).toBe(String(GROUP_LIMITS.orders.burst - 2));
    for (let i = 2; i < GROUP_LIMITS.orders.burst; i++) {
      await sb.signedInject(key, 'POST', '/order', { body: sell, remoteAddress: ip });
    }
    const res = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: sell,
      remoteAddress: ip,
    });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe(-1003);
  });

  it('charges an order refused for holding the opposite outcome (-2030)', async () => {
    const key = await sb.newKey({ permission: 'trade' });
    const ip = freshIp();
    const f = await openContract();
    const buy = (outcome: string) => ({
      orderType: 'MARKET',
      legs: [{ contractId: f.contractId, outcome, side: 'BUY', market: 'DRAW_NO_BET' }],
      qty: '5',
      marketUnit: 'BASE',
    });
    const placed = await sb.signedInject(key, 'POST', '/order', {
      body: buy(f.homeTeam),
      remoteAddress: ip,
    });
    expect(placed.status).toBe(202);
    await sb.advanceClock(5_000); // the block arrives: the home position is held
    const refused = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: buy(f.awayTeam),
      remoteAddress: ip,
    });
    expect(refused.body.code).toBe(-2030);
    // 10 burst, 2 spent, plus the refill of 5 s at 1 per second, capped at the burst.
    expect(Number(refused.headers['x-ratelimit-remaining'])).toBeLessThan(
      GROUP_LIMITS.orders.burst,
    );
  });

  it('does not charge a wallet for requests that fail authentication', async () => {
    const key = await sb.newKey({ permission: 'read' });
    const ip = freshIp();
    for (let i = 0; i < 15; i++) {
      const bad = await sb.signedInject<ErrorBody>({ ...key, secret: 'wrong' }, 'GET', '/orders', {
        remoteAddress: ip,
      });
      expect(bad.body.code).toBe(-1022);
      expect(bad.headers['x-ratelimit-limit']).toBe(String(GROUP_LIMITS.reads.burst));
      expect(bad.headers['x-ratelimit-remaining']).toBe(String(GROUP_LIMITS.reads.burst));
    }
    const res = await sb.signedInject(key, 'GET', '/orders', { remoteAddress: ip });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(GROUP_LIMITS.reads.burst - 1));
  });
});

describe('fixtures bucket', () => {
  it('is keyed by the caller address', async () => {
    const a = freshIp();
    const b = freshIp();
    const burst = GROUP_LIMITS.fixtures.burst;
    for (let i = 0; i < burst; i++) {
      const res = await sb.app.inject({ url: '/fixtures?limit=1', remoteAddress: a });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(burst - 1 - i));
    }
    const refused = await sb.app.inject({ url: '/fixtures?limit=1', remoteAddress: a });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: -1003 });
    expect(refused.headers['retry-after']).toBe('1');
    const other = await sb.app.inject({ url: '/fixtures?limit=1', remoteAddress: b });
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe(String(burst - 1));
  });

  it('charges malformed queries too', async () => {
    const ip = freshIp();
    const res = await sb.app.inject({ url: '/fixtures?limit=500', remoteAddress: ip });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(GROUP_LIMITS.fixtures.burst - 1));
  });
});

describe('per-IP cap', () => {
  /**
   * Sends unsigned requests from `ip` until the cap refuses one. The cap refills in real time
   * too (100 per second), so a drain counts the requests it took rather than assuming 200.
   */
  async function drain(
    ip: string,
    refusal?: (res: { headers: Record<string, unknown>; body: string }) => void,
  ): Promise<number> {
    for (let sent = 0; sent < 5 * IP_LIMIT.burst; sent++) {
      const url = ['/health', '/time', '/'][sent % 3] ?? '/';
      const res = await sb.app.inject({ url, remoteAddress: ip });
      if (res.statusCode === 429) {
        refusal?.({ headers: res.headers, body: res.body });
        return sent;
      }
      expect(res.statusCode).toBe(200);
    }
    throw new Error('the per-IP cap never refused');
  }

  it('applies to /, /health and /time and refuses with 429 once the burst is spent', async () => {
    const ip = freshIp();
    let refusal: { headers: Record<string, unknown>; body: string } | undefined;
    expect(await drain(ip, (r) => (refusal = r))).toBeGreaterThanOrEqual(IP_LIMIT.burst);
    expect(JSON.parse(refusal?.body ?? '{}')).toMatchObject({ code: -1003 });
    expect(refusal?.headers['retry-after']).toBe('1');
  });

  it('is checked before the wallet bucket, which stays untouched', async () => {
    const key = await sb.newKey({ permission: 'read' });
    const ip = freshIp();
    let charged = 0;
    let refused: Awaited<ReturnType<typeof sb.signedInject<ErrorBody>>> | undefined;
    // A token may trickle back between the drain and the signed request; then drain again.
    for (let attempt = 0; attempt < 5 && !refused; attempt++) {
      await drain(ip);
      const res = await sb.signedInject<ErrorBody>(key, 'GET', '/orders', { remoteAddress: ip });
      if (res.status === 429) refused = res;
      else charged++;
    }
    expect(refused?.body.code).toBe(-1003);
    expect(refused?.body.msg).toMatch(/from 10\.20\./);
    expect(refused?.headers['x-ratelimit-remaining']).toBe(String(GROUP_LIMITS.reads.burst));
    const elsewhere = await sb.signedInject(key, 'GET', '/orders', { remoteAddress: freshIp() });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers['x-ratelimit-remaining']).toBe(
      String(GROUP_LIMITS.reads.burst - 1 - charged),
    );
  });

  it('refills at 100 per second on the exchange clock', async () => {
    const ip = freshIp();
    await drain(ip);
    await sb.advanceClock(1_000);
    expect(await drain(ip)).toBeGreaterThanOrEqual(IP_LIMIT.perSecond);
  });

  it('does not apply to the control API', async () => {
    const ip = freshIp();
    await drain(ip);
    const res = await sb.app.inject({
      method: 'POST',
      url: '/sandbox/wallets',
      headers: { authorization: `Bearer ${sb.adminToken}` },
      remoteAddress: ip,
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('price-feed budget', () => {
  let small: Sandbox;
  beforeAll(async () => {
    small = await startSandbox({ priceBudget: 30 });
  });
  afterAll(async () => small.close());

  it('answers 503 -1003 with Retry-After when the shared budget is spent, after the wallet bucket', async () => {
    const key = await small.newKey({ permission: 'read' });
    const first = await small.signedInject(key, 'GET', '/positions'); // costs 28 of 30
    expect(first.status).toBe(200);
    const second = await small.signedInject<ErrorBody>(key, 'GET', '/positions');
    expect(second.status).toBe(503);
    expect(second.body.code).toBe(-1003);
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The wallet bucket was checked first and still spent.
    expect(second.headers['x-ratelimit-remaining']).toBe(String(GROUP_LIMITS.positions.burst - 2));
  });

  it('is shared between wallets and costs nothing for plain reads', async () => {
    await small.advanceClock(10_000);
    const a = await small.newKey({ permission: 'read' });
    const b = await small.newKey({ permission: 'read' });
    expect((await small.signedInject(a, 'GET', '/positions')).status).toBe(200);
    expect((await small.signedInject(b, 'GET', '/positions')).status).toBe(503);
    expect((await small.signedInject(b, 'GET', '/orders')).status).toBe(200);
  });
});

describe('--no-rate-limits', () => {
  it('turns every limit off', async () => {
    const free = await startSandbox({ rateLimits: false });
    try {
      const key = await free.newKey({ permission: 'read' });
      for (let i = 0; i < 30; i++) {
        const res = await free.signedInject(key, 'GET', '/positions');
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
      for (let i = 0; i < IP_LIMIT.burst + 20; i++) {
        expect((await free.app.inject({ url: '/health' })).statusCode).toBe(200);
      }
    } finally {
      await free.close();
    }
  });
});

describe('token bucket property', () => {
  it('never accepts more than burst + rate x elapsed time, whatever the request times', async () => {
    const { burst, perMinute } = GROUP_LIMITS.reads;
    const steps = fc.array(
      fc.record({
        advanceMs: fc.integer({ min: 0, max: 7_000 }),
        requests: fc.integer({ min: 0, max: 14 }),
      }),
      { minLength: 1, maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const key = await sb.newKey({ permission: 'read' });
        const ip = freshIp();
        const start = sb.now();
        let accepted = 0;
        let sent = 0;
        for (const step of plan) {
          if (step.advanceMs > 0) await sb.advanceClock(step.advanceMs);
          for (let i = 0; i < step.requests; i++) {
            sent++;
            const res = await sb.signedInject(key, 'GET', '/orders/updates', { remoteAddress: ip });
            if (res.status === 200) accepted++;
            else expect(res.status).toBe(429);
          }
        }
        const elapsedS = (sb.now() - start) / 1000;
        expect(accepted).toBeLessThanOrEqual(burst + (perMinute / 60) * elapsedS + 1e-9);
        expect(accepted).toBeGreaterThanOrEqual(Math.min(sent, burst));
      }),
      { numRuns: 25 },
    );
  });
});
