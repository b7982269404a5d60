/**
 * A local clock as reactive state, for text like "updated 3 s ago" and quote countdowns. It only
 * ticks while started; tests use a `ManualClock`.
 */
export interface Clock {
  readonly now: number;
}

export class TickingClock implements Clock {
  /** The time of the last tick, ms since the epoch. */
  now = $state(Date.now());
  #timer: ReturnType<typeof setInterval> | undefined;

  /** Ticks every `everyMs`; returns the function that stops it. */
  start(everyMs = 1000): () => void {
    this.stop();
    this.now = Date.now();
    this.#timer = setInterval(() => {
      this.now = Date.now();
    }, everyMs);
    return () => this.stop();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

export class ManualClock implements Clock {
  now = $state(0);

  constructor(now = 0) {
    this.now = now;
  }
}
