/**
 * The reads and the one write behind a settlement's realized P&L (migration 006, docs/pnl.md):
 * the rows that ended positions on an outcome, the SETTLEMENT rows to work out, the backfill's
 * queue, and the derived columns themselves. The exchange's columns stay append-only (the
 * trigger settlements_immutable); only these four may be written after the insert.
 */
import type { SettlementType } from '../../../shared/api/schemas.js';
import { StatementCache, type Db } from '../connection.js';
import type { PnlSource } from './settlements.js';

/** A settlement row on one outcome, as the replay reads it. */
export interface OutcomeRow {
  id: number;
  type: SettlementType;
  contracts: number;
  settledAt: number;
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

const TO_WORK_OUT = `id, account_id AS accountId, contract_id AS contractId, outcome, contracts,
  payout_micros AS payoutMicros, timestamp_ms AS settledAt, pnl_source AS pnlSource,
  pnl_note AS pnlNote`;

export class SettlementRealizedRepo {
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  /** Every settlement row on the outcome settled at or before `untilMs`, newest first. */
  outcomeRows(
    accountId: number,
    contractId: string,
    outcome: string,
    untilMs: number,
  ): OutcomeRow[] {
    return this.#sql
      .get(
        `SELECT id, type, contracts, timestamp_ms AS settledAt
         FROM settlements INDEXED BY settlements_by_contract
         WHERE account_id = ? AND contract_id = ? AND outcome = ? AND timestamp_ms <= ?
         ORDER BY timestamp_ms DESC, id DESC`,
      )
      .all(accountId, contractId, outcome, untilMs) as OutcomeRow[];
  }

  /** The SETTLEMENT rows on the outcome (a contract resolves once: one, in practice). */
  settlementsOn(accountId: number, contractId: string, outcome: string): SettlementToWorkOut[] {
    return this.#sql
      .get(
        `SELECT ${TO_WORK_OUT} FROM settlements INDEXED BY settlements_by_contract
         WHERE account_id = ? AND contract_id = ? AND outcome = ? AND type = 'SETTLEMENT'`,
      )
      .all(accountId, contractId, outcome) as SettlementToWorkOut[];
  }

  /** One SETTLEMENT row by id (any account), or undefined. */
  toWorkOut(id: number): SettlementToWorkOut | undefined {
    return this.#sql
      .get(`SELECT ${TO_WORK_OUT} FROM settlements WHERE id = ? AND type = 'SETTLEMENT'`)
      .get(id) as SettlementToWorkOut | undefined;
  }

  /** The next rows not worked out yet (an upgraded store's SETTLEMENT rows), by id. */
  pending(afterId: number, limit: number): SettlementToWorkOut[] {
    return this.#sql
      .get(
        `SELECT ${TO_WORK_OUT} FROM settlements INDEXED BY settlements_pnl_pending
         WHERE pnl_source = 'unknown' AND pnl_note IS NULL AND id > ? ORDER BY id LIMIT ?`,
      )
      .all(afterId, limit) as SettlementToWorkOut[];
  }

  /** How many rows are not worked out yet. */
  pendingCount(): number {
    return this.#sql
      .get(
        `SELECT count(*) FROM settlements INDEXED BY settlements_pnl_pending
         WHERE pnl_source = 'unknown' AND pnl_note IS NULL`,
      )
      .pluck()
      .get() as number;
  }

  /** The row's derived figure as stored. */
  figure(id: number): RealizedFigure | undefined {
    return this.#sql
      .get(
        `SELECT realized_micros AS realizedMicros, basis_micros AS basisMicros,
           pnl_source AS pnlSource, pnl_note AS pnlNote FROM settlements WHERE id = ?`,
      )
      .get(id) as RealizedFigure | undefined;
  }

  /** Writes the row's derived figure; the slot triggers follow a change of realized P&L. */
  set(id: number, f: RealizedFigure): void {
    this.#sql
      .get(
        `UPDATE settlements SET realized_micros = ?, basis_micros = ?, pnl_source = ?,
           pnl_note = ? WHERE id = ?`,
      )
      .run(f.realizedMicros, f.basisMicros, f.pnlSource, f.pnlNote, id);
  }
}
