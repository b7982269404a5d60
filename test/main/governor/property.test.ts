import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateGovernor } from '../../../src/main/governor/index.js';
import { GROUP_LIMITS, ROUTE_GROUPS } from '../../../src/shared/api/limits.js';
import { ManualTime } from '../../harness/manual-time.js';
import { mulberry32 } from '../../../src/shared/random.js';

/** The exchange's side of a bucket, exactly as docs/api.md 8.1 states it: no margins. */
class ExchangeBucket {
  private tokens: number;
  private at: number;
  constructor(
    readonly burst: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }
  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
  remaining(): number {
    return Math.floor(this.tokens);
  }
}

const ROUTES = [
  'POST /order',
  'GET /order',
  'POST /order/rfq',
  'GET /orders/updates',
  'GET /settlements',
  'GET /positions',
  'GET /fixtures',
  'GET /time',
];

describe('the governor against an exact model of the exchange buckets', () => {
  it('never sends a request the exchange would refuse, whatever the mix, bursts and jitter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          ipPerSecond: fc.integer({ min: 2, max: 20 }),
          ipBurst: fc.integer({ min: 3, max: 30 }),
          seed: fc.integer(),
          requests: fc.array(
            fc.record({
              gapMs: fc.integer({ min: 0, max: 400 }),
              route: fc.constantFrom(...ROUTES),
              account: fc.constantFrom('A', 'B'),
            }),
            { minLength: 10, maxLength: 80 },
          ),
        }),
        async ({ ipPerSecond, ipBurst, seed, requests }) => {
          const random = mulberry32(seed);
          const time = new ManualTime();
          const ipLimit = { perSecond: ipPerSecond, burst: ipBurst };
          const governor = new RateGovernor({ time, ipLimit });
          const exchangeIp = new ExchangeBucket(ipBurst, ipPerSecond, time.now());
          const exchangeBuckets = new Map<string, ExchangeBucket>();
          const bucketFor = (account: string, route: string): ExchangeBucket | undefined => {
            const group = ROUTE_GROUPS[route];
            if (!group) return undefined;
            const key = group === 'fixtures' ? 'fixtures' : `${account}:${group}`;
            let b = exchangeBuckets.get(key);
            if (!b) {
              const spec = GROUP_LIMITS[group];
              b = new ExchangeBucket(spec.burst, spec.perMinute / 60, time.now());
              exchangeBuckets.set(key, b);
            }
            return b;
          };

          let refused = 0;
          let answered = 0;
          const arrive = (account: string, route: string): void => {
            const now = time.now();
            const group = bucketFor(account, route);
            const ok = exchangeIp.take(now) && (group ? group.take(now) : true);
            if (!ok) refused += 1;
            const headers = group
              ? {
                  'x-ratelimit-limit': String(group.burst),
                  'x-ratelimit-remaining': String(group.remaining()),
                }
              : {};
            time.setTimer(
              () => {
                answered += 1;
                governor.observe(account, route, {
                  status: ok ? 200 : 429,
                  ...(ok ? {} : { code: -1003 }),
                  headers,
                });
              },
              Math.floor(random() * 100),
            );
          };

          for (const r of requests) {
            await time.advance(r.gapMs);
            const account = r.route === 'GET /time' ? null : r.account;
            void governor.acquire(account, r.route).then(() => {
              // The way to the exchange takes up to the 100 ms of jitter the governor allows for.
              time.setTimer(() => arrive(r.account, r.route), Math.floor(random() * 100));
            });
          }
          await time.advance(300_000);
          governor.close();
          expect(refused).toBe(0);
          expect(answered).toBe(requests.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});
