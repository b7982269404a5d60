/**
 * Where the sync engine reads the time and sets its timers (the governor's TimeSource shape).
 * Unlike the governor's, these timers keep the process alive: a running sync is work, and the
 * CLI's `sync` command must not exit while it runs. stop() clears them all.
 */
import type { TimeSource } from '../governor/time.js';

export type { TimeSource };

export const liveTime: TimeSource = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The engine's one timer: set for a moment, it fires once; setting it again replaces it. */
export class OneTimer {
  readonly #time: TimeSource;
  readonly #fire: () => void;
  #handle: unknown = undefined;

  constructor(time: TimeSource, fire: () => void) {
    this.#time = time;
    this.#fire = fire;
  }

  /** Fires at local time `at` (at once when it has passed); null only clears it. */
  setAt(at: number | null): void {
    this.clear();
    if (at === null) return;
    this.#handle = this.#time.setTimer(
      () => {
        this.#handle = undefined;
        this.#fire();
      },
      Math.max(0, at - this.#time.now()),
    );
  }

  clear(): void {
    if (this.#handle !== undefined) this.#time.clearTimer(this.#handle);
    this.#handle = undefined;
  }
}
