import { expect, test } from 'vitest';
import { fractionToPercent, percentToFraction } from '../../../src/shared/rules/percent.js';

test('fractions read as percentages', () => {
  expect(fractionToPercent('0.10')).toBe('10');
  expect(fractionToPercent('0.05')).toBe('5');
  expect(fractionToPercent('0.125')).toBe('12.5');
  expect(fractionToPercent('0.0001')).toBe('0.01');
});

test('percentages become the fractions the contract takes', () => {
  expect(percentToFraction('10')).toBe('0.1');
  expect(percentToFraction('5')).toBe('0.05');
  expect(percentToFraction(' 2.5 % ')).toBe('0.025');
  expect(percentToFraction('0.01')).toBe('0.0001');
  for (const f of ['10', '5', '2.5', '0.01', '99.99']) {
    expect(percentToFraction(f)).toMatch(/^0\.[0-9]{1,4}$/);
  }
});

test('a percentage outside (0, 100), too precise, or not a number is refused', () => {
  for (const bad of ['0', '100', '150', '-5', '0.001', '1e2', 'five', '']) {
    expect(percentToFraction(bad), bad).toBeNull();
  }
});
