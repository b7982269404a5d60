/**
 * The shapes realized P&L is worked out from and written as (docs/pnl.md): what the store's
 * repositories answer and take, declared here so src/main/pnl needs nothing from inside the
 * store, and the store nothing from pnl's logic.
 */
import type { SettlementType } from '../../shared/api/schemas.js';

/** Where a realized P&L comes from (the bridge's PNL_SOURCES). */
export type PnlSource = 'exchange' | 'orders' | 'unknown';

/** A settlement row on one outcome, as the replay reads it. */
export interface OutcomeRow {
  id: number;
  type: SettlementType;
  contracts: number;
  settledAt: number;
  /** The exchange's `pnl` (CLOSED, KNOCKED_OUT), micro-dollars; null when it sent none. */
  pnlMicros: number | null;
}

/** A SETTLEMENT row to work out. */
export interface SettlementToWorkOut {
  id: number;
  accountId: number;
  contractId: string;
  outcome: string;
  contracts: number;
  payoutMicros: number | null;
  settledAt: number;
  pnlSource: PnlSource;
  pnlNote: string | null;
}

/** The derived columns of one row. */
export interface RealizedFigure {
  realizedMicros: number | null;
  basisMicros: number | null;
  pnlSource: PnlSource;
  pnlNote: string | null;
}

export interface LastCostBasis {
  /** Contracts held when it was read. */
  contracts: number;
  costBasis: string;
  /** The position's updatedAt (exchange time). */
  updatedAt: number;
  /** When the snapshot read it (local time). */
  seenAt: number;
}
