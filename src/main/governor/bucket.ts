/**
 * One client-side token bucket: the mirror of a bucket the exchange keeps for us. Tokens are a
 * plain number (request counts, not money), refilled continuously at `refillPerSec`.
 */

/** Float slack so a timer that fires at the computed instant sees the token it waited for. */
const EPSILON = 1e-6;

export interface BucketSnapshot {
  /** Tokens available now (rounded down to 2 places). */
  tokens: number;
  capacity: number;
  refillPerSec: number;
  /** Requests waiting for this bucket. */
  queued: number;
  /** Requests sent through this bucket whose answer has not been observed yet. */
  inFlight: number;
  /** Until when the exchange told us to stop (ms, local clock), or null. */
  blockedUntil: number | null;
}

export class TokenBucket {
  tokens: number;
  private updatedAt: number;
  blockedUntil = 0;
  inFlight = 0;
  queued = 0;

  constructor(
    public capacity: number,
    readonly refillPerSec: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.updatedAt = now;
  }

  refill(now: number): void {
    if (now <= this.updatedAt) return;
    this.tokens = Math.min(
      this.capacity,
      this.tokens + ((now - this.updatedAt) / 1000) * this.refillPerSec,
    );
    this.updatedAt = now;
  }

  /** The earliest time (>= now) at which one token can be taken. */
  availableAt(now: number): number {
    this.refill(now);
    let at = now;
    if (this.tokens < 1 - EPSILON) {
      at = now + Math.ceil(((1 - this.tokens) / this.refillPerSec) * 1000);
    }
    return Math.max(at, this.blockedUntil);
  }

  canTake(now: number): boolean {
    return this.availableAt(now) <= now;
  }

  take(now: number): void {
    this.refill(now);
    this.tokens = Math.max(0, this.tokens - 1);
    this.inFlight += 1;
  }

  settle(): void {
    if (this.inFlight > 0) this.inFlight -= 1;
  }

  /** Never hold more than the exchange says is left. */
  lowerTo(tokens: number, now: number): void {
    this.refill(now);
    this.tokens = Math.max(0, Math.min(this.tokens, tokens));
  }

  /** The exchange refused us: it has nothing left until `until`. */
  block(until: number, now: number): void {
    this.refill(now);
    this.tokens = 0;
    this.blockedUntil = Math.max(this.blockedUntil, until);
  }

  snapshot(now: number): BucketSnapshot {
    this.refill(now);
    return {
      tokens: Math.floor(this.tokens * 100 + EPSILON) / 100,
      capacity: this.capacity,
      refillPerSec: this.refillPerSec,
      queued: this.queued,
      inFlight: this.inFlight,
      blockedUntil: this.blockedUntil > now ? this.blockedUntil : null,
    };
  }
}
