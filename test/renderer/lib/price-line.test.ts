/** A Markets row's 24 h line: its path from the points, and its words, up, down, flat and none. */
import { expect, test } from 'vitest';
import {
  centsText,
  changeMark,
  linePath,
  lineWords,
} from '../../../src/renderer/src/lib/price-line.js';
import { NOW } from '../rows.js';
import { priceLine, WINDOW } from '../price-rows.js';

const BOX = { width: 56, height: 18 };
const { from, to } = WINDOW;

/** The path's points as [x, y] pairs, and where its last flat step ends. */
function coordinates(d: string): { points: number[][]; end: number } {
  const [moves = '', end = ''] = d.split('H');
  const points = [...moves.matchAll(/[ML]([\d.]+) ([\d.]+)/g)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
  return { points, end: Number(end) };
}

test('a rising line climbs left to right across the whole window, in words with its cents', () => {
  const line = priceLine(['0.512', '0.520', '0.543']);
  const { points, end } = coordinates(linePath(line, from, to, BOX));
  expect(points).toHaveLength(3);
  expect(points[0]?.[0]).toBe(1.5);
  expect(points[2]?.[0]).toBe(54.5);
  // Up is towards the top of the box: the last point is the highest, at the top padding.
  expect(points[2]?.[1]).toBe(1.5);
  expect(points[0]?.[1]).toBe(16.5);
  expect(end).toBe(54.5);
  expect(lineWords(line, 'ARS', from)).toBe('ARS up 3.1 cents in 24 hours, from 0.512 to 0.543');
  expect(changeMark(line)).toBe('+3.1¢');
});

test('a falling line descends, and says down', () => {
  const line = priceLine(['0.6000', '0.5500']);
  const { points } = coordinates(linePath(line, from, to, BOX));
  expect(points[0]?.[1]).toBeLessThan(points[1]?.[1] ?? 0);
  expect(lineWords(line, 'CHE', from)).toBe('CHE down 5 cents in 24 hours, from 0.6000 to 0.5500');
  expect(changeMark(line)).toBe('−5¢');
});

test('a flat line sits in the middle of the box, not on a cliff, and says unchanged', () => {
  const line = priceLine(['0.5000', '0.5000', '0.5000']);
  const { points } = coordinates(linePath(line, from, to, BOX));
  expect(new Set(points.map((p) => p[1]))).toEqual(new Set([9]));
  expect(lineWords(line, 'ARS', from)).toBe('ARS unchanged in 24 hours, at 0.5000');
  expect(changeMark(line)).toBe('0¢');
});

test('a move of a tenth of a cent is drawn small: the height stands for two cents at least', () => {
  const line = priceLine(['0.5000', '0.5010']);
  const { points } = coordinates(linePath(line, from, to, BOX));
  const rise = (points[0]?.[1] ?? 0) - (points[1]?.[1] ?? 0);
  expect(rise).toBeGreaterThan(0);
  expect(rise).toBeLessThan(1.5);
  expect(centsText('0.001')).toBe('0.1 cents');
  expect(centsText('-0.01')).toBe('1 cent');
});

test('no point: no path and no guess, "no price history yet"', () => {
  const line = priceLine([]);
  expect(linePath(line, from, to, BOX)).toBe('');
  expect(lineWords(line, 'ARS', from)).toBe('ARS: no price history yet');
  expect(lineWords(null, 'ARS', from)).toBe('ARS: no price history yet');
  expect(changeMark(null)).toBeNull();
});

test('a line recorded for part of the window says since when, and holds its last price', () => {
  const line = priceLine(['0.40', '0.42'], {}, { from: NOW - 3 * 3_600_000, to: NOW - 3_600_000 });
  const words = lineWords(line, 'ARS', from);
  expect(words).toMatch(/^ARS up 2 cents since \S+/);
  expect(words).not.toContain('24 hours');
  const { points, end } = coordinates(linePath(line, from, to, BOX));
  expect(points[0]?.[0]).toBeCloseTo(1.5 + (53 * 21) / 24, 0);
  expect(end).toBe(54.5);
});

test('two hundred points draw one vertex per pixel column at most, the last price in each', () => {
  const prices = Array.from({ length: 200 }, (_, i) => (0.5 + (i % 7) / 1000).toFixed(4));
  const line = priceLine(prices);
  const { points, end } = coordinates(linePath(line, from, to, BOX));
  expect(points.length).toBeLessThanOrEqual(BOX.width + 1);
  expect(new Set(points.map((p) => Math.floor(p[0] ?? 0))).size).toBeGreaterThan(points.length - 2);
  // The newest price is the line's last vertex.
  const last = coordinates(linePath(priceLine([prices[0] ?? '', '0.5500']), from, to, BOX));
  expect(points.at(-1)?.[0]).toBe(54.5);
  expect(last.points.at(-1)?.[1]).toBe(1.5);
  expect(end).toBe(54.5);
});
