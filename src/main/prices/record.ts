/**
 * Recording the index prices the sync already reads (docs/prices.md): the fixtures list every
 * minute and the knockout price watch each second pass what they read here, so no request is
 * made for the history. The exchange quotes prices as decimal strings; one that does not
 * convert to micros exactly is refused (and named, for the log), never rounded.
 */
import type { Fixture } from '../../shared/api/schemas.js';
import { toMicros } from '../../shared/money.js';
import type { PriceQuote, Store } from '../store/index.js';
import { RECENT_STEP_MS } from './ageing.js';

export interface RecordedPrices {
  /** Points written: the outcomes whose price changed. */
  written: number;
  /** "contractId outcome price" of each price refused as not exact in micros. */
  refused: string[];
}

/** A price of 0 to 1 with at most 6 places: what micros hold exactly. */
const EXACT_PRICE = /^(0|[1-9][0-9]*)(\.[0-9]{1,6})?$/;

/** The price in micros, or undefined when micros cannot hold it exactly. */
export function exactPriceMicros(price: string): number | undefined {
  if (!EXACT_PRICE.test(price)) return undefined;
  const micros = toMicros(price);
  return micros <= 1_000_000 ? micros : undefined;
}

/**
 * Records the home and away index prices of `fixtures`, read at exchange time `at`, for the
 * account, in one transaction.
 */
export function recordFixturePrices(
  store: Pick<Store, 'prices'>,
  accountId: number,
  fixtures: readonly Fixture[],
  at: number,
): RecordedPrices {
  const quotes: PriceQuote[] = [];
  const refused: string[] = [];
  for (const f of fixtures) {
    for (const [outcome, price] of [
      [f.homeTeam, f.homePrice],
      [f.awayTeam, f.awayPrice],
    ] as const) {
      const micros = exactPriceMicros(price);
      if (micros === undefined) refused.push(`${f.contractId} ${outcome} ${price}`);
      else quotes.push({ contractId: f.contractId, outcome, micros });
    }
  }
  const written =
    quotes.length === 0 ? 0 : store.prices.record(accountId, at, quotes, RECENT_STEP_MS);
  return { written, refused };
}
