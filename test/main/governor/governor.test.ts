import { describe, expect, it } from 'vitest';
import {
  GovernorClosedError,
  Priority,
  RateGovernor,
  type GovernorOptions,
} from '../../../src/main/governor/index.js';
import { GROUP_LIMITS } from '../../../src/shared/api/limits.js';
import { ManualTime, settle } from '../../harness/manual-time.js';

function setup(opts: GovernorOptions = {}) {
  const time = new ManualTime();
  const governor = new RateGovernor({ time, ...opts });
  const granted: string[] = [];
  const failed: string[] = [];
  const request = (
    label: string,
    account: string | null,
    route: string,
    priority?: number,
    signal?: AbortSignal,
  ): Promise<void> => {
    const p = governor.acquire(account, route, priority, signal ? { signal } : {});
    void p.then(
      () => granted.push(label),
      () => failed.push(label),
    );
    return p;
  };
  return { time, governor, granted, failed, request };
}

describe('token math', () => {
  it('lets a fresh account send its burst less one reserved token at once, then one per refill', async () => {
    const { time, granted, request } = setup();
    for (let i = 0; i < 12; i++) void request(`q${i}`, 'A', 'POST /order/rfq').catch(() => {});
    await settle();
    // quotes: burst 10, 60/min; one token is kept back for jitter.
    expect(granted).toHaveLength(9);

    await time.advance(999);
    expect(granted).toHaveLength(9);
    // The refill runs at 98% of the exchange's 1/s, so the next token arrives after ~1021 ms.
    await time.advance(30);
    expect(granted).toHaveLength(10);
    await time.advance(1100);
    expect(granted).toHaveLength(11);
  });

  it('grants no more over ten seconds than the exchange refills in that time', async () => {
    const { time, granted, request } = setup();
    for (let i = 0; i < 40; i++) void request(`p${i}`, 'A', 'GET /positions').catch(() => {});
    await settle();
    // positions: burst 5, 20/min: capacity 4, then 0.98 * 1/3 per second.
    expect(granted).toHaveLength(4);
    await time.advance(10_000);
    expect(granted).toHaveLength(4 + Math.floor(10 * (20 / 60) * 0.98));
  });

  it('keeps accounts apart: one account out of quotes does not hold up another', async () => {
    const { granted, request } = setup();
    for (let i = 0; i < 12; i++) void request(`A${i}`, 'A', 'POST /order/rfq').catch(() => {});
    for (let i = 0; i < 3; i++) void request(`B${i}`, 'B', 'POST /order/rfq').catch(() => {});
    await settle();
    expect(granted.filter((l) => l.startsWith('A'))).toHaveLength(9);
    expect(granted.filter((l) => l.startsWith('B'))).toEqual(['B0', 'B1', 'B2']);
  });

  it('keeps groups apart: quotes running out does not hold up order placement', async () => {
    const { granted, request } = setup();
    for (let i = 0; i < 12; i++) void request(`q${i}`, 'A', 'POST /order/rfq').catch(() => {});
    void request('order', 'A', 'POST /order');
    void request('status', 'A', 'GET /order');
    await settle();
    expect(granted).toContain('order');
    expect(granted).toContain('status');
  });

  it('shares the per-IP cap across accounts', async () => {
    const { granted, request } = setup({ ipLimit: { perSecond: 1, burst: 4 } });
    void request('A0', 'A', 'GET /order');
    void request('B0', 'B', 'GET /order');
    void request('A1', 'A', 'GET /order');
    void request('B1', 'B', 'GET /order').catch(() => {});
    await settle();
    expect(granted).toEqual(['A0', 'B0', 'A1']);
  });

  it('shares the fixtures bucket across accounts and unsigned callers', async () => {
    const { governor, granted, request } = setup();
    for (let i = 0; i < 10; i++) void request(`A${i}`, 'A', 'GET /fixtures');
    for (let i = 0; i < 15; i++) void request(`n${i}`, null, 'GET /fixtures').catch(() => {});
    await settle();
    // fixtures: burst 20 per IP, one kept back.
    expect(granted).toHaveLength(19);
    expect(governor.snapshot().ip.fixtures.queued).toBe(6);
  });

  it('refuses a per-account route without an account', async () => {
    const { governor } = setup();
    await expect(governor.acquire(null, 'POST /order')).rejects.toThrow(/account/);
  });
});

