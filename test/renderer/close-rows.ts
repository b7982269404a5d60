/**
 * Issue 28 item 8's ARS close, as the renderer sees it: 3 bought at 0.6101 (cost $1.85) and 3 at
 * 0.7101 ($2.16), the index at 0.7500, so a close of 3 sells at 0.7399 and pays $2.19.
 */
import type { OrderRow, PositionRow } from '../../src/shared/ipc/contract.js';
import { orderRow, position, quoteResult } from './rows.js';

const plainLot = (cost: string) => ({
  contracts: 3,
  cost,
  loanPerContract: '0',
  knockout: null,
});

/** The position before the close: both lots, figures as GET /positions gives them. */
export const arsBefore: PositionRow = position({
  contracts: 6,
  entryPrice: '0.6601',
  estimatedClosingPrice: '0.7399',
  costBasis: '4.01',
  value: '4.43',
  pnl: '0.42',
  exchangePnl: '0.47',
  pnlPercent: '11.8600',
  maxPayout: '6.00',
  lots: [plainLot('1.85'), plainLot('2.16')],
});

/** The position the close of 3 leaves: the newer lot alone. */
export const arsAfter: PositionRow = position({
  contracts: 3,
  entryPrice: '0.7101',
  estimatedClosingPrice: '0.7399',
  costBasis: '2.16',
  value: '2.21',
  pnl: '0.05',
  exchangePnl: '0.08',
  pnlPercent: '3.7500',
  maxPayout: '3.00',
  lots: [plainLot('2.16')],
});

/** The SELL quote for 3 at index 0.7500. */
export const arsSellQuote = quoteResult({
  isOpen: false,
  contracts: 3,
  entryPrice: '0.7399',
  indexPrice: '0.7500',
  cost: undefined,
  maxWin: undefined,
  exitValue: undefined,
  exchangeCapacity: undefined,
});

/** The close of 3 as the exchange ends it: filled at 0.7399, proceeds $2.19 after the fee. */
export function arsSell(over: Partial<OrderRow> = {}): OrderRow {
  return orderRow({
    side: 'SELL',
    qty: '3',
    contracts: 3,
    entryPrice: '0.7399',
    cost: '0.022197',
    maxWin: '0',
    proceeds: '2.19',
    status: 'FILLED',
    ...over,
  });
}
