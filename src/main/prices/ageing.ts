/**
 * Ageing the price history (docs/prices.md), so it stays bounded. The recorder keeps raw points
 * and, beside them, 15-minute open/high/low/close buckets. Raw points are kept 7 days; the
 * 15-minute buckets become hourly ones after 7 days, and those daily ones after 90 days. The
 * work is done in small steps (at most STEP_ROWS rows, one short transaction each) on a timer
 * that yields to the event loop between steps: never a long write on the main thread.
 */
import type { AgeingStep, PricePolicy, Store } from '../store/index.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Raw points are kept this long (the week). */
export const RAW_KEEP_MS = 7 * DAY;
/** The buckets the recorder keeps beside raw points, which the 24 h lines read. */
export const RECENT_STEP_MS = 15 * MINUTE;

export const PRICE_POLICY: PricePolicy = {
  recentStepMs: RECENT_STEP_MS,
  rawKeepMs: RAW_KEEP_MS,
  tiers: [
    { olderThanMs: 7 * DAY, fromStepMs: RECENT_STEP_MS, stepMs: HOUR },
    { olderThanMs: 90 * DAY, fromStepMs: HOUR, stepMs: DAY },
  ],
};

/** Rows read by one step: a few milliseconds of writing. */
export const STEP_ROWS = 1000;
/** Between two steps while work is left: the event loop serves everything else meanwhile. */
const BUSY_GAP_MS = 50;
/** When nothing was left: look again after this long. */
const IDLE_GAP_MS = MINUTE;
/** The first look waits a little, so ageing does not compete with the app's own start. */
const FIRST_MS = 15_000;

export interface PriceAgerOptions {
  store: Pick<Store, 'prices'>;
  /** Exchange time, near enough (the ager works in quarter hours). Default Date.now. */
  now?: () => number;
  /** A step that failed (a full disk): said, and tried again after the idle gap. */
  onError?: (err: unknown) => void;
  firstMs?: number;
}

/** One ageing step over the store as of `now`. */
export function agePrices(store: Pick<Store, 'prices'>, now: number): AgeingStep {
  return store.prices.ageStep(PRICE_POLICY, now, STEP_ROWS);
}

/** Runs ageing steps on a timer that never keeps the process alive; stop() before closing. */
export class PriceAger {
  readonly #options: PriceAgerOptions;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: PriceAgerOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    this.#schedule(this.#options.firstMs ?? FIRST_MS);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => this.#schedule(this.#step()), delay);
    this.#timer.unref();
  }

  /** One step; returns the wait before the next. */
  #step(): number {
    try {
      const { done } = agePrices(this.#options.store, (this.#options.now ?? Date.now)());
      return done ? IDLE_GAP_MS : BUSY_GAP_MS;
    } catch (err) {
      this.#options.onError?.(err);
      return IDLE_GAP_MS;
    }
  }
}
