/**
 * Keeps the realized P&L of SETTLEMENT rows (docs/pnl.md): worked out when a row is stored
 * (Store.applySettlements, with the other rows of the same position), again for the unknown ones
 * of an outcome when orders on it arrive (Store.applyOrderUpdates: a resync that brings the
 * missing orders fills them in), and on demand for a settlement's detail. Each write runs inside
 * the caller's transaction.
 *
 * A disagreement with the exchange's last costBasis is logged once, when the row's note first
 * says so (amounts and ids only; no secret is ever in reach here).
 */
import type { Logger } from '../../shared/log.js';
import type {
  SettlementRealizedRepo,
  SettlementToWorkOut,
} from '../store/repos/settlement-realized.js';
import { workOut, type WorkedOut, type WorkOutSources } from './work-out.js';

/** An outcome of a contract, whose SETTLEMENT rows are worked out again. */
export interface OutcomeKey {
  contractId: string;
  outcome: string;
}

export class RealizedPnl {
  readonly #rows: SettlementRealizedRepo;
  readonly #sources: WorkOutSources;
  #log: Logger | undefined;

  constructor(rows: SettlementRealizedRepo, sources: WorkOutSources) {
    this.#rows = rows;
    this.#sources = sources;
  }

  /** Where disagreements with the exchange are logged (none until set). */
  useLogger(log: Logger): void {
    this.#log = log;
  }

  /**
   * Works out the SETTLEMENT rows on each outcome again (only the unknown ones when
   * `onlyUnknown`) and writes what changed. Returns how many rows changed.
   */
  refresh(accountId: number, keys: Iterable<OutcomeKey>, onlyUnknown: boolean): number {
    let changed = 0;
    const seen = new Set<string>();
    for (const { contractId, outcome } of keys) {
      const key = `${contractId}\u0000${outcome}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const row of this.#rows.settlementsOn(accountId, contractId, outcome)) {
        if (onlyUnknown && row.pnlSource !== 'unknown') continue;
        if (this.write(row)) changed++;
      }
    }
    return changed;
  }

  /** Works out one row and writes it when it changed; true when it did. */
  write(row: SettlementToWorkOut): boolean {
    const { figure } = workOut(this.#sources, row);
    const before = this.#rows.figure(row.id);
    if (
      before !== undefined &&
      before.realizedMicros === figure.realizedMicros &&
      before.basisMicros === figure.basisMicros &&
      before.pnlSource === figure.pnlSource &&
      before.pnlNote === figure.pnlNote
    ) {
      return false;
    }
    this.#rows.set(row.id, figure);
    if (figure.pnlSource === 'orders' && figure.pnlNote !== null) {
      this.#log?.warn("a settlement's cost basis disagrees with the exchange's", {
        settlementId: row.id,
        contractId: row.contractId,
        outcome: row.outcome,
        note: figure.pnlNote,
      });
    }
    return true;
  }

  /** How the row's figure is reached now (the settlement's detail); undefined when not one. */
  explain(id: number): WorkedOut | undefined {
    const row = this.#rows.toWorkOut(id);
    return row && workOut(this.#sources, row);
  }
}
