/**
 * Whether the exchange can be reached, as the sync engine sees it: since when it could not,
 * why, and how long the probe waits before trying again (capped, jittered, growing while the
 * outage lasts). While offline only the probe stream runs; its first success ends the outage.
 */
import type { Backoff } from '../../shared/backoff.js';

export class Reachability {
  readonly #backoff: Backoff;
  #since: number | null = null;
  #error: string | null = null;

  constructor(backoff: Backoff) {
    this.#backoff = backoff;
  }

  /** Local time the exchange was first found unreachable; null while it answers. */
  get offlineSince(): number | null {
    return this.#since;
  }

  get offline(): boolean {
    return this.#since !== null;
  }

  /** The last reason it could not be reached (null while it answers). */
  get error(): string | null {
    return this.#error;
  }

  /** A pass could not reach the exchange. True when this starts an outage. */
  lost(now: number): boolean {
    if (this.#since !== null) return false;
    this.#since = now;
    this.#backoff.reset();
    return true;
  }

  /** The probe failed (or the outage began) for this reason: the wait before it tries again. */
  probeFailed(message: string): number {
    this.#error = message;
    return this.#backoff.next();
  }

  /** A pass heard from the exchange: how long the outage lasted, or null if there was none. */
  answered(now: number): number | null {
    if (this.#since === null) return null;
    const lasted = now - this.#since;
    this.#since = null;
    this.#error = null;
    this.#backoff.reset();
    return lasted;
  }
}
