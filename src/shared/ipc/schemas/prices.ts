/**
 * Prices over time: the index prices the sync already reads (fixtures, positions), recorded in
 * the store with their exchange time (docs/prices.md). Markets draws a 24 h line per outcome;
 * a position's detail draws its outcome's price over the position's life.
 */
import Type, { type Static } from 'typebox';
import { Closed, Dec, Literals, Millis, NullableDec } from './common.js';

const ContractId = Type.String({ minLength: 1, maxLength: 128 });
const Outcome = Type.String({ minLength: 1, maxLength: 8 });

/** The last 24 h of every outcome of the given fixtures, for the Markets rows. */
export const PriceLinesQuery = Closed({
  contractIds: Type.Array(ContractId, { maxItems: 500, description: 'The fixtures shown.' }),
});
export type PriceLinesQuery = Static<typeof PriceLinesQuery>;

export const PricePoint = Closed({ at: Millis('Exchange time of the price.'), price: Dec('') });
export type PricePoint = Static<typeof PricePoint>;

export const PriceLine = Closed({
  contractId: Type.String(),
  outcome: Type.String(),
  points: Type.Array(PricePoint, {
    maxItems: 200,
    description: 'Oldest first, thinned to at most 200 (the last price of each step).',
  }),
  first: NullableDec('The price 24 h ago (or the oldest inside the window); null when none.'),
  last: NullableDec('The newest price; null when none.'),
  change: NullableDec('last − first; null when either is unknown.'),
});
export type PriceLine = Static<typeof PriceLine>;

export const PriceLines = Closed({
  from: Millis('Start of the window (now − 24 h).'),
  to: Millis('End of the window (now).'),
  lines: Type.Array(PriceLine, {
    description: 'One per outcome of each fixture asked for that has any price recorded.',
  }),
});
export type PriceLines = Static<typeof PriceLines>;

/** One outcome's price over a span, for a position's chart. */
export const PriceSeriesQuery = Closed({
  contractId: ContractId,
  outcome: Outcome,
  from: Type.Optional(Millis('Start (inclusive); default: the oldest recorded.')),
  to: Type.Optional(Millis('End (exclusive); default: now.')),
});
export type PriceSeriesQuery = Static<typeof PriceSeriesQuery>;

/**
 * `raw`: every price recorded (open = high = low = close). `bucket`: open/high/low/close of a
 * span of `stepMs`, for prices older than the raw window.
 */
export const PRICE_RESOLUTIONS = ['raw', 'bucket'] as const;

export const PriceCandle = Closed({
  at: Millis("Start of the span (raw: the price's own time)."),
  open: Dec(''),
  high: Dec(''),
  low: Dec(''),
  close: Dec(''),
  resolution: Literals(PRICE_RESOLUTIONS),
  stepMs: Type.Integer({ minimum: 0, description: '0 for raw points.' }),
});
export type PriceCandle = Static<typeof PriceCandle>;

export const PriceSeries = Closed({
  contractId: Type.String(),
  outcome: Type.String(),
  points: Type.Array(PriceCandle, {
    maxItems: 5000,
    description: 'Oldest first; thinned to at most 5000.',
  }),
});
export type PriceSeries = Static<typeof PriceSeries>;

/** Calls of prices over time. (contract.ts joins every feature's calls.) */
export const priceCalls = {
  'prices:lines': { input: PriceLinesQuery, output: PriceLines },
  'prices:series': { input: PriceSeriesQuery, output: PriceSeries },
} as const;
