/**
 * Equity over time (the Portfolio screen, docs/portfolio.md): one row per account and positions
 * read, written with the positions snapshot it sums (Store.replacePositions), so the chart needs
 * no request of its own and survives restarts.
 *
 * - Amounts are whole micro-dollars (toMicros) of the snapshot's open positions: unrealized P&L,
 *   cost basis (money at risk), max payout and value, with the number of positions.
 * - Thinned as it ages (repos/equity.ts): every read for 2 days, the last of each 15 minutes to
 *   90 days, then the last of each UTC day. The key (account, at) is what the thinning and the
 *   series read in order.
 */
import type { Db } from '../connection.js';

export const version = 7;
export const name = 'equity points';

export function up(db: Db): void {
  db.exec(`
    CREATE TABLE equity_points (
      account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      at           INTEGER NOT NULL,  -- local ms of the positions read
      positions    INTEGER NOT NULL,
      unrealized   INTEGER NOT NULL,  -- micros: sum of the positions' pnl
      cost_basis   INTEGER NOT NULL,  -- micros
      max_payout   INTEGER NOT NULL,  -- micros
      value        INTEGER NOT NULL,  -- micros
      PRIMARY KEY (account_id, at)
    ) STRICT, WITHOUT ROWID;
  `);
}
