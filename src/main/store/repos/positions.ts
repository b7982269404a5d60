/**
 * The account's open positions as of the last GET /positions. The exchange's answer is the
 * whole truth, so a snapshot replaces the previous set: a position missing from it is closed.
 */
import type { Position } from '../../../shared/api/schemas.js';
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';
import { orNull } from '../paging.js';

export interface PositionFilter {
  contractId?: string;
  /** The team the position is on (its outcome). */
  team?: string;
}

/** A position as stored, with the time of the snapshot it came from. */
export interface StoredPosition extends Position {
  snapshotAt: number;
}

interface PositionRow {
  contract_id: string;
  outcome: string;
  contracts: number;
  entry_price: string;
  estimated_closing_price: string;
  boosted: number;
  cost_basis: string;
  value: string;
  pnl: string;
  pnl_percent: string;
  max_payout: string;
  knockout: string | null;
  updated_at: number;
  snapshot_at: number;
}

function toPosition(r: PositionRow): StoredPosition {
  const p: StoredPosition = {
    contractId: r.contract_id,
    outcome: r.outcome,
    contracts: r.contracts,
    entryPrice: r.entry_price,
    estimatedClosingPrice: r.estimated_closing_price,
    boosted: r.boosted === 1,
    costBasis: r.cost_basis,
    value: r.value,
    pnl: r.pnl,
    pnlPercent: r.pnl_percent,
    maxPayout: r.max_payout,
    updatedAt: r.updated_at,
    snapshotAt: r.snapshot_at,
  };
  if (r.knockout !== null) p.knockout = r.knockout;
  return p;
}

export class PositionsRepo {
  readonly #db: Db;
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#db = db;
    this.#sql = new StatementCache(db);
  }

  /** Replaces the account's positions with `positions`, all or nothing. */
  replace(accountId: number, positions: readonly Position[], snapshotAt: number): void {
    const del = this.#sql.get('DELETE FROM position_snapshots WHERE account_id = ?');
    const ins = this.#sql.get(
      `INSERT INTO position_snapshots (account_id, contract_id, outcome, contracts, entry_price,
         estimated_closing_price, boosted, cost_basis, value, pnl, pnl_percent, max_payout,
         knockout, updated_at, snapshot_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#db.transaction(() => {
      del.run(accountId);
      for (const p of positions) {
        ins.run(
          accountId,
          p.contractId,
          p.outcome,
          p.contracts,
          p.entryPrice,
          p.estimatedClosingPrice,
          p.boosted ? 1 : 0,
          p.costBasis,
          p.value,
          p.pnl,
          p.pnlPercent,
          p.maxPayout,
          orNull(p.knockout),
          p.updatedAt,
          snapshotAt,
        );
      }
    })();
  }

  /** The account's positions, by contract then outcome. */
  list(accountId: number, filter: PositionFilter = {}): StoredPosition[] {
    const terms = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (filter.contractId !== undefined) {
      terms.push('contract_id = ?');
      params.push(filter.contractId.toUpperCase());
    }
    if (filter.team !== undefined) {
      terms.push('outcome = ?');
      params.push(filter.team.toUpperCase());
    }
    const rows = this.#sql
      .get(
        `SELECT * FROM position_snapshots WHERE ${terms.join(' AND ')}
         ORDER BY contract_id, outcome`,
      )
      .all(...params) as PositionRow[];
    return rows.map(toPosition);
  }
}
