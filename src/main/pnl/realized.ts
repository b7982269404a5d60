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
import type { Order } from '../../shared/api/schemas.js';
import type { Logger } from '../../shared/log.js';
import { cachedSources } from './cached-sources.js';
import type { RealizedFigure, SettlementToWorkOut } from './types.js';
import { workOut, type WorkedOut, type WorkOutSources } from './work-out.js';

/** An outcome of a contract, whose SETTLEMENT rows are worked out again. */
export interface OutcomeKey {
  contractId: string;
  outcome: string;
}

/** The store's reads and write of the derived columns (SettlementRealizedRepo). */
export interface RealizedRows {
  settlementsOn(
    accountId: number,
    contractId: string,
    outcome: string,
    fromMs: number,
    options?: { onlyUnknown?: boolean; first?: boolean },
  ): SettlementToWorkOut[];
  toWorkOut(id: number): SettlementToWorkOut | undefined;
  figure(id: number): RealizedFigure | undefined;
  set(id: number, f: RealizedFigure): void;
}

/** A settlement row just stored: its outcome and when it settled. */
export interface AddedSettlement extends OutcomeKey {
  settledAt: number;
}

export class RealizedPnl {
  readonly #rows: RealizedRows;
  readonly #sources: WorkOutSources;
  #log: Logger | undefined;

  constructor(rows: RealizedRows, sources: WorkOutSources) {
    this.#rows = rows;
    this.#sources = sources;
  }

  /** Where disagreements with the exchange are logged (none until set). */
  useLogger(log: Logger): void {
    this.#log = log;
  }

  /**
   * After new settlement rows were stored: works out each new SETTLEMENT row, and the SETTLEMENT
   * on the outcome of each new CLOSED or KNOCKED_OUT row (the position's rows may come in another
   * sync page than its SETTLEMENT, and be stamped before or after it: an outcome resolves once,
   * so its one SETTLEMENT is looked for from the start). Returns how many rows changed.
   */
  afterSettlements(accountId: number, added: readonly AddedSettlement[]): number {
    const rows = new Map<number, SettlementToWorkOut>();
    const first = { first: true };
    for (const a of added) {
      for (const row of this.#rows.settlementsOn(accountId, a.contractId, a.outcome, 0, first)) {
        rows.set(row.id, row);
      }
    }
    return this.#writeAll(rows.values());
  }

  /**
   * After orders arrived: works the unknown SETTLEMENT rows on the outcomes of the filled ones
   * out again (a resync that brings the missing orders fills them in), those settled after the
   * order only. Returns how many rows changed.
   */
  afterOrders(accountId: number, orders: readonly Order[]): number {
    const earliest = new Map<string, { key: OutcomeKey; from: number }>();
    for (const o of orders) {
      if (o.status !== 'FILLED') continue;
      const id = `${o.contractId}\u0000${o.outcome}`;
      const seen = earliest.get(id);
      if (seen === undefined || o.createdAt < seen.from)
        earliest.set(id, { key: o, from: o.createdAt });
    }
    const rows: SettlementToWorkOut[] = [];
    for (const { key, from } of earliest.values()) {
      rows.push(
        ...this.#rows.settlementsOn(accountId, key.contractId, key.outcome, from, {
          onlyUnknown: true,
        }),
      );
    }
    return this.#writeAll(rows);
  }

  #writeAll(rows: Iterable<SettlementToWorkOut>): number {
    let changed = 0;
    for (const row of rows) if (this.write(row)) changed++;
    return changed;
  }

  /**
   * A writer for many rows in one transaction (the upgrade's backfill): like write(), reading
   * each outcome's orders and rows once (cached-sources.ts). Use it only inside the
   * transaction it was made in.
   */
  batch(): (row: SettlementToWorkOut) => boolean {
    const sources = cachedSources(this.#sources);
    // The rows come fresh from the queue in this transaction: an unknown one's figure is its
    // note alone, so it need not be read again.
    return (row) =>
      this.write(
        row,
        sources,
        row.pnlSource === 'unknown'
          ? { realizedMicros: null, basisMicros: null, pnlSource: 'unknown', pnlNote: row.pnlNote }
          : undefined,
      );
  }

  /** Works out one row and writes it when it changed; true when it did. */
  write(
    row: SettlementToWorkOut,
    sources: WorkOutSources = this.#sources,
    stored?: RealizedFigure,
  ): boolean {
    const { figure } = workOut(sources, row);
    const before = stored ?? this.#rows.figure(row.id);
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
