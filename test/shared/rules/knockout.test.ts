import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  isIndexPrice,
  nearKnockoutPrice,
  pastKnockoutPrice,
} from '../../../src/shared/rules/knockout.js';
import { dec } from '../../../src/shared/money.js';

/** (index − knockout) / index: how Betdesk measures the distance to a knockout. */
const distance = (index: string, knockout: string) => dec(index).minus(knockout).dividedBy(index);

test('the near price puts the index inside the deepest alert level, the past price below it', () => {
  expect(nearKnockoutPrice('0.2475')).toBe('0.2512'); // 1.47 %, inside the default 2 %
  expect(nearKnockoutPrice('0.2000', '0.05')).toBe('0.2077'); // 3.71 %, inside 5 %
  expect(pastKnockoutPrice('0.2475')).toBe('0.2375');
});

test('at the issue’s low price the near price is a near knockout on the index', () => {
  // Knockout 0.0379 (boost 60 at 0.06): near is 1.3 % above it on the index.
  const near = nearKnockoutPrice('0.0379');
  expect(near).toBe('0.0384');
  expect(distance(near, '0.0379').toFixed(4)).toBe('0.0130');
});

test('near is always above the knockout and, where the price grid allows, inside the level', () => {
  const knockout = fc
    .integer({ min: 67, max: 9700 })
    .map((n) => dec(n).dividedBy(10_000).toFixed(4));
  const level = fc.constantFrom('0.02', '0.05', '0.1', '0.01');
  fc.assert(
    fc.property(knockout, level, (k, l) => {
      const near = nearKnockoutPrice(k, l);
      expect(isIndexPrice(near)).toBe(true);
      expect(dec(near).gt(k)).toBe(true);
      const d = distance(near, k);
      // One price tick is 0.0001: at the smallest knockouts a tick above is already farther.
      if (dec(k).gt('0.0100')) expect(d.lte(l)).toBe(true);
    }),
  );
});

test('past is at or below the knockout, inside (0.01, 0.99) where the knockout allows it', () => {
  expect(pastKnockoutPrice('0.0150')).toBe('0.0100');
  // Below 0.01 there is no room under the floor: at the knockout is a knockout too.
  expect(pastKnockoutPrice('0.0080')).toBe('0.0080');
  expect(nearKnockoutPrice('0.9800')).toBe('0.9900');
  const knockout = fc
    .integer({ min: 1, max: 9800 })
    .map((n) => dec(n).dividedBy(10_000).toFixed(4));
  fc.assert(
    fc.property(knockout, (k) => {
      const past = pastKnockoutPrice(k);
      expect(isIndexPrice(past)).toBe(true);
      expect(dec(past).lte(k)).toBe(true);
    }),
  );
});

test('an index price is a decimal between 0 and 1 with up to four places', () => {
  expect(isIndexPrice('0.5')).toBe(true);
  expect(isIndexPrice('0.2549')).toBe(true);
  for (const bad of ['0', '0.0', '1', '1.0', '0.12345', '.5', 'abc', '-0.5']) {
    expect(isIndexPrice(bad), bad).toBe(false);
  }
});
