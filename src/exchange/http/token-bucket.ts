/**
 * Token buckets on the exchange clock: `burst` tokens, refilled at `ratePerSecond`, one bucket per
 * key (an IP address, a wallet and group, or the one shared price-feed budget). A bucket that has
 * refilled completely is the same as no bucket, so idle ones are dropped from time to time and
 * the table stays as small as the set of recent callers.
 */

export interface Bucket {
  tokens: number;
  /** Exchange time of the last refill, ms. */
  at: number;
}

export interface TakeResult {
  ok: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until `cost` tokens are available again; 0 when ok. */
  retryAfter: number;
}

export class BucketTable {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private lastSweep = 0;

  constructor(
    readonly burst: number,
    readonly ratePerSecond: number,
  ) {
    this.perMs = ratePerSecond / 1000;
  }

  /** Takes `cost` tokens from the bucket at `key` when it holds that many. */
  take(key: string, now: number, cost = 1): TakeResult {
    const b = this.refilled(key, now);
    if (b.tokens >= cost) {
      b.tokens -= cost;
      return { ok: true, remaining: Math.floor(b.tokens), retryAfter: 0 };
    }
    const missing = cost - b.tokens;
    const retryAfter = Math.max(1, Math.ceil(missing / this.perMs / 1000));
    return { ok: false, remaining: Math.floor(b.tokens), retryAfter };
  }

  /** Whole tokens in the bucket at `key` now, without taking any. */
  peek(key: string, now: number): number {
    const b = this.buckets.get(key);
    if (!b) return this.burst;
    return Math.floor(Math.min(this.burst, b.tokens + Math.max(0, now - b.at) * this.perMs));
  }

  get size(): number {
    return this.buckets.size;
  }

  private refilled(key: string, now: number): Bucket {
    if (now - this.lastSweep > 10_000) this.sweep(now);
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.burst, at: now };
      this.buckets.set(key, b);
      return b;
    }
    if (now > b.at) {
      b.tokens = Math.min(this.burst, b.tokens + (now - b.at) * this.perMs);
      b.at = now;
    }
    return b;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    const fullAfterMs = this.burst / this.perMs;
    for (const [key, b] of this.buckets) {
      if (now - b.at >= fullAfterMs) this.buckets.delete(key);
    }
  }
}
