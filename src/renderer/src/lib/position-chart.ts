/**
 * A position's chart as data and as words: the columns uPlot draws (the outcome's price, the
 * entry and knockout lines, the closing estimate now, the fills) and the summary a screen reader
 * reads instead. Prices stay decimal strings for every figure shown; numbers only for drawing.
 */
import type { OrderRow, PriceCandle, PositionRow } from '../../../shared/ipc/contract.js';
import { cmp } from '../../../shared/money.js';
import { contractCount, dateTime } from './format.js';

/** The figures of the position the chart draws as lines and marks. */
export type ChartPosition = Pick<
  PositionRow,
  'outcome' | 'entryPrice' | 'knockout' | 'estimatedClosingPrice' | 'boosted'
>;

/** One column per series, all on the same times; null where a series has no point. */
export interface ChartColumns {
  at: number[];
  price: (number | null)[];
  entry: number[];
  knockout: number[] | null;
  closing: (number | null)[];
  buys: (number | null)[];
  sells: (number | null)[];
  /** The exact text of each point, for the legend: by series name, then by time index. */
  exact: {
    price: (string | null)[];
    buys: (string | null)[];
    sells: (string | null)[];
  };
}

/** A fill's price: what it filled at; null for a row that carries none. */
function fillPrice(o: OrderRow): string | null {
  return o.entryPrice;
}

/**
 * The chart's columns over the union of the price times, the fill times and `now`; the price
 * line runs to `now` at its last price. Pixels are floats by nature, so the prices become
 * numbers here, for drawing only.
 */
export function chartColumns(
  points: readonly PriceCandle[],
  fills: readonly OrderRow[],
  position: ChartPosition,
  now: number,
): ChartColumns {
  const times = new Set<number>();
  for (const p of points) times.add(p.at);
  for (const f of fills) if (fillPrice(f) !== null) times.add(f.createdAt);
  const lastAt = points.at(-1)?.at ?? 0;
  const end = Math.max(now, lastAt);
  times.add(end);
  const at = [...times].sort((a, b) => a - b);
  const index = new Map(at.map((t, i) => [t, i]));
  const empty = <T>() => at.map((): T | null => null);
  const price = empty<number>();
  const closing = empty<number>();
  const buys = empty<number>();
  const sells = empty<number>();
  const exact = { price: empty<string>(), buys: empty<string>(), sells: empty<string>() };
  for (const p of points) {
    const i = index.get(p.at) ?? 0;
    price[i] = Number(p.close);
    exact.price[i] = p.close;
  }
  for (const f of fills) {
    const fp = fillPrice(f);
    if (fp === null) continue;
    const i = index.get(f.createdAt) ?? 0;
    const [col, text] = f.side === 'SELL' ? [sells, exact.sells] : [buys, exact.buys];
    col[i] = Number(fp);
    text[i] = fp;
  }
  // Prices are recorded when they change: the last one holds until now, and its line runs there.
  const last = points.at(-1);
  if (last && end > last.at) {
    const i = index.get(end) ?? 0;
    price[i] = Number(last.close);
    exact.price[i] = last.close;
  }
  closing[index.get(end) ?? 0] = Number(position.estimatedClosingPrice);
  return {
    at,
    price,
    entry: at.map(() => Number(position.entryPrice)),
    knockout: position.knockout === null ? null : at.map(() => Number(position.knockout)),
    closing,
    buys,
    sells,
    exact,
  };
}

/** "bought 10 contracts at 0.5000 on 26 Nov, 14:03:09". */
export function fillWords(o: OrderRow): string {
  const verb = o.side === 'SELL' ? 'sold' : 'bought';
  const size = o.contracts === null ? '' : ` ${contractCount(o.contracts)}`;
  return `${verb}${size} at ${o.entryPrice ?? 'an unknown price'} on ${dateTime(o.createdAt)}`;
}

/**
 * The chart in words: where the price went, its low and high, the lines drawn, and each fill
 * (the first ten, then how many more).
 */
export function chartSummary(
  points: readonly PriceCandle[],
  fills: readonly OrderRow[],
  position: ChartPosition,
): string {
  const first = points[0];
  const last = points.at(-1);
  const parts: string[] = [];
  if (first && last) {
    let low = first.low;
    let high = first.high;
    for (const p of points) {
      if (cmp(p.low, low) < 0) low = p.low;
      if (cmp(p.high, high) > 0) high = p.high;
    }
    parts.push(
      `${position.outcome} index price from ${first.open} on ${dateTime(first.at)} to ${last.close} ` +
        `on ${dateTime(last.at)}; lowest ${low}, highest ${high}.`,
    );
  } else {
    parts.push(`No index price recorded for ${position.outcome} yet.`);
  }
  parts.push(`Entry price ${position.entryPrice}.`);
  parts.push(
    position.knockout === null ? 'Not boosted: no knockout.' : `Knockout at ${position.knockout}.`,
  );
  parts.push(`Estimated closing price now ${position.estimatedClosingPrice}.`);
  if (fills.length === 0) {
    parts.push('No fills stored for this position.');
  } else {
    const shown = fills.slice(0, 10).map(fillWords).join('; ');
    const more = fills.length > 10 ? `; and ${fills.length - 10} more` : '';
    parts.push(`${fills.length} fill${fills.length === 1 ? '' : 's'}: ${shown}${more}.`);
  }
  return parts.join(' ');
}
