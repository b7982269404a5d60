import { describe, expect, test } from 'vitest';
import { distanceWords } from '../../../src/renderer/src/lib/knockout-words.js';
import { isFreshRead } from '../../../src/shared/rules/freshness.js';
import { NOW, position } from '../rows.js';

/** The bet: knockout 0.0379, index 0.0479, read a second ago by a 1 s price watch. */
const alive = position({
  contractId: 'EPL-MUNNEW',
  outcome: 'NEW',
  boosted: true,
  estimatedClosingPrice: '0.0378',
  knockout: '0.0379',
  indexPrice: '0.0479',
  indexReadAt: NOW - 1_000,
  indexStaleAfterMs: 2_000,
  knockoutDistance: { price: '0.0100', fraction: '0.2088' },
});

describe('the distance to the knockout in words', () => {
  test('a bet an index cent above its knockout is neither past it nor stale', () => {
    expect(distanceWords(alive, NOW)).toEqual({
      past: false,
      stale: false,
      status: null,
      index: 'Index 0.0479',
    });
  });

  test('says “near” inside a level, and “at the knockout” when the index reached it', () => {
    const near = {
      ...alive,
      nearLevel: '0.05',
      knockoutDistance: { price: '0.0015', fraction: '0.0381' },
    };
    expect(distanceWords(near, NOW).status).toBe('Near: inside 5.00 %');
    const at = {
      ...alive,
      indexPrice: '0.0379',
      knockoutDistance: { price: '0.0000', fraction: '0.0000' },
    };
    expect(distanceWords(at, NOW)).toMatchObject({ past: true, status: 'Index at the knockout' });
  });

  test('an index read longer ago than twice its polling interval says how old it is, in words', () => {
    expect(distanceWords(alive, NOW + 1_000).stale).toBe(false);
    expect(distanceWords(alive, NOW + 40_000)).toMatchObject({
      stale: true,
      index: 'Index 0.0479 read 41 s ago: stale, no alerts',
    });
    expect(distanceWords({ ...alive, indexReadAt: null }, NOW)).toMatchObject({
      stale: true,
      index: 'Index 0.0479, time read unknown: no alerts',
    });
  });

  test('has nothing to say without a knockout or an index price', () => {
    expect(distanceWords(position(), NOW)).toMatchObject({ status: null, index: null });
    expect(
      distanceWords({ ...alive, indexPrice: null, knockoutDistance: null }, NOW),
    ).toMatchObject({ status: null, index: null });
  });
});

describe('one freshness rule for the screen and the judges', () => {
  test('the row says stale exactly when the alerts and the guardians would not act', () => {
    for (const age of [0, 1_000, 1_999, 2_000, 2_001, 5_000]) {
      const row = { ...alive, indexReadAt: NOW - age };
      const fresh = isFreshRead(row.indexReadAt, row.indexStaleAfterMs, NOW);
      expect(distanceWords(row, NOW).stale, `read ${age} ms ago`).toBe(!fresh);
    }
    expect(isFreshRead(NOW - 2_000, 2_000, NOW)).toBe(true);
    expect(isFreshRead(NOW - 2_001, 2_000, NOW)).toBe(false);
    expect(isFreshRead(null, 2_000, NOW)).toBe(false);
  });
});
