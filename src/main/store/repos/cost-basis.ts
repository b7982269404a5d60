/**
 * The last costBasis GET /positions reported per (account, contract, outcome), and when
 * (migration 006). Written with every positions snapshot (Store.replacePositions) and kept after
 * the position leaves the list: a SETTLEMENT's basis rebuilt from the orders is checked against
 * it (docs/pnl.md).
 */
import type { Position } from '../../../shared/api/schemas.js';
import type { LastCostBasis } from '../../pnl/types.js';
import { StatementCache, type Db } from '../connection.js';

export class CostBasisRepo {
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  /** Keeps each position's costBasis as the latest. Not a transaction by itself. */
  record(accountId: number, positions: readonly Position[], seenAt: number): void {
    const upsert = this.#sql.get(
      `INSERT INTO position_cost_basis
         (account_id, contract_id, outcome, contracts, cost_basis, updated_at, seen_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, contract_id, outcome) DO UPDATE SET
         contracts = excluded.contracts, cost_basis = excluded.cost_basis,
         updated_at = excluded.updated_at, seen_at = excluded.seen_at`,
    );
    for (const p of positions) {
      upsert.run(accountId, p.contractId, p.outcome, p.contracts, p.costBasis, p.updatedAt, seenAt);
    }
  }

  get(accountId: number, contractId: string, outcome: string): LastCostBasis | undefined {
    return this.#sql
      .get(
        `SELECT contracts, cost_basis AS costBasis, updated_at AS updatedAt, seen_at AS seenAt
         FROM position_cost_basis WHERE account_id = ? AND contract_id = ? AND outcome = ?`,
      )
      .get(accountId, contractId, outcome) as LastCostBasis | undefined;
  }
}
