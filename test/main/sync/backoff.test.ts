/** The retry wait while the exchange is unreachable: exponential, capped, jittered. */
import { describe, expect, it } from 'vitest';
import { Backoff } from '../../../src/main/sync/backoff.js';

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
    expect(b.next()).toBe(50);
  });
});
