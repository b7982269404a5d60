/**
 * What to do about a failed POST /order, by the spec:
 *   resend     the exchange refused this attempt, nothing was placed, and the same request may
 *              succeed later: 429/503 -1003 (after Retry-After), -2028 ("retry the same request
 *              shortly"), -5001..-5004 ("may succeed later")
 *   resync     -1021: our idea of the exchange's clock is off; measure it, then resend
 *   lookup     the request may have taken effect: a timeout or broken connection after sending,
 *              -1000 or another 5xx, an answer we cannot read. Ask GET /order?clientOrderId=.
 *   final      a definite refusal (any other code): nothing was placed by this attempt
 *   not-sent   the request never left (connection refused): sending it again is safe
 */
import { ExchangeError, NetworkError, ProtocolError } from '../client/index.js';

export type Verdict =
  | { kind: 'resend'; waitMs?: number }
  | { kind: 'resync' }
  | { kind: 'lookup' }
  | { kind: 'final' }
  | { kind: 'not-sent' };

const RESEND_CODES = new Set([-1003, -2028, -5001, -5002, -5003, -5004]);
/** 5xx codes that are a definite refusal, not a failure of the exchange. */
const DEFINITE_5XX = new Set([-2019, -2026]);

export function classifyPlacementError(err: unknown): Verdict {
  if (err instanceof NetworkError)
    return err.outcomeUnknown ? { kind: 'lookup' } : { kind: 'not-sent' };
  if (err instanceof ProtocolError) return { kind: 'lookup' };
  if (err instanceof ExchangeError) {
    if (err.code === -1021) return { kind: 'resync' };
    if (err.httpStatus === 429 || RESEND_CODES.has(err.code)) {
      return err.retryAfterMs !== undefined
        ? { kind: 'resend', waitMs: err.retryAfterMs }
        : { kind: 'resend' };
    }
    if (err.code === -1000) return { kind: 'lookup' };
    if (err.httpStatus >= 500 && !DEFINITE_5XX.has(err.code)) return { kind: 'lookup' };
    return { kind: 'final' };
  }
  // Not from the exchange client (e.g. no credentials): nothing was sent.
  return { kind: 'final' };
}

/** True for a read (quote, order status) worth trying again after a wait. */
export function isTransientReadError(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  if (err instanceof ExchangeError) {
    return (
      err.httpStatus === 429 ||
      err.code === -1000 ||
      err.code === -1021 ||
      err.errorClass === 'upstream' ||
      err.errorClass === 'rate-limit'
    );
  }
  return false;
}

export interface BackoffOptions {
  /** First wait, ms (default 200). */
  initialMs?: number;
  /** Longest wait, ms (default 5000). */
  maxMs?: number;
  /** Growth per attempt (default 2). */
  factor?: number;
}

/** Exponential backoff with "equal jitter": half fixed, half random, so retries spread out. */
export class Backoff {
  readonly #initial: number;
  readonly #max: number;
  readonly #factor: number;
  readonly #random: () => number;
  #next: number;

  constructor(opts: BackoffOptions = {}, random: () => number = Math.random) {
    this.#initial = opts.initialMs ?? 200;
    this.#max = opts.maxMs ?? 5000;
    this.#factor = opts.factor ?? 2;
    this.#random = random;
    this.#next = this.#initial;
  }

  /** The next wait, ms; at least `floorMs` (a Retry-After). */
  next(floorMs = 0): number {
    const base = this.#next;
    this.#next = Math.min(this.#max, this.#next * this.#factor);
    const wait = Math.round(base / 2 + (this.#random() * base) / 2);
    return Math.max(wait, floorMs);
  }

  reset(): void {
    this.#next = this.#initial;
  }
}
