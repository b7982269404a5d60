/**
 * The sandbox's pricing model, as pure functions over decimal strings (no state, no clock), so
 * they can be property-tested on their own.
 *
 * DESIGN (choices where exchange-api.md says "not shown"; also served at GET /docs, see docs.ts):
 * - Two outcomes per fixture; their index prices sum to 1. The index moves only through the
 *   control API (setPrice); trades do not move it.
 * - BUY fills at index + half-spread + impact, SELL at index - half-spread - impact, where
 *   impact = IMPACT_MAX × n / (n + IMPACT_HALF_SIZE) grows with the size n and stays below
 *   IMPACT_MAX. BUY prices round up and SELL prices round down to 4 places (never in the
 *   bettor's favour) and are clamped to [PRICE_MIN, PRICE_MAX], inside (0.01, 0.99). For index
 *   prices in [0.05, 0.95] (every seeded price) the clamp never binds, so a BUY fills at or above
 *   the index and a SELL at or below it.
 * - Fee: FEE_RATE of the notional (contracts × fill price) on every fill, BUY and SELL.
 * - Boost b (0..100): collateral per contract c = entryPrice × (1 − 0.9 × b/100); the rest of the
 *   entry price is lent by the exchange (loan = entryPrice − c). cost = contracts × c + fee,
 *   rounded up to the cent; maxWin = contracts × (1 − entryPrice + c), rounded down;
 *   knockout = entryPrice − c rounded up to 4 places, absent when b is 0.
 * - exitValue = what selling the new lot at once would return: contracts × (sellPrice − loan),
 *   never below 0, minus the SELL fee, rounded down to the cent. It is always below cost.
 * - Exchange capacity: CAPACITY_PER_OUTCOME contracts per outcome minus the open interest (all
 *   wallets' held contracts). A request for more than the capacity is refused with -1102 whose
 *   message names qty and the capacity.
 * - Lots: a dollar-sized (QUOTE) open buys the most whole lots whose cost stays within qty; a
 *   contract-sized (BASE) open rounds qty to the nearest lot (halves round up); a close rounds down.
 */
import { Dec, dec, price, usdCeil, usdFloor, type DecimalInput } from '../../shared/money.js';

export const HALF_SPREAD = '0.01';
export const IMPACT_MAX = '0.025';
export const IMPACT_HALF_SIZE = 5000;
export const FEE_RATE = '0.01';
export const PRICE_MIN = '0.0101';
export const PRICE_MAX = '0.9899';
export const CAPACITY_PER_OUTCOME = 1_000_000;
/** Share of the entry price lent per boost point: 0.9 / 100. */
export const BOOST_LOAN_PER_POINT = '0.009';

export type TradeSide = 'BUY' | 'SELL';

const ZERO = dec(0);
const ONE = dec(1);
const FEE_RATE_D = dec(FEE_RATE);
const BOOST_LOAN_D = dec(BOOST_LOAN_PER_POINT);

/** Price impact of a trade of n contracts: grows with n, always below IMPACT_MAX. */
export function impact(contracts: number): Dec {
  if (contracts <= 0) return ZERO;
  return dec(IMPACT_MAX)
    .times(contracts)
    .dividedBy(contracts + IMPACT_HALF_SIZE);
}

/** Fill price of a trade of `contracts` on an outcome whose index price is `indexPrice`. */
export function fillPrice(side: TradeSide, indexPrice: DecimalInput, contracts: number): string {
  const ticks = typeof indexPrice === 'string' ? priceTicks(indexPrice) : undefined;
  return ticks === undefined
    ? fillPriceExact(side, indexPrice, contracts)
    : fillPriceTicks(side, ticks, contracts);
}

/** The definition of fillPrice, in decimal arithmetic for any index price. */
export function fillPriceExact(
  side: TradeSide,
  indexPrice: DecimalInput,
  contracts: number,
): string {
  const skew = dec(HALF_SPREAD).plus(impact(contracts));
  const raw =
    side === 'BUY'
      ? dec(indexPrice).plus(skew).toDecimalPlaces(4, Dec.ROUND_CEIL)
      : dec(indexPrice).minus(skew).toDecimalPlaces(4, Dec.ROUND_FLOOR);
  return price(Dec.min(PRICE_MAX, Dec.max(PRICE_MIN, raw)));
}

