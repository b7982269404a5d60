/**
 * One position's detail, opened from its row or from `app:show` with `detail: true`: its
 * outcome's price over time (`prices:series`, docs/ipc.md) and the fills that built it (the
 * blotter's `orders:list`, scoped to the contract). The figures of the position itself (entry,
 * knockout, closing now) come live from the positions view; this holds what the view has not.
 */
import type { OrderRow, PositionRow, PriceSeries } from '../../../../shared/ipc/contract.js';
import type { Bridge } from '../bridge.js';
import { Loader } from './loader.svelte.js';

/** The most fills one contract's detail reads (the blotter's page limit). */
export const FILL_LIMIT = 500;

export interface PositionRef {
  contractId: string;
  outcome: string;
}

export class PositionDetailState {
  // Which position is open moves with its reads: `open` and `close` keep them together.
  #opened = $state.raw<PositionRef | null>(null);
  /** The row as last seen in the view: kept when the position closes while the detail is open. */
  row = $state.raw<PositionRow | null>(null);
  /** The outcome's prices; null until read. */
  series = $state.raw<PriceSeries | null>(null);
  /** The filled orders on this outcome, oldest first; null until read. */
  fills = $state.raw<OrderRow[] | null>(null);
  /**
   * The fills of the position open now (from the row's `heldSince`): an earlier, finished
   * position on the same outcome is not this one. All of them when that time is not known.
   */
  readonly heldFills = $derived.by((): OrderRow[] | null => {
    const since = this.row?.heldSince ?? null;
    const fills = this.fills;
    return fills === null || since === null ? fills : fills.filter((f) => f.createdAt >= since);
  });
  readonly seriesReads = new Loader();
  readonly fillReads = new Loader();
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  /** The position whose detail is open; null when none is. */
  get opened(): PositionRef | null {
    return this.#opened;
  }

  /** Opens the detail of `ref` (a row, or a contract and outcome main named) and reads it. */
  open(ref: PositionRef, row: PositionRow | null = null): void {
    this.#opened = { contractId: ref.contractId, outcome: ref.outcome };
    this.row = row;
    this.series = null;
    this.fills = null;
    void this.#readSeries();
    void this.#readFills();
  }

  close(): void {
    this.#opened = null;
    this.row = null;
    this.series = null;
    this.fills = null;
    this.seriesReads.cancel();
    this.fillReads.cancel();
  }

  /** A new positions view: the row's figures follow it, and the prices are read again. */
  follow(all: readonly PositionRow[]): void {
    const o = this.#opened;
    if (!o) return;
    const row = all.find((p) => p.contractId === o.contractId && p.outcome === o.outcome);
    if (row) this.row = row;
    void this.#readSeries();
  }

  /** Reads both again (the Try again button). */
  retry(): void {
    if (!this.#opened) return;
    void this.#readSeries();
    void this.#readFills();
  }

  async #readSeries(): Promise<void> {
    const o = this.#opened;
    if (!o) return;
    await this.seriesReads.run(
      () => this.#bridge.invoke('prices:series', { contractId: o.contractId, outcome: o.outcome }),
      (series) => (this.series = series),
    );
  }

  async #readFills(): Promise<void> {
    const o = this.#opened;
    if (!o) return;
    await this.fillReads.run(
      () =>
        this.#bridge.invoke('orders:list', {
          contractId: o.contractId,
          status: 'filled',
          limit: FILL_LIMIT,
          offset: 0,
        }),
      (page) =>
        (this.fills = page.rows
          .filter((r) => r.outcome === o.outcome)
          .sort((a, b) => a.createdAt - b.createdAt)),
    );
  }
}
