import { expect, test } from 'vitest';
import {
  isIndexPrice,
  nearKnockoutPrice,
  pastKnockoutPrice,
} from '../../../src/shared/desk/knockout.js';

test('the near price sits a few percent above the knockout, the past price below it', () => {
  expect(nearKnockoutPrice('0.2475')).toBe('0.2549');
  expect(nearKnockoutPrice('0.2000', '0.05')).toBe('0.2100');
  expect(pastKnockoutPrice('0.2475')).toBe('0.2375');
});

test('practice prices stay inside the exchange range (0.01, 0.99)', () => {
  expect(pastKnockoutPrice('0.0150')).toBe('0.0100');
  expect(nearKnockoutPrice('0.9800')).toBe('0.9900');
});

test('an index price is a decimal between 0 and 1 with up to four places', () => {
  expect(isIndexPrice('0.5')).toBe(true);
  expect(isIndexPrice('0.2549')).toBe(true);
  for (const bad of ['0', '0.0', '1', '1.0', '0.12345', '.5', 'abc', '-0.5']) {
    expect(isIndexPrice(bad), bad).toBe(false);
  }
});
