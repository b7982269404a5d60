/**
 * What closing some or all of a position would fetch, and the P&L it would lock in, estimated per
 * the sandbox's documented model (GET /docs "Positions"): a SELL quote carries only the contracts
 * and the sell price, so the rest comes from the position itself. An estimate: shown as "about".
 */
import { dec, usd } from '../money.js';

/** The figures of a position the estimate needs (a PositionRow has them all). */
export interface ClosablePosition {
  contracts: number;
  entryPrice: string;
  costBasis: string;
  value: string;
  pnl: string;
}

export interface CloseEstimate {
  /** Contracts the close sells: the exchange caps a close at the position held. */
  contracts: number;
  /** Dollars paid out, before the exit fee; never below 0. */
  proceeds: string;
  /** Proceeds less the share of the cost basis those contracts carry. */
  pnl: string;
}

/**
 * For `n` of the position's N contracts sold at `sellPrice`: collateral = value − pnl;
 * proceeds ≈ n/N × collateral + n × (sellPrice − entryPrice), at least 0;
 * P&L locked in ≈ proceeds − n/N × costBasis. Null when nothing is held or n is not positive.
 */
export function estimateClose(
  position: ClosablePosition,
  n: number,
  sellPrice: string,
): CloseEstimate | null {
  const held = position.contracts;
  if (held <= 0 || !Number.isInteger(n) || n <= 0) return null;
  const sold = Math.min(n, held);
  const share = dec(sold).div(held);
  const collateral = dec(position.value).minus(position.pnl);
  const raw = share
    .times(collateral)
    .plus(dec(sold).times(dec(sellPrice).minus(position.entryPrice)));
  const proceeds = raw.isNegative() ? dec(0) : raw;
  const pnl = proceeds.minus(share.times(position.costBasis));
  return { contracts: sold, proceeds: usd(proceeds), pnl: usd(pnl) };
}