describe('priority', () => {
  it('serves waiting requests by priority: order, status, quote, updates, settlements, positions, fixtures', async () => {
    // An IP cap of one request per second makes every route compete for the same token.
    const { time, granted, request } = setup({ ipLimit: { perSecond: 1, burst: 2 } });
    void request('first', 'A', 'GET /fixtures');
    await settle();
    expect(granted).toEqual(['first']);

    void request('fixtures', 'A', 'GET /fixtures');
    void request('positions', 'A', 'GET /positions');
    void request('settlements', 'A', 'GET /settlements');
    void request('updates', 'A', 'GET /orders/updates');
    void request('quote', 'A', 'POST /order/rfq');
    void request('status', 'A', 'GET /order');
    void request('order', 'A', 'POST /order');
    await time.advance(10_000);
    expect(granted).toEqual([
      'first',
      'order',
      'status',
      'quote',
      'updates',
      'settlements',
      'positions',
      'fixtures',
    ]);
  });

  it('serves requests of one priority first in, first out', async () => {
    const { time, granted, request } = setup();
    const labels = Array.from({ length: 15 }, (_, i) => `q${i}`);
    for (const l of labels) void request(l, 'A', 'POST /order/rfq');
    await time.advance(10_000);
    expect(granted).toEqual(labels);
  });

  it('lets an explicit priority override the route default', async () => {
    const { time, granted, request } = setup({ ipLimit: { perSecond: 1, burst: 2 } });
    void request('first', 'A', 'GET /order');
    void request('positions-urgent', 'A', 'GET /positions', Priority.placeOrder);
    void request('status', 'A', 'GET /order');
    await time.advance(5000);
    expect(granted).toEqual(['first', 'positions-urgent', 'status']);
  });

  it('gives a token several requests wait for to the most urgent one', async () => {
    const { time, granted, request } = setup({ ipLimit: { perSecond: 1, burst: 2 } });
    void request('first', 'A', 'GET /order');
    await settle();
    void request('quote', 'B', 'POST /order/rfq');
    void request('order', 'A', 'POST /order');
    await time.advance(1100);
    expect(granted).toEqual(['first', 'order']);
    await time.advance(1100);
    expect(granted).toEqual(['first', 'order', 'quote']);
  });

  it('lets a less urgent request pass one that waits on a bucket it does not need', async () => {
    // Orders: one token, then one per 10 s; the IP cap: one per second.
    const { time, granted, request } = setup({
      ipLimit: { perSecond: 1, burst: 2 },
      groupLimits: { ...GROUP_LIMITS, orders: { perMinute: 6, burst: 2 } },
    });
    void request('o0', 'A', 'POST /order');
    void request('o1', 'A', 'POST /order');
    void request('settlements', 'A', 'GET /settlements');
    await time.advance(1100);
    expect(granted).toEqual(['o0', 'settlements']);
    await time.advance(10_000);
    expect(granted).toEqual(['o0', 'settlements', 'o1']);
  });
});

