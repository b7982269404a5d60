/**
 * A Markets row's 24 h price line (docs/ipc.md, `prices:lines`): the SVG path drawn from its
 * points and the same line in words for screen readers. Plain functions, cheap enough for 400
 * lines a page: no chart library, one path string each.
 */
import type { PriceLine } from '../../../shared/ipc/contract.js';
import { cmp, dec } from '../../../shared/money.js';

/** The smallest span of prices the line's height stands for: a cent's move is never a cliff. */
export const MIN_SPAN = 0.02;
const sinceFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** A line whose first point is this much younger than the window says "since" its time. */
const PARTIAL_MS = 3_600_000;

export interface LineBox {
  width: number;
  height: number;
}

/**
 * The path of `line` inside `box` over the window `from`…`to`: time left to right, price bottom
 * to top, held flat from the last point to the window's end (the price stands until it moves).
 * Pixels are floats by nature, so prices become numbers here, for drawing only; the words come
 * from the decimal strings. Empty when the line has no point.
 */
export function linePath(line: PriceLine, from: number, to: number, box: LineBox): string {
  const pts = line.points;
  const n = pts.length;
  if (n === 0) return '';
  const prices = new Array<number>(n);
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < n; i++) {
    const p = Number(pts[i]?.price);
    prices[i] = p;
    if (p < low) low = p;
    if (p > high) high = p;
  }
  if (high - low < MIN_SPAN) {
    const mid = (high + low) / 2;
    low = mid - MIN_SPAN / 2;
    high = mid + MIN_SPAN / 2;
  }
  const pad = 1.5;
  const xScale = (box.width - 2 * pad) / Math.max(1, to - from);
  const yScale = (box.height - 2 * pad) / (high - low);
  const tenth = (v: number) => Math.round(v * 10) / 10;
  const xOf = (i: number) =>
    tenth(pad + xScale * (Math.min(Math.max(pts[i]?.at ?? from, from), to) - from));
  // One vertex per pixel column at most (the last price in it): 200 points in 56 px draw the same.
  const parts: string[] = [];
  let x = xOf(0);
  for (let i = 0; i < n; i++) {
    const next = i + 1 < n ? xOf(i + 1) : Infinity;
    if (i === 0 || Math.floor(next) !== Math.floor(x)) {
      const y = tenth(pad + yScale * (high - (prices[i] ?? low)));
      parts.push(`${parts.length === 0 ? 'M' : 'L'}${x} ${y}`);
    }
    x = next;
  }
  parts.push(`H${tenth(box.width - pad)}`);
  return parts.join('');
}

/** "3.1 cents", "1 cent", "0.05 cents": a price move as cents, without trailing zeros. */
export function centsText(change: string): string {
  const cents = dec(change).abs().times(100).toDecimalPlaces(2);
  return `${cents.toString()} cent${cents.eq(1) ? '' : 's'}`;
}

/**
 * The line in words: "ARS up 3.1 cents in 24 hours, from 0.512 to 0.543". A line recorded for
 * less of the window says since when; a line without a point says so rather than guess.
 */
export function lineWords(line: PriceLine | null, outcome: string, from: number): string {
  const first = line?.first ?? null;
  const last = line?.last ?? null;
  const oldest = line?.points[0]?.at;
  if (!line || first === null || last === null || oldest === undefined) {
    return `${outcome}: no price history yet`;
  }
  const since = oldest > from + PARTIAL_MS ? `since ${sinceFormat.format(oldest)}` : 'in 24 hours';
  const change = line.change ?? dec(last).minus(first).toString();
  const sign = cmp(change, 0);
  if (sign === 0) return `${outcome} unchanged ${since}, at ${last}`;
  const way = sign > 0 ? 'up' : 'down';
  return `${outcome} ${way} ${centsText(change)} ${since}, from ${first} to ${last}`;
}

/** "+3.1¢", "−0.5¢", "0¢": the change shown beside the line, the sign always written. */
export function changeMark(line: PriceLine | null): string | null {
  if (!line || line.change === null) return null;
  const sign = cmp(line.change, 0);
  const cents = dec(line.change).abs().times(100).toDecimalPlaces(1).toString();
  return `${sign > 0 ? '+' : sign < 0 ? '−' : ''}${cents}¢`;
}
