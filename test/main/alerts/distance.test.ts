/** The distance to the knockout and the alert levels' hysteresis, as pure rules. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialStates, knockoutDistance, ladder, step } from '../../../src/main/alerts/index.js';
import { dec } from '../../../src/shared/money.js';

const defaults = ladder();
const fresh = () => initialStates(defaults.levels.map(() => 0));

describe('knockout distance', () => {
  it('is the share of the index price left above the knockout', () => {
    expect(knockoutDistance('0.40', '0.30').toString()).toBe('0.25');
    expect(knockoutDistance('0.30', '0.30').toString()).toBe('0');
    expect(knockoutDistance('0.28', '0.30').isNegative()).toBe(true);
  });

  it('keeps a low-priced bet an index cent above its knockout far from it (the issue: 0.0479 over 0.0379)', () => {
    // The exchange knocks out when the index falls to the knockout; the closing estimate for
    // that index, 0.0378, is below the knockout and must not be what is measured.
    expect(knockoutDistance('0.0479', '0.0379').toFixed(4)).toBe('0.2088');
    expect(knockoutDistance('0.0379', '0.0379').isZero()).toBe(true);
    expect(knockoutDistance('0.0378', '0.0379').isNegative()).toBe(true);
  });

  it('is a fall of that share of the index away from the knockout, at any price', () => {
    const price = fc.integer({ min: 2, max: 9999 }).map((n) => dec(n).dividedBy(10_000));
    fc.assert(
      fc.property(price, price, (index, knockout) => {
        const d = knockoutDistance(index, knockout);
        // The index falling by d of itself lands exactly on the knockout.
        expect(index.times(dec(1).minus(d)).minus(knockout).abs().lt('1e-30')).toBe(true);
        expect(d.gt(0)).toBe(index.gt(knockout));
      }),
    );
  });
});

describe('alert levels', () => {
  it('default to 10%, 5% and 2% with a 1-point margin, deepest last', () => {
    expect(defaults.levels.map(String)).toEqual(['0.1', '0.05', '0.02']);
    expect(defaults.margin.toString()).toBe('0.01');
    expect(ladder(['0.02', 0.1, '0.05']).levels.map(String)).toEqual(['0.1', '0.05', '0.02']);
    expect(() => ladder(['1.5'])).toThrow(RangeError);
    expect(() => ladder([])).toThrow(RangeError);
  });

  it('fire only the deepest level a jump crosses, and spend the others', () => {
    const s = fresh();
    expect(step(defaults, s, dec('0.015'))).toBe(2);
    expect(step(defaults, s, dec('0.045'))).toBeNull(); // 5% was spent by the jump
    expect(step(defaults, s, dec('0.095'))).toBeNull(); // 10% too; 5% and 2% re-arm here
    expect(step(defaults, s, dec('0.04'))).toBe(1);
  });

  it('start spent after a restart for a level that fired before, and the levels above it', () => {
    const s = initialStates([1, 1, 0]);
    expect(s.map((x) => x.armed)).toEqual([false, false, true]);
    expect(step(defaults, s, dec('0.045'))).toBeNull();
    expect(step(defaults, s, dec('0.015'))).toBe(2);
  });

  it('never fire a level twice unless the distance recovered past it plus the margin', () => {
    const distance = fc.integer({ min: -50, max: 1500 }).map((n) => dec(n).dividedBy(10_000)); // -0.5% to 15%, 0.01% steps
    fc.assert(
      fc.property(fc.array(distance, { minLength: 1, maxLength: 200 }), (ds) => {
        const s = fresh();
        const recovered = defaults.levels.map(() => true);
        for (const d of ds) {
          const fired = step(defaults, s, d);
          defaults.levels.forEach((level, i) => {
            if (d.gt(level.plus(defaults.margin))) recovered[i] = true;
          });
          if (fired !== null) {
            expect(d.lte(defaults.levels[fired]!)).toBe(true);
            expect(recovered[fired]).toBe(true);
            defaults.levels.forEach((level, i) => {
              if (d.lte(level)) recovered[i] = false;
            });
          }
        }
      }),
    );
  });

  it('fire each level exactly once on a steady fall through all of them', () => {
    const s = fresh();
    const fired: number[] = [];
    for (let bp = 1500; bp >= 0; bp -= 25) {
      const i = step(defaults, s, dec(bp).dividedBy(10_000));
      if (i !== null) fired.push(i);
    }
    expect(fired).toEqual([0, 1, 2]);
  });
});