// The same computation in whole ticks of 0.0001, for index prices with at most 4 places (every
// price the exchange holds): quoting is the hot path. All values are small integers, so the
// arithmetic is exact: ceil(index + s) = index + ceil(s) and floor(index − s) = index − ceil(s)
// for a whole index, and ceil(a / b) on integers below 2^53 is exact in double division.
const TICKS = 10_000;
const HALF_SPREAD_TICKS = 100;
const IMPACT_MAX_TICKS = 250;
const MIN_TICKS = 101;
const MAX_TICKS = 9899;
const priceRe = /^0\.(\d{1,4})$/;

function priceTicks(s: string): number | undefined {
  const m = priceRe.exec(s);
  if (m === null) return undefined;
  return Number.parseInt(m[1]!.padEnd(4, '0'), 10);
}

function fillPriceTicks(side: TradeSide, index: number, contracts: number): string {
  const n = Math.max(0, contracts);
  if (!Number.isSafeInteger(IMPACT_MAX_TICKS * n))
    return fillPriceExact(side, dec(index).dividedBy(TICKS), n);
  const impactTicks = n === 0 ? 0 : Math.ceil((IMPACT_MAX_TICKS * n) / (n + IMPACT_HALF_SIZE));
  const skew = HALF_SPREAD_TICKS + impactTicks;
  const raw = side === 'BUY' ? index + skew : index - skew;
  const t = Math.min(MAX_TICKS, Math.max(MIN_TICKS, raw));
  return `0.${String(t).padStart(4, '0')}`;
}

/** Collateral the bettor posts per contract at `entryPrice` with boost `boost`. */
export function collateralPerContract(entryPrice: DecimalInput, boost: number): Dec {
  return boost === 0
    ? dec(entryPrice)
    : dec(entryPrice).times(ONE.minus(BOOST_LOAN_D.times(boost)));
}

export function fee(contracts: number, fillPriceValue: DecimalInput): Dec {
  return dec(fillPriceValue).times(contracts).times(FEE_RATE_D);
}

export interface OpenTerms {
  contracts: number;
  boost: number;
  entryPrice: string;
  /** Collateral per contract, exact. */
  collateralPerContract: string;
  /** Amount lent per contract (entryPrice − collateral), exact. */
  loanPerContract: string;
  /** contracts × collateral, exact. */
  collateral: string;
  fee: string;
  /** Total debited, rounded up to the cent. */
  cost: string;
  maxWin: string;
  exitValue: string;
  knockout?: string;
}

/** Terms of opening `contracts` at the index `indexPrice` with the given boost, at the current price. */
export function openTerms(indexPrice: DecimalInput, contracts: number, boost: number): OpenTerms {
  return openTermsAt(fillPrice('BUY', indexPrice, contracts), indexPrice, contracts, boost);
}

/** Terms of opening `contracts` at a given (e.g. locked) entry price. */
export function openTermsAt(
  entryPrice: string,
  indexPrice: DecimalInput,
  contracts: number,
  boost: number,
): OpenTerms {
  const c = collateralPerContract(entryPrice, boost);
  const loan = dec(entryPrice).minus(c);
  const collateral = c.times(contracts);
  const buyFee = fee(contracts, entryPrice);
  const sellPrice = fillPrice('SELL', indexPrice, contracts);
  const exitGross = Dec.max(ZERO, dec(sellPrice).minus(loan).times(contracts));
  const exitValue = Dec.max(ZERO, exitGross.minus(fee(contracts, sellPrice)));
  const terms: OpenTerms = {
    contracts,
    boost,
    entryPrice,
    collateralPerContract: c.toString(),
    loanPerContract: loan.toString(),
    collateral: collateral.toString(),
    fee: buyFee.toString(),
    cost: usdCeil(collateral.plus(buyFee)),
    maxWin: usdFloor(ONE.minus(loan).times(contracts)),
    exitValue: usdFloor(exitValue),
  };
  if (boost > 0) terms.knockout = price(loan, Dec.ROUND_CEIL);
  return terms;
}

