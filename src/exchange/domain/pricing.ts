/**
 * The sandbox's pricing model, as pure functions over decimal strings (no state, no clock), so
 * they can be property-tested on their own.
 *
 * DESIGN (choices where docs/api.md leaves a point open; also served at GET /docs, see docs.ts):
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
 * - A close (SELL) returns contracts × (sellPrice − loan) per lot, never below 0, minus the fee;
 *   the proceeds are rounded down to the cent, and the order's cost is the fee as deducted,
 *   exact (not rounded up to the cent, so cost + proceeds is what the lots returned).
 * - Exchange capacity: CAPACITY_PER_OUTCOME contracts per outcome minus the open interest (all
 *   wallets' held contracts). A request for more than the capacity is refused with -1102 whose
 *   message names qty and the capacity.
 * - Lots: a dollar-sized (QUOTE) open buys the most whole lots whose cost stays within qty; a
 *   contract-sized (BASE) open rounds qty to the nearest lot (halves round up); a close rounds down.
 */
import { BOOST_LOAN_PER_POINT } from '../../shared/api/boost.js';
import { Dec, dec, price, usdCeil, usdFloor, type DecimalInput } from '../../shared/money.js';

export const HALF_SPREAD = '0.01';
export const IMPACT_MAX = '0.025';
export const IMPACT_HALF_SIZE = 5000;
export const FEE_RATE = '0.01';
export const PRICE_MIN = '0.0101';
export const PRICE_MAX = '0.9899';
export const CAPACITY_PER_OUTCOME = 1_000_000;
export { BOOST_LOAN_PER_POINT };

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
/**
 * Ticks of a price written "0." and 1 to 4 digits (/^0\.\d{1,4}$/, "0.95" is 9500), otherwise
 * undefined. Read digit by digit: it runs three times per quote, and a regex match, padEnd and
 * parseInt cost more than the quote's arithmetic.
 */
function priceTicks(s: string): number | undefined {
  const n = s.length;
  if (n < 3 || n > 6 || s.charCodeAt(0) !== 48 || s.charCodeAt(1) !== 46) return undefined;
  let ticks = 0;
  for (let i = 2; i < 6; i++) {
    let digit = 0;
    if (i < n) {
      digit = s.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return undefined;
    }
    ticks = ticks * 10 + digit;
  }
  return ticks;
}

function fillPriceTicks(side: TradeSide, index: number, contracts: number): string {
  const n = Math.max(0, contracts);
  if (!Number.isSafeInteger(IMPACT_MAX_TICKS * n))
    return fillPriceExact(side, dec(index).dividedBy(TICKS), n);
  return ticksString(fillTicks(side, index, n));
}

/** The fill price in ticks, for 0 <= contracts with IMPACT_MAX_TICKS × contracts safe. */
function fillTicks(side: TradeSide, index: number, contracts: number): number {
  const n = contracts;
  const impactTicks = n === 0 ? 0 : Math.ceil((IMPACT_MAX_TICKS * n) / (n + IMPACT_HALF_SIZE));
  const skew = HALF_SPREAD_TICKS + impactTicks;
  const raw = side === 'BUY' ? index + skew : index - skew;
  return Math.min(MAX_TICKS, Math.max(MIN_TICKS, raw));
}

// Opening terms in whole units of 1e-7 USD, the finest amount they involve: a price in ticks
// (1e-4) times the boost factor (1000 − 9b) / 1000, or a price times contracts times the 1 % fee
// (1e-6). Every value is an integer far below 2^53 for the sizes allowed here, so the results are
// exact and equal to the decimal definition (test/exchange/domain/pricing.test.ts checks that).
const UNITS_PER_TICK = 1000;
const UNITS_PER_CENT = 100_000;
const UNITS_PER_USD = 10_000_000;
const FEE_UNITS_PER_TICK = 10; // a contract's 1 % fee at one tick: 1e-6 USD
const BOOST_FACTOR_MAX = 1000;
/** The loan per boost point in thousandths (9). */
const BOOST_LOAN_PER_POINT_MILLI = dec(BOOST_LOAN_PER_POINT).times(1000).toNumber();
/** Sizes up to this keep every intermediate below 2^53 (1e7 units × contracts). */
const MAX_TICK_CONTRACTS = 100_000_000;

