/** The positions screen's totals row: what the positions shown are worth, and what they risk. */
import { add, usd } from '../money.js';

export interface TotalledPosition {
  value: string;
  pnl: string;
  costBasis: string;
  maxPayout: string;
}

export interface PositionTotals {
  count: number;
  value: string;
  pnl: string;
  /** What the positions cost: lost if every one of them loses. */
  moneyAtRisk: string;
  maxPayout: string;
}

export function positionTotals(rows: readonly TotalledPosition[]): PositionTotals {
  return {
    count: rows.length,
    value: usd(add(...rows.map((r) => r.value))),
    pnl: usd(add(...rows.map((r) => r.pnl))),
    moneyAtRisk: usd(add(...rows.map((r) => r.costBasis))),
    maxPayout: usd(add(...rows.map((r) => r.maxPayout))),
  };
}