/** Cost (rounded up to the cent) of opening `contracts` at the current price. */
export function openCost(indexPrice: DecimalInput, contracts: number, boost: number): Dec {
  const entry = fillPrice('BUY', indexPrice, contracts);
  const c = collateralPerContract(entry, boost);
  return c.times(contracts).plus(fee(contracts, entry)).toDecimalPlaces(2, Dec.ROUND_CEIL);
}

/**
 * The most whole lots (returned in contracts) whose cost at the current price stays within
 * `budget`, looking no further than `maxContracts` (pass capacity + one lot to detect an
 * over-capacity request).
 */
export function contractsForBudget(
  indexPrice: DecimalInput,
  budget: DecimalInput,
  boost: number,
  lotSize: number,
  maxContracts: number,
): number {
  const b = dec(budget);
  if (b.lte(0) || lotSize <= 0) return 0;
  const maxLots = Math.floor(maxContracts / lotSize);
  const feasible = (lots: number): boolean =>
    lots === 0 || openCost(indexPrice, lots * lotSize, boost).lte(b);
  // Cost per contract (before cent rounding) grows with size, so budget / per-contract cost at
  // one lot bounds the answer from above and at that bound from below: a tight bracket.
  const perContract = (n: number): Dec => {
    const entry = fillPrice('BUY', indexPrice, n);
    return collateralPerContract(entry, boost).plus(fee(1, entry));
  };
  const lotsAt = (n: number): number =>
    Math.min(maxLots, b.dividedBy(perContract(n).times(lotSize)).floor().toNumber());
  let hi = lotsAt(lotSize);
  let lo = Math.min(hi, lotsAt(Math.max(hi, 1) * lotSize));
  if (!feasible(lo)) lo = 0;
  if (feasible(hi)) return hi * lotSize;
  // Invariant: feasible(lo), !feasible(hi).
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (feasible(mid)) lo = mid;
    else hi = mid;
  }
  return lo * lotSize;
}

/** A contract-sized open: qty contracts rounded to the nearest lot (halves round up). */
export function roundToNearestLot(qty: DecimalInput, lotSize: number): number {
  return dec(qty).dividedBy(lotSize).toDecimalPlaces(0, Dec.ROUND_HALF_UP).toNumber() * lotSize;
}

/** A close: qty contracts rounded down to a whole lot. */
export function roundDownToLot(qty: DecimalInput, lotSize: number): number {
  return dec(qty).dividedBy(lotSize).floor().toNumber() * lotSize;
}

/** A slice of a lot being closed: how many contracts and what was lent on each. */
export interface CloseSlice {
  contracts: number;
  loanPerContract: string;
}

export interface CloseTerms {
  contracts: number;
  price: string;
  fee: string;
  /** Paid out to the bettor, net of the fee and of what was lent, rounded down to the cent. */
  proceeds: string;
}

/**
 * Terms of closing the given slices (oldest lots first) at `sellPrice`. A slice whose loan
 * exceeds the price returns nothing (its collateral is gone); the fee comes off the total.
 */
export function closeTermsAt(sellPrice: string, slices: readonly CloseSlice[]): CloseTerms {
  let contracts = 0;
  let gross = ZERO;
  for (const s of slices) {
    contracts += s.contracts;
    gross = gross.plus(Dec.max(ZERO, dec(sellPrice).minus(s.loanPerContract).times(s.contracts)));
  }
  const sellFee = fee(contracts, sellPrice);
  return {
    contracts,
    price: sellPrice,
    fee: usdCeil(sellFee),
    proceeds: usdFloor(Dec.max(ZERO, gross.minus(sellFee))),
  };
}

export function closeTerms(indexPrice: DecimalInput, slices: readonly CloseSlice[]): CloseTerms {
  const n = slices.reduce((sum, s) => sum + s.contracts, 0);
  return closeTermsAt(fillPrice('SELL', indexPrice, n), slices);
}

/** What a slice pays at resolution: settlePrice per contract minus what was lent, never below 0. */
export function settlementValue(settlePrice: DecimalInput, slice: CloseSlice): Dec {
  return Dec.max(ZERO, dec(settlePrice).minus(slice.loanPerContract).times(slice.contracts));
}
