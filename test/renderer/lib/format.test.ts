import { describe, expect, test } from 'vitest';
import {
  count,
  digits,
  fixtureName,
  money,
  offset,
  priceText,
} from '../../../src/renderer/src/lib/format.js';

describe('numbers on screen', () => {
  test('money from decimal strings, a dash for nothing or for what is not a decimal', () => {
    expect(money('1234.5')).toBe('$1,234.50');
    expect(money('0.005')).toMatch(/^\$0\.0[01]$/);
    expect(money(null)).toBe('—');
    expect(money(undefined)).toBe('—');
    expect(money('NaN')).toBe('—');
  });

  test('digits are grouped from the string itself, beyond what a float holds', () => {
    expect(digits('1234567')).toBe('1,234,567');
    expect(digits('12345678901234567890.5')).toBe('12,345,678,901,234,567,890.5');
    expect(digits('999')).toBe('999');
  });

  test('prices as the exchange sent them, counts grouped, a dash for nothing', () => {
    expect(priceText('0.5123')).toBe('0.5123');
    expect(priceText(null)).toBe('—');
    expect(count(1_000_000)).toBe((1_000_000).toLocaleString());
    expect(count(undefined)).toBe('—');
  });

  test('a clock offset is signed with a real minus sign', () => {
    expect(offset(120)).toBe('+120 ms');
    expect(offset(-3)).toBe('−3 ms');
    expect(offset(0)).toBe('+0 ms');
  });

  test('a fixture is named home v away', () => {
    expect(fixtureName({ homeTeam: 'ARS', awayTeam: 'CHE' })).toBe('ARS v CHE');
  });
});
