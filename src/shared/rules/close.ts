/**
 * What closing some or all of a position would fetch, and the P&L it would lock in, worked out as
 * the exchange closes (GET /docs "Closing (SELL)", docs/sandbox.md "Pricing in short"): the
 * oldest lots first, each slice paying max(0, sellPrice − loan) per contract, the fee off the
 * total, the proceeds rounded down to the cent; the P&L is the proceeds less the cost the slices
 * carry (pro rata within a lot, as docs/pnl.md "Why oldest first, not average cost" says). A SELL
 * quote carries only the contracts and the sell price (it has no fee: "a close's quote has no
 * cost"), so the lots come from the position (PositionRow.lots, rebuilt from the stored orders)
 * and the fee from the exchange's documented rate. Where the lots are not known, the position's
 * average figures stand in for one lot: an estimate from the average cost.
 */
import { Dec, dec, usd, usdFloor } from '../money.js';
import { oldestSlices, type Slice } from './lots.js';

/** The exchange's fee on every fill, BUY and SELL: this × contracts × fill price (GET /docs). */
export const FEE_RATE = '0.01';

/** A lot held, as the close needs it (PositionRow.lots has these). */
export interface CloseLot {
  contracts: number;
  cost: string;
  loanPerContract: string;
}

/** The figures of a position the estimate needs (a PositionRow has them all). */
export interface ClosablePosition {
  contracts: number;
  entryPrice: string;
  costBasis: string;
  value: string;
  /** The exchange's own pnl (value − posted collateral), not the unrealized P&L. */
  exchangePnl: string;
  boosted: boolean;
  /** The lots held, oldest first; null when the stored orders do not rebuild them. */
  lots: readonly CloseLot[] | null;
}

/**
 * Where the cost of the contracts sold comes from: `lots` (the oldest lots, as the exchange
 * takes them) or `average` (the position's average: its orders are not all stored).
 */
export type CloseBasis = 'lots' | 'average';

export interface CloseEstimate {
  /** Contracts the close sells: the exchange caps a close at the position held. */
  contracts: number;
  /** Dollars paid out, net of the fee, rounded down to the cent; never below 0. */
  proceeds: string;
  /** The fee taken: FEE_RATE × contracts × sell price, or all the slices return when less. */
  fee: string;
  /** What the contracts sold cost (their lots' cost, pro rata), to the cent. */
  cost: string;
  /** proceeds − cost, to the cent. */
  pnl: string;
  basis: CloseBasis;
}

/** A close as filled: the exchange's proceeds against the cost of the lots it took. */
export interface CloseResult {
  contracts: number;
  /** The exchange's figure (the filled SELL's `proceeds`). */
  proceeds: string;
  cost: string;
  /** proceeds − cost, to the cent. */
  pnl: string;
  basis: CloseBasis;
}

/**
 * The estimate for `n` of the position's contracts sold at `sellPrice` (the SELL quote's
 * `entryPrice`): proceeds = floor(Σ slices max(0, sellPrice − loan) × contracts − fee), P&L =
 * proceeds − the slices' cost. Null when nothing is held or n is not a positive whole number.
 */
export function estimateClose(
  position: ClosablePosition,
  n: number,
  sellPrice: string,
): CloseEstimate | null {
  const taken = takenBy(position, n);
  if (taken === null) return null;
  const { slices, basis } = taken;
  const contracts = slices.reduce((sum, s) => sum + s.contracts, 0);
  let gross = dec(0);
  for (const s of slices) {
    gross = gross.plus(Dec.max(0, dec(sellPrice).minus(s.loanPerContract)).times(s.contracts));
  }
  const fee = Dec.min(gross, dec(FEE_RATE).times(contracts).times(sellPrice));
  const proceeds = usdFloor(gross.minus(fee));
  const cost = costOf(slices);
  return {
    contracts,
    proceeds,
    fee: fee.toFixed(),
    cost: usd(cost),
    pnl: usd(dec(proceeds).minus(cost)),
    basis,
  };
}

/**
 * A close of `contracts` that filled for `proceeds` (the exchange's), against `position` as it
 * was before the sale: P&L = proceeds − the cost the contracts sold carried. Never pass the
 * position after the sale: its oldest lots are no longer the ones sold.
 */
export function closeResult(
  position: ClosablePosition,
  contracts: number,
  proceeds: string,
): CloseResult | null {
  const taken = takenBy(position, contracts);
  if (taken === null) return null;
  const cost = costOf(taken.slices);
  return {
    contracts: Math.min(contracts, position.contracts),
    proceeds,
    cost: usd(cost),
    pnl: usd(dec(proceeds).minus(cost)),
    basis: taken.basis,
  };
}

/** The slices a close of `n` takes (capped at the position), oldest lots first. */
function takenBy(
  position: ClosablePosition,
  n: number,
): { slices: Slice[]; basis: CloseBasis } | null {
  const held = position.contracts;
  if (held <= 0 || !Number.isInteger(n) || n <= 0) return null;
  const lots = position.lots ?? [averageLot(position)];
  return {
    slices: oldestSlices(lots, Math.min(n, held)),
    basis: position.lots === null ? 'average' : 'lots',
  };
}

/**
 * The position as one lot at its averages: its cost basis, and per contract the loan its
 * collateral leaves (entryPrice − (value − exchangePnl) / contracts; 0 unboosted).
 */
function averageLot(position: ClosablePosition): CloseLot {
  const collateral = dec(position.value).minus(position.exchangePnl);
  const loan = position.boosted
    ? Dec.max(0, dec(position.entryPrice).minus(collateral.dividedBy(position.contracts)))
    : dec(0);
  return {
    contracts: position.contracts,
    cost: position.costBasis,
    loanPerContract: loan.toFixed(),
  };
}

function costOf(slices: readonly Slice[]): Dec {
  return slices.reduce((sum, s) => sum.plus(s.cost), dec(0));
}
