/**
 * Exponential backoff with a cap and "equal jitter": attempt n waits between half and all of
 * min(max, initial × factor^n). The random half keeps many clients (or streams) that failed at
 * the same moment from all coming back at the same moment. One algorithm for every retry in
 * the app: the sync engine's offline probe and streams, and the trading service's placements,
 * lookups and status polls (each with its own numbers).
 */
export interface BackoffOptions {
  /** First step, ms: the first wait is between half of it and all of it. */
  initialMs: number;
  /** Largest step, ms. */
  maxMs: number;
  /** Growth per attempt (default 2). */
  factor?: number;
}

export class Backoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #factor: number;
  readonly #random: () => number;
  #attempt = 0;

  constructor(opts: BackoffOptions, random: () => number = Math.random) {
    this.#initialMs = opts.initialMs;
    this.#maxMs = opts.maxMs;
    this.#factor = opts.factor ?? 2;
    this.#random = random;
  }

  /** Failures in a row so far. */
  get attempt(): number {
    return this.#attempt;
  }

  /** The wait before the next try, at least `floorMs` (a Retry-After); counts this failure. */
  next(floorMs = 0): number {
    const step = Math.min(
      this.#maxMs,
      this.#initialMs * this.#factor ** Math.min(this.#attempt, MAX_DOUBLINGS),
    );
    this.#attempt += 1;
    const half = step / 2;
    return Math.max(Math.round(half + this.#random() * half), floorMs);
  }

  /** After a success: the next failure waits as little as the first. */
  reset(): void {
    this.#attempt = 0;
  }
}

/** Keeps factor^attempt finite however long a failure lasts (the cap applies long before). */
const MAX_DOUBLINGS = 30;
