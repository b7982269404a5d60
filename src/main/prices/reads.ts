/**
 * The reads of prices over time (docs/prices.md): pure and synchronous over a store's prices
 * repository, so they run on the main connection or on a read connection in a worker thread
 * alike. Prices leave as decimal strings with at least 4 places, as the exchange quotes them.
 */
import type {
  PriceCandle,
  PriceLine,
  PriceLines,
  PriceLinesQuery,
  PricePoint,
  PriceSeries,
  PriceSeriesQuery,
} from '../../shared/ipc/schemas/prices.js';
import { fromMicros } from '../../shared/money.js';
import type { Candle, Store } from '../store/index.js';
import { RECENT_STEP_MS } from './ageing.js';

/** The Markets line's window. */
export const LINE_WINDOW_MS = 24 * 3_600_000;
/** Candles of a series at most (the contract's bound). */
export const SERIES_POINTS = 5000;

export type PricesReader = Pick<Store, 'prices'>;

/**
 * The account's 24 h line of every outcome of the fixtures asked, in one query over the
 * recorder's 15-minute buckets: the price carried in at `from`, then each quarter hour's
 * close at its end (the current one's at `now`). `from` is now − 24 h, to the next quarter
 * hour, so at most 98 points.
 */
export function priceLines(
  store: PricesReader,
  input: PriceLinesQuery & { accountId: number },
  now: number,
): PriceLines {
  const from = Math.ceil((now - LINE_WINDOW_MS) / RECENT_STEP_MS) * RECENT_STEP_MS;
  const rows = store.prices.lineRows(input.accountId, input.contractIds, from, now);
  const lines: PriceLine[] = [];
  for (const r of rows) {
    const points: PricePoint[] = [];
    let first = r.carried;
    let last = r.carried;
    if (r.carried !== null) points.push({ at: from, price: priceText(r.carried) });
    const cells = r.buckets === null ? [] : r.buckets.split(' ').map(Number);
    for (let i = 0; i + 2 < cells.length; i += 3) {
      const [at, open, close] = [cells[i]!, cells[i + 1]!, cells[i + 2]!];
      // Nothing carried in: the line starts at its first bucket's open, when it was recorded
      // (not the quarter hour it falls in: a line says "since" its first price's own time).
      if (first === null) {
        first = open;
        const firstAt = r.firstAt !== null && r.firstAt > at ? r.firstAt : at;
        points.push({ at: Math.min(firstAt, at + RECENT_STEP_MS, now), price: priceText(open) });
      }
      points.push({ at: Math.min(at + RECENT_STEP_MS, now), price: priceText(close) });
      last = close;
    }
    if (first === null || last === null) continue;
    const { contractId, outcome } = r;
    lines.push({
      contractId,
      outcome,
      points,
      first: priceText(first),
      last: priceText(last),
      change: priceText(last - first),
    });
  }
  return { from, to: now, lines };
}

/**
 * One outcome's prices over [from, to): buckets where only buckets are kept, raw points after;
 * evenly thinned to SERIES_POINTS by merging the candles of equal spans of time.
 */
export function priceSeries(
  store: PricesReader,
  input: PriceSeriesQuery & { accountId: number },
  now: number,
): PriceSeries {
  const { contractId, outcome } = input;
  const series = store.prices.series(input.accountId, contractId, outcome);
  if (series === undefined) return { contractId, outcome, points: [] };
  const from = input.from ?? store.prices.oldest(series.id) ?? now;
  const to = input.to ?? now + 1;
  const candles = thin(store.prices.candles(series.id, from, to), from, to, SERIES_POINTS);
  return { contractId, outcome, points: candles.map(candleOut) };
}

/** At most `max` candles: those of each of `max` equal spans of [from, to) merged into one. */
export function thin(candles: Candle[], from: number, to: number, max: number): Candle[] {
  if (candles.length <= max) return candles;
  const start = Math.min(from, candles[0]!.at);
  const span = Math.ceil((to - start) / max);
  const out: Candle[] = [];
  let k = -1;
  for (const c of candles) {
    const ck = Math.floor((c.at - start) / span);
    const last = out.at(-1);
    if (last !== undefined && ck === k) {
      last.stepMs = span;
      last.high = Math.max(last.high, c.high);
      last.low = Math.min(last.low, c.low);
      last.close = c.close;
    } else {
      out.push({ ...c });
      k = ck;
    }
  }
  return out;
}

function candleOut(c: Candle): PriceCandle {
  return {
    at: c.at,
    open: priceText(c.open),
    high: priceText(c.high),
    low: priceText(c.low),
    close: priceText(c.close),
    resolution: c.stepMs === 0 ? 'raw' : 'bucket',
    stepMs: c.stepMs,
  };
}

/** A price in micros as the exchange writes it: at least 4 places ("0.0700"). */
export function priceText(micros: number): string {
  let text = TEXTS.get(micros);
  if (text === undefined) {
    text = spell(micros);
    if (TEXTS.size >= TEXTS_KEPT) TEXTS.clear();
    TEXTS.set(micros, text);
  }
  return text;
}

/**
 * The texts of prices already spelled: a line of 200 fixtures spells tens of thousands of
 * prices, most of them the same few thousand (prices move in steps of 0.0001).
 */
const TEXTS = new Map<number, string>();
const TEXTS_KEPT = 20_000;

function spell(micros: number): string {
  const s = fromMicros(micros);
  const dot = s.indexOf('.');
  const places = dot < 0 ? 0 : s.length - dot - 1;
  if (places >= 4) return s;
  return `${s}${dot < 0 ? '.' : ''}${'0'.repeat(4 - places)}`;
}
