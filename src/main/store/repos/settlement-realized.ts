/**
 * The reads and the one write behind a settlement's realized P&L (migration 006, docs/pnl.md):
 * the rows that ended positions on an outcome, the SETTLEMENT rows to work out, the backfill's
 * queue, and the derived columns themselves. The exchange's columns stay append-only (the
 * trigger settlements_immutable); only these four may be written after the insert.
 */
import { StatementCache, type Db } from '../connection.js';
import type { OutcomeRow, RealizedFigure, SettlementToWorkOut } from '../../pnl/types.js';

const TO_WORK_OUT = `id, account_id AS accountId, contract_id AS contractId, outcome, contracts,
  payout_micros AS payoutMicros, timestamp_ms AS settledAt, pnl_source AS pnlSource,
  pnl_note AS pnlNote`;

export class SettlementRealizedRepo {
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  /** The settlement rows on the outcome settled from `fromMs` to `untilMs`, both included. */
  rowsBetween(
    accountId: number,
    contractId: string,
    outcome: string,
    fromMs: number,
    untilMs: number,
  ): OutcomeRow[] {
    return this.#sql
      .get(
        `SELECT id, type, contracts, timestamp_ms AS settledAt, pnl_micros AS pnlMicros
         FROM settlements INDEXED BY settlements_by_contract
         WHERE account_id = ? AND contract_id = ? AND outcome = ?
           AND timestamp_ms >= ? AND timestamp_ms <= ?`,
      )
      .all(accountId, contractId, outcome, fromMs, untilMs) as OutcomeRow[];
  }

  /** When the last settlement row on the outcome before `beforeMs` settled; null when none. */
  lastBefore(
    accountId: number,
    contractId: string,
    outcome: string,
    beforeMs: number,
  ): number | null {
    const ms = this.#sql
      .get(
        `SELECT max(timestamp_ms) FROM settlements INDEXED BY settlements_by_contract
         WHERE account_id = ? AND contract_id = ? AND outcome = ? AND timestamp_ms < ?`,
      )
      .pluck()
      .get(accountId, contractId, outcome, beforeMs) as number | null;
    return ms;
  }

  /**
   * The SETTLEMENT rows on the outcome settled at or after `fromMs` (a contract resolves once:
   * one, in practice); only the unknown ones when `onlyUnknown`, only the first when `first`.
   */
  settlementsOn(
    accountId: number,
    contractId: string,
    outcome: string,
    fromMs: number,
    options: { onlyUnknown?: boolean; first?: boolean } = {},
  ): SettlementToWorkOut[] {
    return this.#sql
      .get(
        `SELECT ${TO_WORK_OUT} FROM settlements INDEXED BY settlements_by_contract
         WHERE account_id = ? AND contract_id = ? AND outcome = ? AND timestamp_ms >= ?
           AND type = 'SETTLEMENT' ${options.onlyUnknown === true ? "AND pnl_source = 'unknown'" : ''}
         ORDER BY timestamp_ms, id ${options.first === true ? 'LIMIT 1' : ''}`,
      )
      .all(accountId, contractId, outcome, fromMs) as SettlementToWorkOut[];
  }

  /** One SETTLEMENT row by id (any account), or undefined. */
  toWorkOut(id: number): SettlementToWorkOut | undefined {
    return this.#sql
      .get(`SELECT ${TO_WORK_OUT} FROM settlements WHERE id = ? AND type = 'SETTLEMENT'`)
      .get(id) as SettlementToWorkOut | undefined;
  }

  /**
   * The next rows to work out (an upgraded store's SETTLEMENT rows), by id: the backfill's queue
   * (`realized_backfill`, migrations 006 and 010) from `afterId` on, walked by id. A row whose
   * basis is the exchange's was worked out by the current method as it was stored.
   */
  pending(afterId: number, limit: number): SettlementToWorkOut[] {
    return this.#sql
      .get(
        `SELECT ${TO_WORK_OUT} FROM settlements
         WHERE id > ? AND id <= (SELECT until_id FROM realized_backfill)
           AND type = 'SETTLEMENT' AND pnl_source != 'exchange'
         ORDER BY id LIMIT ?`,
      )
      .all(afterId, limit) as SettlementToWorkOut[];
  }

  /**
   * How many rows are left to work out, at most: the SETTLEMENT rows the slots count (a few
   * lookups, not a scan), while the backfill's queue is open; 0 once it is done.
   */
  pendingCount(): number {
    return this.#sql
      .get(
        `SELECT coalesce(sum(n), 0) FROM settlement_slots
         WHERE type = 'SETTLEMENT' AND EXISTS (SELECT 1 FROM realized_backfill)`,
      )
      .pluck()
      .get() as number;
  }

  /** Where the backfill's queue stands: the id it goes on after, or null when it is done. */
  backfillFrom(): number | null {
    const id = this.#sql.get('SELECT next_id FROM realized_backfill').pluck().get();
    return (id as number | undefined) ?? null;
  }

  /** Moves the queue on past `id`, or closes it (`null`): the backfill is done. */
  backfillAt(id: number | null): void {
    if (id === null) this.#sql.get('DELETE FROM realized_backfill').run();
    else this.#sql.get('UPDATE realized_backfill SET next_id = ?').run(id);
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
