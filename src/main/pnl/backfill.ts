/**
 * Works out the realized P&L of the SETTLEMENT rows an upgraded store holds (migration 006 left
 * them unknown without a note; its queue is the cursor `realized_backfill`), after the store is
 * open and while the app is usable. The app runs it on a worker thread (backfill-worker.ts); here
 * is the work itself, in turns that each hold the event loop for about `sliceMs`, one
 * transaction each, with setImmediate between them so IPC, the sync and the timers run in
 * between. `progress()` is what HistorySummary.working reports; `onDone` is told once the queue
 * is empty (the app pushes `history:changed` then). Rows the sync stores meanwhile are worked out
 * as they come (Store.applySettlements), so they never join the queue.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Store } from '../store/index.js';

/** A turn stops taking rows once it has run this long: well under the 20 ms a frame may wait. */
const SLICE_MS = 12;
/** Rows read from the queue at a time (the clock is looked at between reads). */
const READ = 16;

export interface BackfillOptions {
  sliceMs?: number;
  /** Told once when the queue is empty (not when stopped). */
  onDone?: () => void;
  /** Told after each turn (the worker passes it on to main). */
  onTurn?: (progress: BackfillProgress) => void;
}

export interface BackfillProgress {
  done: number;
  total: number;
}

export class RealizedBackfill {
  readonly #store: Pick<Store, 'transaction' | 'realized' | 'settlementRealized'>;
  readonly #sliceMs: number;
  readonly #onDone: (() => void) | undefined;
  readonly #onTurn: ((progress: BackfillProgress) => void) | undefined;
  #total = 0;
  #done = 0;
  #lastId = 0;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(
    store: Pick<Store, 'transaction' | 'realized' | 'settlementRealized'>,
    options: BackfillOptions = {},
  ) {
    this.#store = store;
    this.#sliceMs = options.sliceMs ?? SLICE_MS;
    this.#onDone = options.onDone;
    this.#onTurn = options.onTurn;
  }

  /** Starts (once) and resolves when the queue is empty or the backfill was stopped. */
  start(): Promise<void> {
    this.#running ??= this.#run();
    return this.#running;
  }

  /** Null when nothing is left (or it never had anything to do). */
  progress(): BackfillProgress | null {
    if (this.#running === undefined || this.#done >= this.#total) return null;
    return { done: this.#done, total: this.#total };
  }

  /** Stops after the current turn (before the store closes); start() then resolves. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }

  async #run(): Promise<void> {
    const from = this.#store.settlementRealized.backfillFrom();
    if (from === null) return;
    this.#lastId = from;
    this.#total = this.#store.settlementRealized.pendingCount();
    while (!this.#stopped) {
      const more = this.#store.transaction(() => this.#turn());
      if (!more) break;
      this.#onTurn?.({ done: this.#done, total: this.#total });
      await nextTurn();
    }
    if (!this.#stopped) {
      this.#done = this.#total;
      this.#onDone?.();
    }
  }

  /** Works out rows until the slice is used; false once the queue is empty. */
  #turn(): boolean {
    const started = performance.now();
    const write = this.#store.realized.batch();
    for (;;) {
      const rows = this.#store.settlementRealized.pending(this.#lastId, READ);
      if (rows.length === 0) {
        this.#store.settlementRealized.backfillAt(null);
        return false;
      }
      for (const row of rows) {
        write(row);
        this.#lastId = row.id;
        this.#done++;
      }
      if (performance.now() - started >= this.#sliceMs) {
        this.#store.settlementRealized.backfillAt(this.#lastId);
        return true;
      }
    }
  }
}
