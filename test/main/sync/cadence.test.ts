/** Each stream's next poll after a pass, and the outage the probe tracks: pure, no exchange. */
import { describe, expect, it } from 'vitest';
import { Backoff } from '../../../src/shared/backoff.js';
import { DEFAULT_INTERVALS as I } from '../../../src/main/sync/intervals.js';
import { Reachability } from '../../../src/main/sync/offline.js';
import { nextPollAfter, type CadenceFacts } from '../../../src/main/sync/stream-state.js';

const facts = (over: Partial<CadenceFacts> = {}): CadenceFacts => ({
  pendingOrders: false,
  sweepReading: false,
  boostedOpen: false,
  ...over,
});

describe('the cadence of the streams', () => {
  it('follows pending orders closely and idles otherwise', () => {
    expect(nextPollAfter('orders', I, 0, facts({ pendingOrders: true }))).toBe(I.ordersPendingMs);
    expect(nextPollAfter('orders', I, 0, facts())).toBe(I.ordersIdleMs);
  });

  it('leaves the orders to a history sweep unless one of ours is pending', () => {
    expect(nextPollAfter('orders', I, 0, facts({ sweepReading: true }))).toBeNull();
    expect(nextPollAfter('orders', I, 0, facts({ sweepReading: true, pendingOrders: true }))).toBe(
      I.ordersPendingMs,
    );
  });

  it('reads positions fast and prices at all only while a boosted position is open', () => {
    expect(nextPollAfter('positions', I, 5, facts({ boostedOpen: true }))).toBe(
      5 + I.positionsBoostedMs,
    );
    expect(nextPollAfter('positions', I, 5, facts())).toBe(5 + I.positionsIdleMs);
    expect(nextPollAfter('prices', I, 5, facts({ boostedOpen: true }))).toBe(5 + I.pricesMs);
    expect(nextPollAfter('prices', I, 5, facts())).toBeNull();
  });
});

describe('an outage', () => {
  it('starts once, backs the probe off further each time, and ends at the first answer', () => {
    const r = new Reachability(new Backoff({ initialMs: 100, maxMs: 1000 }, () => 0.999999));
    expect(r.answered(50)).toBeNull();
    expect(r.lost(1000)).toBe(true);
    expect(r.probeFailed('down')).toBe(100);
    expect(r.lost(1100)).toBe(false);
    expect(r.probeFailed('still down')).toBe(200);
    expect([r.offline, r.offlineSince, r.error]).toEqual([true, 1000, 'still down']);
    expect(r.answered(1600)).toBe(600);
    expect([r.offline, r.offlineSince, r.error]).toEqual([false, null, null]);
    // The next outage starts from the first wait again.
    r.lost(2000);
    expect(r.probeFailed('down again')).toBe(100);
  });
});
