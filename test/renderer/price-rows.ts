/** Price lines and series as main sends them (`prices:lines`, `prices:series`), for the tests. */
import type { PriceCandle, PriceLine, PriceSeries } from '../../src/shared/ipc/contract.js';
import { dec } from '../../src/shared/money.js';
import { NOW } from './rows.js';

export const DAY_MS = 86_400_000;
/** The window main answers for: the 24 h up to NOW. */
export const WINDOW = { from: NOW - DAY_MS, to: NOW };

/** A line of `prices` spread evenly over the window, with first, last and change as main sets them. */
export function priceLine(
  prices: string[],
  over: Partial<PriceLine> = {},
  span: { from: number; to: number } = WINDOW,
): PriceLine {
  const step = prices.length > 1 ? (span.to - span.from) / (prices.length - 1) : 0;
  const points = prices.map((price, i) => ({ at: Math.round(span.from + i * step), price }));
  const first = prices[0] ?? null;
  const last = prices.at(-1) ?? null;
  return {
    contractId: 'EPL-ARSCHE',
    outcome: 'ARS',
    points,
    first,
    last,
    change: first !== null && last !== null ? dec(last).minus(first).toString() : null,
    ...over,
  };
}

/** Raw candles (open = high = low = close), one an hour up to `end`. */
export function candles(prices: string[], end = NOW): PriceCandle[] {
  return prices.map((p, i) => ({
    at: end - (prices.length - 1 - i) * 3_600_000,
    open: p,
    high: p,
    low: p,
    close: p,
    resolution: 'raw',
    stepMs: 0,
  }));
}

export function priceSeries(prices: string[], over: Partial<PriceSeries> = {}): PriceSeries {
  return { contractId: 'EPL-ARSCHE', outcome: 'ARS', points: candles(prices), ...over };
}
