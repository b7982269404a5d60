import type { TimeSource } from '../../src/main/governor/time.js';

/**
 * A time source the test moves by hand; timers fire in order as time passes them. For the
 * governor, the sync engine and anything else that takes a `time` option: a test says "a minute
 * passes" instead of waiting for one.
 */
export class ManualTime implements TimeSource {
  private t: number;
  private nextId = 1;
  private timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = 1_700_000_000_000) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimer(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }

  clearTimer(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Timers set and not yet fired or cleared. */
  pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing every timer due on the way, and lets promises settle. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    // Callbacks already queued may set timers that fall inside this stretch.
    await settle();
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) {
        if (entry[1].at <= target && (!next || entry[1].at < next[1].at)) next = entry;
      }
      if (!next) break;
      this.timers.delete(next[0]);
      this.t = Math.max(this.t, next[1].at);
      next[1].fn();
      await settle();
    }
    this.t = target;
    await settle();
  }
}

/** Lets every pending promise callback run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
