/** The equity curve in words: over its period, or since the accounts' first record. */
import { expect, test } from 'vitest';
import {
  equityWords,
  spanWords,
} from '../../../src/renderer/src/components/portfolio/portfolio-words.js';
import { equitySeries } from '../portfolio-rows.js';
import { NOW } from '../rows.js';

const live = { kind: 'live' as const };

test('a curve over its whole period says the period', () => {
  const series = equitySeries(live, 'month');
  expect(spanWords(series)).toBe('over the last month');
  expect(equityWords(series)).toMatch(/^Equity over the last month: up \$15\.00, from /);
  expect(spanWords(equitySeries(live, 'all'))).toBe('over all time');
});

test('a curve that starts at the first record, younger than the period, says since when', () => {
  const young = { ...equitySeries(live, 'month'), from: NOW - 3 * 3_600_000 };
  expect(spanWords(young)).toMatch(/^since /);
  expect(spanWords(young)).not.toContain('month');
  expect(equityWords(young)).toMatch(/^Equity since .+: up \$15\.00, from /);
});
