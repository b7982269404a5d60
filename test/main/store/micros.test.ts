/** toMicros / fromMicros (src/shared/money.ts): the exact integer amounts the store sums. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec, fromMicros, toMicros } from '../../../src/shared/money.js';

describe('toMicros', () => {
  it('reads a decimal string as whole millionths of a dollar', () => {
    expect(toMicros('12.34')).toBe(12_340_000);
    expect(toMicros('-0.5')).toBe(-500_000);
    expect(toMicros('0')).toBe(0);
    expect(toMicros('-0.00')).toBe(0);
    expect(Object.is(toMicros('-0.0000001'), 0)).toBe(true);
    expect(toMicros('0.000001')).toBe(1);
    expect(toMicros('1000000.10')).toBe(1_000_000_100_000);
    expect(toMicros('007.5')).toBe(7_500_000);
  });

  it('rounds past the sixth place half to even', () => {
    expect(toMicros('0.0000005')).toBe(0);
    expect(toMicros('0.0000015')).toBe(2);
    expect(toMicros('0.0000025')).toBe(2);
    expect(toMicros('0.00000250000001')).toBe(3);
    expect(toMicros('0.0000024999')).toBe(2);
    expect(toMicros('-0.0000015')).toBe(-2);
    expect(toMicros('-12.3456785')).toBe(-12_345_678);
    expect(toMicros('-12.3456795')).toBe(-12_345_680);
  });

  it('agrees with decimal.js rounding half-even for any amount', () => {
    const amount = fc
      .tuple(
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 9_000_000_000n }),
        fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 12 }),
      )
      .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === '' ? '' : `.${frac}`}`);
    fc.assert(
      fc.property(amount, (s) => {
        const want = dec(s).times(1_000_000).toDecimalPlaces(0, 6).toNumber();
        expect(toMicros(s)).toBe(want === 0 ? 0 : want);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what is not a decimal string, and what a JS number cannot hold exactly', () => {
    for (const bad of ['', '1e3', '+1', '1.', '.5', '1,5', ' 1', 'NaN', '0x10', '--1']) {
      expect(() => toMicros(bad), bad).toThrow(RangeError);
    }
    expect(toMicros('9007199254.740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => toMicros('9007199254.740992')).toThrow(RangeError);
    expect(() => toMicros('9007199254.7409915')).toThrow(RangeError); // rounds up past it
    expect(() => toMicros('-99999999999999999999')).toThrow(/too large/);
  });
});

describe('fromMicros', () => {
  it('writes the exact decimal string, no trailing zeros, no exponent', () => {
    expect(fromMicros(12_340_000)).toBe('12.34');
    expect(fromMicros(-500_000)).toBe('-0.5');
    expect(fromMicros(0)).toBe('0');
    expect(fromMicros(1)).toBe('0.000001');
    expect(fromMicros(-1)).toBe('-0.000001');
    expect(fromMicros(5_000_000)).toBe('5');
    expect(fromMicros(Number.MAX_SAFE_INTEGER)).toBe('9007199254.740991');
    expect(fromMicros(1e21 / 1e6)).toBe('1000000000');
  });

  it('refuses a number that is not a whole, safe count of micros', () => {
    for (const bad of [0.5, Number.NaN, Infinity, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => fromMicros(bad)).toThrow(RangeError);
    }
  });

  it('round-trips with toMicros', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(toMicros(fromMicros(n))).toBe(n);
        expect(dec(fromMicros(n)).times(1_000_000).toFixed()).toBe(String(n));
      }),
      { numRuns: 2000 },
    );
  });
});