describe('corrections from the exchange', () => {
  it('lowers its tokens to X-RateLimit-Remaining, less the requests still in flight', async () => {
    const { governor, granted, request } = setup();
    void request('q0', 'A', 'POST /order/rfq');
    void request('q1', 'A', 'POST /order/rfq');
    await settle();
    // Another device on the same wallet has been quoting: the exchange has 3 left after q0.
    governor.observe('A', 'POST /order/rfq', {
      status: 200,
      headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3' },
    });
    for (let i = 2; i < 8; i++) void request(`q${i}`, 'A', 'POST /order/rfq').catch(() => {});
    await settle();
    // 3 left, q1 still in flight will take one of them: two more may go.
    expect(granted).toEqual(['q0', 'q1', 'q2', 'q3']);
    expect(governor.snapshot().accounts.A?.quotes.tokens).toBe(0);
  });

  it('never raises its tokens above its own count because the exchange reports more', async () => {
    const { governor, request } = setup();
    for (let i = 0; i < 9; i++) void request(`q${i}`, 'A', 'POST /order/rfq');
    await settle();
    governor.observe('A', 'POST /order/rfq', {
      status: 200,
      headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9' },
    });
    expect(governor.snapshot().accounts.A?.quotes.tokens).toBe(0);
  });

  it('shrinks a bucket whose X-RateLimit-Limit is smaller than the table says', async () => {
    const { governor, request } = setup();
    void request('r0', 'A', 'GET /orders');
    await settle();
    governor.observe('A', 'GET /orders', {
      status: 200,
      headers: { 'x-ratelimit-limit': '4', 'x-ratelimit-remaining': '3' },
    });
    const reads = governor.snapshot().accounts.A?.reads;
    expect(reads?.capacity).toBe(3);
    expect(reads?.tokens).toBe(3);
  });

  it('blocks the group until Retry-After when the wallet bucket refused (429, none remaining)', async () => {
    const { time, governor, granted, request } = setup();
    void request('q0', 'A', 'POST /order/rfq');
    await settle();
    governor.observe('A', 'POST /order/rfq', {
      status: 429,
      code: -1003,
      headers: { 'retry-after': '5', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' },
    });
    expect(governor.snapshot().accounts.A?.quotes.blockedUntil).toBe(time.now() + 5050);

    void request('q1', 'A', 'POST /order/rfq');
    void request('status', 'A', 'GET /order');
    await time.advance(4900);
    expect(granted).toEqual(['q0', 'status']);
    await time.advance(200);
    expect(granted).toEqual(['q0', 'status', 'q1']);
  });

  it('blocks every request at the IP level when a 429 is not the wallet bucket', async () => {
    const { time, governor, granted, request } = setup();
    void request('first', 'A', 'GET /order');
    await settle();
    governor.observe('A', 'GET /order', {
      status: 429,
      code: -1003,
      headers: { 'retry-after': '2' },
    });
    expect(governor.snapshot().ip.requests.blockedUntil).toBe(time.now() + 2050);
    void request('other-account', 'B', 'POST /order');
    void request('fixtures', null, 'GET /fixtures');
    await time.advance(2000);
    expect(granted).toEqual(['first']);
    await time.advance(100);
    expect(granted).toEqual(['first', 'other-account', 'fixtures']);
  });

  it('holds price-feed requests of every account after a 503 -1003, and nothing else', async () => {
    const { time, governor, granted, request } = setup();
    void request('q0', 'A', 'POST /order/rfq');
    await settle();
    governor.observe('A', 'POST /order/rfq', {
      status: 503,
      code: -1003,
      headers: { 'retry-after': '1' },
    });
    void request('quote-B', 'B', 'POST /order/rfq');
    void request('positions-A', 'A', 'GET /positions');
    void request('order-A', 'A', 'POST /order');
    void request('status-A', 'A', 'GET /order');
    void request('updates-B', 'B', 'GET /orders/updates');
    await settle();
    expect(granted).toEqual(['q0', 'status-A', 'updates-B']);
    expect(governor.snapshot().ip.priceFeed).toEqual({
      blockedUntil: time.now() + 1050,
      queued: 3,
    });
    await time.advance(1100);
    expect(granted).toEqual(['q0', 'status-A', 'updates-B', 'order-A', 'quote-B', 'positions-A']);
  });

  it('backs off with doubling waits after 503 -1003 answers without Retry-After', async () => {
    const { time, governor } = setup();
    const start = time.now();
    governor.observe('A', 'POST /order/rfq', { status: 503, code: -1003 });
    expect(governor.snapshot().ip.priceFeed.blockedUntil).toBe(start + 1000 + 50);
    await time.advance(1100);
    governor.observe('A', 'POST /order/rfq', { status: 503, code: -1003 });
    expect(governor.snapshot().ip.priceFeed.blockedUntil).toBe(start + 1100 + 2000 + 50);
    await time.advance(2100);
    // A success resets the back-off.
    governor.observe('A', 'POST /order/rfq', { status: 200 });
    governor.observe('A', 'POST /order/rfq', { status: 503, code: -1003 });
    expect(governor.snapshot().ip.priceFeed.blockedUntil).toBe(start + 3200 + 1000 + 50);
  });

  it('ignores 503 answers that are not rate limits (market closed)', () => {
    const { governor } = setup();
    governor.observe('A', 'POST /order/rfq', { status: 503, code: -2019 });
    expect(governor.snapshot().ip.priceFeed.blockedUntil).toBeNull();
  });
});

describe('lifecycle and state', () => {
  it('counts requests in flight until their answer, or its absence, is observed', async () => {
    const { governor, request } = setup();
    await request('q0', 'A', 'POST /order/rfq');
    await request('q1', 'A', 'POST /order/rfq');
    expect(governor.snapshot().accounts.A?.quotes.inFlight).toBe(2);
    expect(governor.snapshot().ip.requests.inFlight).toBe(2);
    governor.observe('A', 'POST /order/rfq', { status: 200 });
    governor.observe('A', 'POST /order/rfq', {});
    expect(governor.snapshot().accounts.A?.quotes.inFlight).toBe(0);
    expect(governor.snapshot().ip.requests.inFlight).toBe(0);
  });

  it('reports per account per group tokens, capacity, refill, queue and block', async () => {
    const { governor, request } = setup();
    governor.registerAccount('A');
    for (let i = 0; i < 6; i++) void request(`p${i}`, 'A', 'GET /positions').catch(() => {});
    await settle();
    const snap = governor.snapshot();
    expect(Object.keys(snap.accounts)).toEqual(['A']);
    expect(snap.accounts.A?.positions).toEqual({
      tokens: 0,
      capacity: 4,
      refillPerSec: (20 / 60) * 0.98,
      queued: 2,
      inFlight: 4,
      blockedUntil: null,
    });
    expect(snap.accounts.A?.orders).toMatchObject({ tokens: 9, capacity: 9, queued: 0 });
    // The IP cap refills 100/s: 100 ms of jitter is 10 tokens held back.
    expect(snap.ip.requests).toMatchObject({ capacity: 190, refillPerSec: 98, tokens: 186 });
    expect(snap.queued).toBe(2);
  });

  it('drops a waiting request whose signal aborts, and serves the next one instead', async () => {
    const { time, governor, granted, failed, request } = setup({
      ipLimit: { perSecond: 1, burst: 2 },
    });
    void request('first', 'A', 'GET /order');
    const ac = new AbortController();
    void request('aborted', 'A', 'POST /order', Priority.placeOrder, ac.signal).catch(() => {});
    void request('next', 'A', 'GET /order');
    await settle();
    ac.abort();
    await time.advance(1100);
    expect(failed).toEqual(['aborted']);
    expect(granted).toEqual(['first', 'next']);
    expect(governor.snapshot().queued).toBe(0);
  });

  it('rejects waiting requests when closed, and refuses new ones', async () => {
    const { governor, request } = setup({ ipLimit: { perSecond: 1, burst: 2 } });
    void request('first', 'A', 'GET /order');
    const waiting = request('waiting', 'A', 'GET /order');
    governor.close();
    await expect(waiting).rejects.toBeInstanceOf(GovernorClosedError);
    await expect(governor.acquire('A', 'GET /order')).rejects.toBeInstanceOf(GovernorClosedError);
  });

  it('rejects the waiting requests of an account that is unregistered', async () => {
    const { governor, granted, failed, request } = setup();
    for (let i = 0; i < 10; i++) void request(`A${i}`, 'A', 'POST /order').catch(() => {});
    await settle();
    governor.unregisterAccount('A');
    await settle();
    expect(granted).toHaveLength(9);
    expect(failed).toEqual(['A9']);
    expect(governor.snapshot().accounts).toEqual({});
  });

  it('tells subscribers when its state changes', async () => {
    const { governor, request } = setup();
    let calls = 0;
    const unsubscribe = governor.subscribe(() => (calls += 1));
    await request('q0', 'A', 'POST /order/rfq');
    expect(calls).toBeGreaterThan(0);
    unsubscribe();
    const before = calls;
    governor.observe('A', 'POST /order/rfq', { status: 200 });
    expect(calls).toBe(before);
  });
});
