/** The one retry wait of the app: exponential, capped, jittered (sync engine and trading). */
import { describe, expect, it } from 'vitest';
import { Backoff } from '../../src/shared/backoff.js';

describe('backoff', () => {
  it('doubles from the first wait up to the cap, each wait between half and all of its step', () => {
    const low = new Backoff({ initialMs: 100, maxMs: 1000 }, () => 0);
    const high = new Backoff({ initialMs: 100, maxMs: 1000 }, () => 0.999999);
    const lows = Array.from({ length: 7 }, () => low.next());
    const highs = Array.from({ length: 7 }, () => high.next());
    expect(lows).toEqual([50, 100, 200, 400, 500, 500, 500]);
    expect(highs).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });

  it('spreads clients that failed together and starts over after a success', () => {
    const waits = new Set(
      Array.from({ length: 50 }, () => new Backoff({ initialMs: 1000, maxMs: 30_000 }).next()),
    );
    expect(waits.size).toBeGreaterThan(10);
    const b = new Backoff({ initialMs: 100, maxMs: 1000 }, () => 0);
    b.next();
    b.next();
    expect(b.attempt).toBe(2);
    b.reset();
    expect(b.attempt).toBe(0);
    expect(b.next()).toBe(50);
  });

  it('grows by the factor given and never waits less than a Retry-After floor', () => {
    const b = new Backoff({ initialMs: 200, maxMs: 1000, factor: 1.5 }, () => 0.999999);
    expect(Array.from({ length: 6 }, () => b.next())).toEqual([200, 300, 450, 675, 1000, 1000]);
    const floored = new Backoff({ initialMs: 200, maxMs: 1000 }, () => 0);
    expect(floored.next(750)).toBe(750);
    expect(floored.next(0)).toBe(200);
  });
});
