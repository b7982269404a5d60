/** The governor in front of the real sandbox exchange, rate limits on, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient, type ExchangeError } from '../../../src/main/client/index.js';
import { RateGovernor } from '../../../src/main/governor/index.js';
import { GROUP_LIMITS } from '../../../src/shared/api/limits.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 50 });
});

afterAll(async () => {
  await sandbox.close();
});

/** Past the quotes bucket's burst (10), so the governor must hold the rest: a second each. */
const QUOTES = GROUP_LIMITS.quotes.burst + 6;

describe('a burst through the governor', () => {
  it(`sends ${QUOTES} quotes at once for one wallet and none is refused with 429`, async () => {
    const governor = new RateGovernor();
    const account = await sandbox.newAccount('trade');
    const fixture = await sandbox.openFixture();
    const client = new ExchangeClient({
      baseUrl: sandbox.url,
      credentials: account,
      account: account.wallet,
      governor,
    });
    const leg = {
      contractId: fixture.contractId,
      outcome: fixture.homeTeam,
      side: 'BUY',
      market: 'DRAW_NO_BET',
    } as const;

    const done: string[] = [];
    const quotes = Array.from({ length: QUOTES }, (_, i) => {
      const id = `burst-${String(i).padStart(2, '0')}`;
      return client
        .rfq({ legs: [leg], qty: '2', marketUnit: 'QUOTE', clientOrderId: id })
        .then((q) => {
          done.push(id);
          return q;
        });
    });
    // An order placed behind the backlog of quotes does not wait for it: other bucket, and
    // first in line for the per-IP cap.
    const placed = await client.placeOrder({
      orderType: 'MARKET',
      legs: [leg],
      qty: '2',
      marketUnit: 'QUOTE',
      clientOrderId: 'behind-the-burst',
    });
    expect(placed.httpStatus).toBe(202);
    // Answered while quotes asked before it still wait.
    expect(done.length).toBeLessThan(QUOTES);

    const results = await Promise.allSettled(quotes);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.map((r) => (r.reason as ExchangeError).code)).toEqual([]);
    expect(results).toHaveLength(QUOTES);

    // First in, first out: past the initial burst, quotes complete in the order asked.
    const echoed = results.map((r) => (r.status === 'fulfilled' ? r.value.reqId : ''));
    expect(echoed).toEqual(done.slice().sort());
    const held = done.slice(GROUP_LIMITS.quotes.burst);
    expect(held).toHaveLength(QUOTES - GROUP_LIMITS.quotes.burst);
    expect(held).toEqual(held.slice().sort());

    const snap = governor.snapshot().accounts[account.wallet];
    expect(snap?.quotes).toMatchObject({ queued: 0, inFlight: 0 });
    expect(governor.snapshot().ip.requests.inFlight).toBe(0);
    await client.close();
    governor.close();
  }, 60_000);
});

describe('the shared price-feed budget', () => {
  it("holds every account's price-feed requests after the exchange sheds load with 503 -1003", async () => {
    // A budget of 2 units per second: one quote per second across all wallets.
    const small = await startSandbox({ blockMs: 50, priceBudget: 2 });
    const governor = new RateGovernor();
    const fixture = await small.openFixture();
    const leg = {
      contractId: fixture.contractId,
      outcome: fixture.homeTeam,
      side: 'BUY',
      market: 'DRAW_NO_BET',
    } as const;
    const make = async (): Promise<ExchangeClient> => {
      const account = await small.newAccount('read');
      return new ExchangeClient({
        baseUrl: small.url,
        credentials: account,
        account: account.wallet,
        governor,
      });
    };
    const [a, b] = [await make(), await make()];
    const results = await Promise.allSettled(
      [a, b, a].map((c) => c.rfq({ legs: [leg], qty: '2', marketUnit: 'QUOTE' })),
    );
    const shed = results.filter(
      (r) => r.status === 'rejected' && (r.reason as ExchangeError).httpStatus === 503,
    );
    expect(shed.length).toBeGreaterThan(0);
    for (const r of shed) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        code: -1003,
        errorClass: 'rate-limit',
      });
    }
    const snap = governor.snapshot();
    expect(snap.ip.priceFeed.blockedUntil).not.toBeNull();
    // Reads draw nothing from the price feed and are not held.
    await expect(b.orders({ limit: 1 })).resolves.toMatchObject({ limit: 1 });
    // After the wait, a quote goes through.
    await expect(a.rfq({ legs: [leg], qty: '2', marketUnit: 'QUOTE' })).resolves.toMatchObject({
      isOpen: true,
    });
    await Promise.all([a.close(), b.close()]);
    governor.close();
    await small.close();
  });
});
