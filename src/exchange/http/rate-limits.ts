/**
 * The three checks of docs/api.md 8.1, in their order: the per-IP cap, the wallet's bucket for the
 * endpoint's group (the fixtures bucket is keyed by IP), then the shared price-feed budget.
 * All buckets refill on the exchange clock, so POST /sandbox/clock refills them too.
 */
import {
  DEFAULT_PRICE_BUDGET_PER_SECOND,
  GROUP_LIMITS,
  IP_LIMIT,
  type LimitGroup,
} from '../../shared/api/limits.js';
import { ApiError } from '../domain/errors.js';
import { BucketTable } from './token-bucket.js';
import { ErrorCodes } from '../../shared/api/errors.js';

export interface LimitHeaders {
  limit: number;
  remaining: number;
}

export class RateLimiter {
  private readonly perIp = new BucketTable(IP_LIMIT.burst, IP_LIMIT.perSecond);
  private readonly groups: Record<LimitGroup, BucketTable>;
  private readonly priceFeed: BucketTable;

  constructor(readonly priceBudgetPerSecond = DEFAULT_PRICE_BUDGET_PER_SECOND) {
    const table = (g: LimitGroup) =>
      new BucketTable(GROUP_LIMITS[g].burst, GROUP_LIMITS[g].perMinute / 60);
    this.groups = {
      positions: table('positions'),
      quotes: table('quotes'),
      orders: table('orders'),
      reads: table('reads'),
      fixtures: table('fixtures'),
    };
    // One second of budget can be spent at once: a full second's capacity is the burst.
    this.priceFeed = new BucketTable(priceBudgetPerSecond, priceBudgetPerSecond);
  }

  /** Check 1. Throws 429 -1003 when the address has sent too much. */
  takeIp(ip: string, now: number): void {
    const r = this.perIp.take(ip, now);
    if (!r.ok) {
      throw new ApiError(
        ErrorCodes.TOO_MANY_REQUESTS,
        `Too many requests from ${ip}: the cap is ${IP_LIMIT.perSecond} per second (burst ${IP_LIMIT.burst}); retry after ${r.retryAfter} s`,
        { status: 429, headers: { 'retry-after': String(r.retryAfter) } },
      );
    }
  }

  /** Check 2. `key` is the wallet, or the IP for the fixtures group. Throws 429 -1003. */
  takeGroup(group: LimitGroup, key: string, now: number): LimitHeaders {
    const table = this.groups[group];
    const r = table.take(key, now);
    if (!r.ok) {
      const spec = GROUP_LIMITS[group];
      throw new ApiError(
        ErrorCodes.TOO_MANY_REQUESTS,
        `Too many requests: the ${group} quota is ${spec.perMinute} per minute (burst ${spec.burst}); retry after ${r.retryAfter} s`,
        {
          status: 429,
          headers: {
            'retry-after': String(r.retryAfter),
            'x-ratelimit-limit': String(table.burst),
            'x-ratelimit-remaining': String(r.remaining),
          },
        },
      );
    }
    return { limit: table.burst, remaining: r.remaining };
  }

  /** The headers of an answer refused before any bucket of the group was touched. */
  untouched(group: LimitGroup): LimitHeaders {
    const burst = this.groups[group].burst;
    return { limit: burst, remaining: burst };
  }

  /** Check 3. Throws 503 -1003 when the shared price-feed budget is spent. */
  takePriceFeed(cost: number, now: number): void {
    if (cost <= 0) return;
    const r = this.priceFeed.take('shared', now, cost);
    if (!r.ok) {
      throw new ApiError(
        ErrorCodes.TOO_MANY_REQUESTS,
        `The exchange is shedding load: the shared price-feed budget is spent; retry after ${r.retryAfter} s`,
        { status: 503, headers: { 'retry-after': String(r.retryAfter) } },
      );
    }
  }
}
