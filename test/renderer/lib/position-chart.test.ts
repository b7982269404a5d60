/** A position's chart as columns (price, entry, knockout, closing now, fills) and as words. */
import { expect, test } from 'vitest';
import { chartColumns, chartSummary } from '../../../src/renderer/src/lib/position-chart.js';
import { NOW, orderRow, position } from '../rows.js';
import { candles } from '../price-rows.js';

const boosted = position({
  entryPrice: '0.5000',
  knockout: '0.4000',
  boosted: true,
  estimatedClosingPrice: '0.5400',
});
const plain = position({ entryPrice: '0.5000', estimatedClosingPrice: '0.5400' });
const points = candles(['0.5000', '0.4800', '0.5500']);
const buy = orderRow({
  clientOrderId: 'b',
  side: 'BUY',
  contracts: 10,
  entryPrice: '0.5000',
  createdAt: NOW - 5400_000,
});
const sell = orderRow({
  clientOrderId: 's',
  side: 'SELL',
  contracts: 4,
  entryPrice: '0.5500',
  createdAt: NOW - 600_000,
});

test('the columns share one time axis: prices, the fills between them, and now at the end', () => {
  const c = chartColumns(points, [buy, sell], boosted, NOW + 60_000);
  expect(c.at).toEqual([
    NOW - 7_200_000,
    NOW - 5_400_000,
    NOW - 3_600_000,
    NOW - 600_000,
    NOW,
    NOW + 60_000,
  ]);
  // The last price holds until now: its line runs to the end of the axis (issue 27 item 12).
  expect(c.price).toEqual([0.5, null, 0.48, null, 0.55, 0.55]);
  expect(c.exact.price[5]).toBe('0.5500');
  expect(c.buys).toEqual([null, 0.5, null, null, null, null]);
  expect(c.sells).toEqual([null, null, null, 0.55, null, null]);
  expect(c.closing).toEqual([null, null, null, null, null, 0.54]);
  expect(new Set(c.entry)).toEqual(new Set([0.5]));
  expect(new Set(c.knockout)).toEqual(new Set([0.4]));
  // The legend's figures are the exchange's own strings.
  expect(c.exact.price[2]).toBe('0.4800');
  expect(c.exact.sells[3]).toBe('0.5500');
});

test('an unboosted position has no knockout line', () => {
  expect(chartColumns(points, [], plain, NOW).knockout).toBeNull();
});

test('the summary says where the price went, the lines, and each fill', () => {
  const words = chartSummary(points, [buy, sell], boosted);
  expect(words).toMatch(
    /^ARS index price from 0\.5000 on .+ to 0\.5500 on .+; lowest 0\.4800, highest 0\.5500\./,
  );
  expect(words).toContain('Entry price 0.5000.');
  expect(words).toContain('Knockout at 0.4000.');
  expect(words).toContain('Estimated closing price now 0.5400.');
  expect(words).toMatch(
    /2 fills: bought 10 contracts at 0\.5000 on .+; sold 4 contracts at 0\.5500 on .+\.$/,
  );
});

test('without prices or fills the summary says so rather than guess', () => {
  const words = chartSummary([], [], plain);
  expect(words).toContain('No index price recorded for ARS yet.');
  expect(words).toContain('Not boosted: no knockout.');
  expect(words).toContain('No fills stored for this position.');
});