function inTickRange(contracts: number, boost: number): boolean {
  return (
    Number.isInteger(contracts) &&
    contracts >= 1 &&
    contracts <= MAX_TICK_CONTRACTS &&
    Number.isInteger(boost) &&
    boost >= 0 &&
    boost <= 100
  );
}

/** Collateral per contract in units: entry ticks × (1000 − 9b). */
function collateralUnits(entry: number, boost: number): number {
  return entry * (BOOST_FACTOR_MAX - BOOST_LOAN_PER_POINT_MILLI * boost);
}

function openTermsTicks(
  entryPrice: string,
  entry: number,
  index: number,
  contracts: number,
  boost: number,
): OpenTerms {
  const c = collateralUnits(entry, boost);
  const loan = entry * UNITS_PER_TICK - c;
  const collateral = c * contracts;
  const buyFee = entry * contracts * FEE_UNITS_PER_TICK;
  const sell = fillTicks('SELL', index, contracts);
  const exitGross = Math.max(0, (sell * UNITS_PER_TICK - loan) * contracts);
  const exitValue = Math.max(0, exitGross - sell * contracts * FEE_UNITS_PER_TICK);
  const terms: OpenTerms = {
    contracts,
    boost,
    entryPrice,
    collateralPerContract: unitsString(c),
    loanPerContract: unitsString(loan),
    collateral: unitsString(collateral),
    fee: unitsString(buyFee),
    cost: centsString(ceilDiv(collateral + buyFee, UNITS_PER_CENT)),
    maxWin: centsString(floorDiv((UNITS_PER_USD - loan) * contracts, UNITS_PER_CENT)),
    exitValue: centsString(floorDiv(exitValue, UNITS_PER_CENT)),
  };
  if (boost > 0) terms.knockout = ticksString(ceilDiv(loan, UNITS_PER_TICK));
  return terms;
}

/** openCost in whole cents, or undefined when the index price or size is off the fast path. */
function openCostCents(
  indexPrice: DecimalInput,
  contracts: number,
  boost: number,
): number | undefined {
  const index = typeof indexPrice === 'string' ? priceTicks(indexPrice) : undefined;
  if (index === undefined || !inTickRange(contracts, boost)) return undefined;
  return openCostTicks(index, contracts, boost);
}

function openCostTicks(index: number, contracts: number, boost: number): number {
  const entry = fillTicks('BUY', index, contracts);
  const units = collateralUnits(entry, boost) * contracts + entry * contracts * FEE_UNITS_PER_TICK;
  return ceilDiv(units, UNITS_PER_CENT);
}

/** floor(a / b) for a >= 0 and b > 0, both safe integers: exact, unlike a float division. */
function floorDiv(a: number, b: number): number {
  return (a - (a % b)) / b;
}

function ceilDiv(a: number, b: number): number {
  return a % b === 0 ? a / b : floorDiv(a, b) + 1;
}

/**
 * A non-negative amount of 1e-7 units as decimal.js prints it (Dec#toString): no trailing zeros,
 * "0" for zero, and exponent notation below 1e-6 (left to decimal.js, it never happens at
 * seeded prices).
 */
