/**
 * Unrealized P&L of an open position (docs/pnl.md, "Unrealized P&L"): its value less its cost
 * basis, what closing it now at the estimated price would realize before the sell's fee. One
 * definition for Positions, the Portfolio and the equity points, in main and in the renderer.
 *
 * The exchange's own `pnl` is value less the posted collateral (docs/api.md 2.6): it leaves out
 * the buy's fee, so added to realized P&L (which counts every fee) it would count the fee as
 * never paid. Value less cost basis counts what was paid, never falls below minus the cost basis
 * (the value is never below 0), and a close at the estimated price moves it into realized P&L
 * with no jump beyond that sell's fee.
 */
import { dec, toMicros, usd } from '../money.js';

/** The figures of a position it needs (a Position or a PositionRow has them). */
export interface Valued {
  value: string;
  costBasis: string;
}

/** value − costBasis, in dollars with cents. */
export function unrealizedPnl(p: Valued): string {
  return usd(dec(p.value).minus(p.costBasis));
}

/** value − costBasis, in whole micro-dollars (the store's sums). */
export function unrealizedMicros(p: Valued): number {
  return toMicros(p.value) - toMicros(p.costBasis);
}
