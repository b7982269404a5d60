/**
 * The domain's internal records. Every one is plain JSON (numbers, strings, arrays), so the
 * state file stores them as they are. Decimal values are decimal strings, kept exact.
 */
import type { Order, Settlement } from '../../shared/api/schemas.js';

export type FixtureStatus = 'OPEN' | 'CLOSED' | 'RESOLVED';

export interface FixtureRec {
  /** Creation order. */
  seq: number;
  contractId: string;
  league: string;
  homeTeam: string;
  awayTeam: string;
  startsAt: number;
  status: FixtureStatus;
  /** Index price of the home team, 4 places; the away team's is 1 − homePrice. */
  homePrice: string;
  winner?: string;
  lotSize: number;
  minContracts: number;
}

export interface WalletRec {
  address: string;
  createdAt: number;
}

/** An API key as stored: never the secret (it is derived again from the key-file on load). */
export interface StoredKey {
  apiKey: string;
  wallet: string;
  permission: 'read' | 'trade';
  expiresAt?: number;
  ipRestrictions?: string[];
  grantActive: boolean;
  createdAt: number;
}

/** One fill of a BUY: its own entry price, collateral, loan and knockout. */
export interface LotRec {
  orderId: string;
  contracts: number;
  entryPrice: string;
  boost: number;
  collateralPerContract: string;
  loanPerContract: string;
  knockout?: string;
  /** Money spent on the contracts still in this lot (exact; shrinks pro rata on partial closes). */
  cost: string;
  openedAt: number;
}

/** Exits taken while the position was open, reported as settlement rows once it is flat. */
export interface ExitTally {
  contracts: number;
  /**
   * Σ contracts × closing price, for the row's average price: the sell price (CLOSED), each
   * lot's knockout (KNOCKED_OUT).
   */
  notional: string;
  /** Paid out by the exits, net of fees. */
  proceeds: string;
  /** Entry cost of the contracts that left. */
  cost: string;
  /**
   * KNOCKED_OUT in state files written before `notional` was kept for knockouts (notional '0'):
   * the index price that knocked the last lot out, the row's price then. No longer written.
   */
  price: string;
  tx: string;
}

export interface PositionRec {
  /** `${wallet}|${contractId}|${outcome}` */
  id: string;
  seq: number;
  wallet: string;
  contractId: string;
  outcome: string;
  /** Oldest first; closes take from the oldest lot (FIFO). */
  lots: LotRec[];
  openedAt: number;
  updatedAt: number;
  sold: ExitTally;
  knocked: ExitTally;
}

export interface OrderRec {
  /** The public order record (what GET /order returns). */
  order: Order;
  seq: number;
  wallet: string;
  /** Exchange-clock time at which the order's block arrives. */
  dueAt: number;
  /** Exchange-clock time at which its transaction hash appears. */
  txAt: number;
  fault?: 'revert';
}

export interface SettlementRec {
  seq: number;
  wallet: string;
  row: Settlement;
}

export interface QuoteRec {
  rfqId: string;
  wallet: string;
  reqId: string;
  contractId: string;
  outcome: string;
  side: 'BUY' | 'SELL';
  boost: number;
  marketUnit: 'BASE' | 'QUOTE';
  qty: string;
  contracts: number;
  entryPrice: string;
  /** BUY: cost and maxWin of the quoted lot; SELL: the fee and '0'. */
  cost: string;
  maxWin: string;
  /** Knockout of the quoted lot itself (the quote shows the resulting position's). */
  lotKnockout?: string;
  expiresAt: number;
}

export function positionId(wallet: string, contractId: string, outcome: string): string {
  return `${wallet}|${contractId}|${outcome}`;
}

export function emptyTally(): ExitTally {
  return { contracts: 0, notional: '0', proceeds: '0', cost: '0', price: '0', tx: '' };
}