function unitsString(units: number): string {
  if (units === 0) return '0';
  if (units < 10) return dec(units).dividedBy(UNITS_PER_USD).toString();
  const digits = String(units).padStart(8, '0');
  const whole = digits.slice(0, -7);
  const fraction = digits.slice(-7).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** Whole cents as USD with exactly two places (what usdCeil and usdFloor print). */
function centsString(cents: number): string {
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Whole ticks as a price with exactly four places (what price() prints). */
function ticksString(ticks: number): string {
  const digits = String(ticks).padStart(5, '0');
  return `${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

const wholeRe = /^(0|[1-9]\d{0,14})$/;
const MAX_WHOLE = 1e15;

/** A quantity that is a plain whole number below 10^15 (so 2 × qty + lot stays safe), or undefined. */
function wholeNumber(qty: DecimalInput): number | undefined {
  if (typeof qty === 'number') {
    return Number.isInteger(qty) && qty >= 0 && qty < MAX_WHOLE ? qty : undefined;
  }
  return typeof qty === 'string' && wholeRe.test(qty) ? Number(qty) : undefined;
}

function isLotSize(lotSize: number): boolean {
  return Number.isSafeInteger(lotSize) && lotSize >= 1 && lotSize <= 1_000_000;
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
  const entry = priceTicks(entryPrice);
  const index = typeof indexPrice === 'string' ? priceTicks(indexPrice) : undefined;
  if (entry !== undefined && index !== undefined && inTickRange(contracts, boost)) {
    return openTermsTicks(entryPrice, entry, index, contracts, boost);
  }
  return openTermsExact(entryPrice, indexPrice, contracts, boost);
}

/** The definition of openTermsAt, in decimal arithmetic for any prices. */
export function openTermsExact(
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
  const cents = openCostCents(indexPrice, contracts, boost);
  return cents === undefined ? openCostExact(indexPrice, contracts, boost) : dec(cents).div(100);
}

/** The definition of openCost, in decimal arithmetic for any index price. */
export function openCostExact(indexPrice: DecimalInput, contracts: number, boost: number): Dec {
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
  const index = typeof indexPrice === 'string' ? priceTicks(indexPrice) : undefined;
  // A cost is whole cents, so cost <= budget exactly when its cents <= floor(budget × 100).
  const budgetCents = b.times(100).floor().toNumber();
  if (
    index !== undefined &&
    Number.isSafeInteger(budgetCents * UNITS_PER_CENT) &&
    isLotSize(lotSize) &&
    maxContracts <= MAX_TICK_CONTRACTS &&
    inTickRange(lotSize, boost)
  ) {
    return contractsForBudgetTicks(index, budgetCents, boost, lotSize, maxContracts);
  }
  return contractsForBudgetExact(indexPrice, budget, boost, lotSize, maxContracts);
}

/** The definition of contractsForBudget, in decimal arithmetic for any index price and budget. */
export function contractsForBudgetExact(
  indexPrice: DecimalInput,
  budget: DecimalInput,
  boost: number,
  lotSize: number,
  maxContracts: number,
): number {
  const b = dec(budget);
  if (b.lte(0) || lotSize <= 0) return 0;
  const maxLots = Math.floor(maxContracts / lotSize);
  // Cost per contract (before cent rounding) grows with size, so budget / per-contract cost at
  // one lot bounds the answer from above and at that bound from below: a tight bracket.
  const perContract = (n: number): Dec => {
    const entry = fillPrice('BUY', indexPrice, n);
    return collateralPerContract(entry, boost).plus(fee(1, entry));
  };
  return mostLots(
    lotSize,
    (n) => Math.min(maxLots, b.dividedBy(perContract(n).times(lotSize)).floor().toNumber()),
    (lots) => lots === 0 || openCostExact(indexPrice, lots * lotSize, boost).lte(b),
  );
}

/** contractsForBudget in whole units and cents: the same bracket and search. */
function contractsForBudgetTicks(
  index: number,
  budgetCents: number,
  boost: number,
  lotSize: number,
  maxContracts: number,
): number {
  const maxLots = Math.floor(maxContracts / lotSize);
  const budgetUnits = budgetCents * UNITS_PER_CENT;
  const perContract = (n: number): number => {
    const entry = fillTicks('BUY', index, n);
    return collateralUnits(entry, boost) + entry * FEE_UNITS_PER_TICK;
  };
  return mostLots(
    lotSize,
    (n) => Math.min(maxLots, floorDiv(budgetUnits, perContract(n) * lotSize)),
    (lots) => lots === 0 || openCostTicks(index, lots * lotSize, boost) <= budgetCents,
  );
}

/**
 * The most lots (returned in contracts) that are `feasible`, given `lotsAt(n)`: how many lots the
 * budget buys at the per-contract cost of size n. At one lot that is an upper bound; at that
 * bound it is (nearly) a lower one; a binary search settles the rest.
 */
function mostLots(
  lotSize: number,
  lotsAt: (contracts: number) => number,
  feasible: (lots: number) => boolean,
): number {
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
  const q = wholeNumber(qty);
  if (q !== undefined && isLotSize(lotSize))
    return floorDiv(2 * q + lotSize, 2 * lotSize) * lotSize;
  return roundToNearestLotExact(qty, lotSize);
}

export function roundToNearestLotExact(qty: DecimalInput, lotSize: number): number {
  return dec(qty).dividedBy(lotSize).toDecimalPlaces(0, Dec.ROUND_HALF_UP).toNumber() * lotSize;
}

/** True when `qty` contracts are more than `maxLots` lots of `lotSize`. */
export function moreLotsThan(qty: DecimalInput, lotSize: number, maxLots: number): boolean {
  const q = wholeNumber(qty);
  if (q !== undefined && isLotSize(lotSize) && Number.isSafeInteger(maxLots * lotSize)) {
    return q > maxLots * lotSize;
  }
  return dec(qty).dividedBy(lotSize).gt(maxLots);
}

/** The other outcome's index price, 1 − `homePrice`, with four places. */
export function complementPrice(homePrice: string): string {
  const ticks = priceTicks(homePrice);
  return ticks !== undefined && ticks > 0
    ? ticksString(TICKS - ticks)
    : price(ONE.minus(homePrice));
}

/** A close: qty contracts rounded down to a whole lot. */
export function roundDownToLot(qty: DecimalInput, lotSize: number): number {
  const q = wholeNumber(qty);
  if (q !== undefined && isLotSize(lotSize)) return floorDiv(q, lotSize) * lotSize;
  return roundDownToLotExact(qty, lotSize);
}

export function roundDownToLotExact(qty: DecimalInput, lotSize: number): number {
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
  /**
   * The fee deducted, exact (docs/api.md 2.5, the order's `cost`): FEE_RATE of the notional (at
   * most 6 places), or all the slices return when that is less (proceeds never go below 0).
   */
  fee: string;
  /** Paid out to the bettor, net of the fee and of what was lent, rounded down to the cent. */
  proceeds: string;
}

/**
 * What closing the slices at `sellPrice` returns before the fee, exact: each slice
 * `contracts × (sellPrice − loan)`, never below 0 (its collateral is gone). A position's `value`
 * is this at its estimated closing price (positions.ts), so it always matches what a close pays.
 */
export function closeReturn(sellPrice: DecimalInput, slices: readonly CloseSlice[]): Dec {
  let gross = ZERO;
  for (const s of slices) {
    gross = gross.plus(Dec.max(ZERO, dec(sellPrice).minus(s.loanPerContract).times(s.contracts)));
  }
  return gross;
}

/**
 * Terms of closing the given slices (oldest lots first) at `sellPrice`. A slice whose loan
 * exceeds the price returns nothing; the fee comes off the total, and the proceeds are rounded
 * down to the cent after it (the fee itself is not rounded: the order shows it as deducted).
 */
export function closeTermsAt(sellPrice: string, slices: readonly CloseSlice[]): CloseTerms {
  const contracts = slices.reduce((sum, s) => sum + s.contracts, 0);
  const gross = closeReturn(sellPrice, slices);
  const deducted = Dec.min(gross, fee(contracts, sellPrice));
  return {
    contracts,
    price: sellPrice,
    fee: deducted.toFixed(),
    proceeds: usdFloor(gross.minus(deducted)),
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
