/**
 * A local clock 30 s off either way, and an exchange clock that jumps: quotes still expire by the
 * exchange's clock and no -1021 (timestamp outside the recv window) reaches the caller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderOutcome } from '../../../src/main/trading/index.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { buy, openDesk, type Desk } from './support.js';

let sandbox: Sandbox;
const desks: Desk[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20, rateLimits: false });
});

afterAll(async () => {
  for (const d of desks) await d.close();
  await sandbox.close();
});

function noClockError(out: OrderOutcome): void {
  expect(out.error?.code).not.toBe(-1021);
  expect(out.warning?.code).not.toBe(-1021);
}

describe.each([
  ['ahead', 30_000],
  ['behind', -30_000],
])('with the local clock 30 s %s', (_name, skewMs) => {
  let desk: Desk;
  let refused = 0;

  beforeAll(async () => {
    desk = await openDesk({
      sandbox,
      client: {
        clock: () => Date.now() + skewMs,
        logger: {
          debug: () => {},
          info: () => {},
          warn: (msg) => {
            if (msg.startsWith('timestamp refused')) refused++;
          },
        },
      },
    });
    desks.push(desk);
  });

  it('measures a quote’s life by the exchange clock', async () => {
    const f = await desk.newFixture();
    const q = await desk.trading.quote(buy(f, '5'));
    expect(q.expiresInMs()).toBeGreaterThan(20_000);
    expect(q.expiresInMs()).toBeLessThanOrEqual(30_000);
    const out = await desk.trading.trade({ type: 'FOK', quote: q });
    noClockError(out);
    expect(out.status).toBe('FILLED');
  });

  it('places and follows MARKET orders without a clock error', async () => {
    const f = await desk.newFixture();
    for (let i = 0; i < 3; i++) {
      const out = await desk.trading.trade(buy(f, '2'));
      noClockError(out);
      expect(out.status).toBe('FILLED');
    }
  });

  it('recovers when the exchange clock jumps after the client measured it', async () => {
    const f = await desk.newFixture();
    // 20 s is far outside the 5 s recv window the client signs with.
    await sandbox.admin('POST', '/clock', { advanceMs: 20_000 });
    expect(refused).toBe(0);
    const out = await desk.trading.trade(buy(f, '2'));
    expect(refused).toBeGreaterThan(0); // the exchange did refuse the stale timestamp
    noClockError(out);
    expect(out.status).toBe('FILLED');
    const q = await desk.trading.quote(buy(f, '2'));
    expect(q.expiresInMs()).toBeGreaterThan(20_000);
    expect((await desk.trading.trade({ type: 'FOK', quote: q })).status).toBe('FILLED');
  });
});
