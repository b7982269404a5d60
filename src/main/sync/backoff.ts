/**
 * Exponential backoff with a cap and "equal jitter": attempt n waits between half and all of
 * min(cap, base × 2^n). The random half keeps many clients (or streams) that lost the exchange
 * at the same moment from all coming back at the same moment.
 */
export interface BackoffOptions {
  /** First wait, ms (default 1000). */
  initialMs: number;
  /** Longest wait, ms (default 30 000). */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 30_000 };

export class Backoff {
  #attempt = 0;

  constructor(
    private readonly opts: BackoffOptions,
    private readonly random: () => number = Math.random,
  ) {}

  /** Failures in a row so far. */
  get attempt(): number {
    return this.#attempt;
  }

  /** The wait before the next try, and counts this failure. */
  next(): number {
    const ceiling = Math.min(
      this.opts.maxMs,
      this.opts.initialMs * 2 ** Math.min(this.#attempt, 30),
    );
    this.#attempt += 1;
    const half = ceiling / 2;
    return Math.round(half + this.random() * half);
  }

  reset(): void {
    this.#attempt = 0;
  }
}
