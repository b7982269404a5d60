/**
 * The engine's history sweeps (streams/history.ts reads; this keeps their state): the account's
 * first sync, and a resync the user asks for. A sweep runs as a pass of the settlements stream,
 * so it is never run twice at once, stop() waits for it, and its failures are the stream's.
 * Its progress is kept for `historyProgress()` and sent as 'history:progress' when it starts,
 * after every page and when it ends (done, failed, interrupted).
 *
 * A sweep left unfinished (stopped, failed, the process killed) is remembered in the store
 * (sweep-state.ts): the next settlements pass, in this process or the next start, carries it on
 * where it stopped, its progress continuing from the numbers last reported. A resync asked for
 * while one is left unfinished is that one, carried on: there is never more than one.
 *
 * While a sweep runs, a settlements pass someone asks for (a knockout check, a position that
 * shrank) is not made to wait for the whole sweep: the newest page is read between two of the
 * sweep's pages (`wantNewest`).
 */
import type { Settlement } from '../../shared/api/schemas.js';
import type { Store } from '../store/index.js';
import {
  HISTORY_INTERRUPTED,
  HistorySweepRunningError,
  historyFailure,
  isAborted,
} from './errors.js';
import type { HistorySweepProgress, HistorySweepReason } from './events.js';
import type { StreamContext } from './streams/context.js';
import { sweepHistory, type HistorySweepPass } from './streams/history.js';
import type { OrdersPass } from './streams/orders.js';
import type { SettlementsMemory } from './streams/settlements.js';
import { freshSweep, readSweep, saveSweep, type SweepResume } from './sweep-state.js';

/** A caller waiting for a pass or a sweep to end. */
export interface Waiter {
  resolve(): void;
  reject(err: Error): void;
}

export interface SweepDeps {
  accountId: number;
  store: Store;
  now(): number;
  emit(progress: HistorySweepProgress): void;
}

/** What the engine does with what a sweep reads. */
export interface SweepReads {
  /** Read the orders too (the engine syncs orders). */
  orders: boolean;
  memory: SettlementsMemory;
  onOrders(pass: OrdersPass): void;
  onRows(rows: Settlement[], total: number, initial: boolean): void;
  /** Reads the newest settlements page now, for those who asked (see wantNewest). */
  readNewest(): Promise<void>;
}

export class HistorySweeps {
  readonly #deps: SweepDeps;
  #progress: HistorySweepProgress | null = null;
  /** A resync was asked for and its sweep has not started yet. */
  #resyncWanted = false;
  /** Set while a sweep reads: someone asked for the newest settlements meanwhile. */
  #reading: { newestWanted: boolean } | null = null;

  constructor(deps: SweepDeps) {
    this.#deps = deps;
    // What the last run left unfinished shows as it stood until the sweep carries on.
    const left = this.#left();
    if (left !== null) {
      this.#progress = { ...progressOf(deps.accountId, left), ...INTERRUPTED };
    }
  }

  /**
   * The latest sweep's progress (a copy): the one the store remembers unfinished until it
   * carries on, else null when none ran since the engine was made.
   */
  get progress(): HistorySweepProgress | null {
    return this.#progress === null ? null : { ...this.#progress };
  }

  /** A sweep reads now (not merely asked for). */
  get reading(): boolean {
    return this.#reading !== null;
  }

  /**
   * Registers a resync: the next settlements pass is its sweep (the caller asks for that pass
   * and waits for it). A resync left unfinished is carried on rather than started again.
   * Throws HistorySweepRunningError while a sweep runs or is wanted.
   */
  requestResync(): void {
    if (this.#progress?.state === 'running') {
      throw new HistorySweepRunningError(this.#progress.reason);
    }
    const { store, accountId } = this.#deps;
    const now = this.#deps.now();
    const left = this.#left();
    const from = left?.reason === 'resync' ? left : freshSweep('resync', now);
    if (from !== left) {
      try {
        // Remembered at once: a resync asked for and cut short before its first page carries on.
        saveSweep(store, accountId, from, now);
      } catch {
        // The sweep stores it again as it starts, and says in words why it could not.
      }
    }
    this.#resyncWanted = true;
    // Running from now: the bar shows at once, even while the sweep waits for the exchange.
    this.#set({ ...progressOf(accountId, from), state: 'running', message: null });
  }

  /** Why the next settlements pass must sweep: a resync asked for or unfinished, no backfill yet. */
  due(backfilled: boolean): HistorySweepReason | null {
    if (this.#resyncWanted) return 'resync';
    const left = this.#left();
    if (left !== null) return left.reason;
    return backfilled ? null : 'first-sync';
  }

  /** The sweep for `reason` still has the orders to read (it holds the orders stream meanwhile). */
  readsOrders(reason: HistorySweepReason): boolean {
    const left = this.#left();
    return left === null || left.reason !== reason || !left.ordersRead;
  }

  /** Someone wants the newest settlements: true when a sweep will read them between pages. */
  wantNewest(): boolean {
    if (this.#reading === null) return false;
    this.#reading.newestWanted = true;
    return true;
  }

  /**
   * Runs a sweep as the settlements stream's pass. Returns whether a read of the newest page
   * was still wanted when it ended (the stream then runs a pass after it).
   */
  async run(
    reason: HistorySweepReason,
    ctx: StreamContext,
    reads: SweepReads,
  ): Promise<{ pass: HistorySweepPass; newestWanted: boolean }> {
    const asked = this.#progress?.state === 'running' ? this.#progress.startedAt : null;
    this.#resyncWanted = false;
    const left = this.#left();
    const from = left?.reason === reason ? left : freshSweep(reason, asked ?? this.#deps.now());
    // Reported by the sweep as it starts, once where it starts from is stored.
    this.#progress = { ...progressOf(this.#deps.accountId, from), state: 'running', message: null };
    const reading = { newestWanted: false };
    this.#reading = reading;
    try {
      const pass = await sweepHistory(ctx, {
        from,
        orders: reads.orders,
        memory: reads.memory,
        hooks: {
          orders: (r) => reads.onOrders(r),
          // The newest page of a resync would have been news to a settlements pass too.
          rows: (rows, total, news) => reads.onRows(rows, total, !news),
          progress: (c) => this.#set({ ...this.#progress!, ...c }),
          beforePage: async () => {
            if (!reading.newestWanted) return;
            reading.newestWanted = false;
            await reads.readNewest();
          },
        },
      });
      const p = this.#progress;
      this.#set({ ...p, state: 'done', estimatedPages: p.pages });
      return { pass, newestWanted: reading.newestWanted };
    } catch (err) {
      const interrupted = isAborted(err) || ctx.signal.aborted;
      this.#set({
        ...this.#progress,
        state: interrupted ? 'interrupted' : 'failed',
        message: interrupted ? HISTORY_INTERRUPTED : historyFailure(err, reason),
      });
      throw err;
    } finally {
      this.#reading = null;
    }
  }

  /** The engine stopped: a resync asked for that never started is interrupted too. */
  stopped(): void {
    if (!this.#resyncWanted) return;
    this.#resyncWanted = false;
    if (this.#progress?.state === 'running') {
      this.#set({ ...this.#progress, ...INTERRUPTED });
    }
  }

  /** The sweep the store remembers as unfinished, if any. */
  #left(): SweepResume | null {
    return readSweep(this.#deps.store, this.#deps.accountId);
  }

  #set(p: HistorySweepProgress): void {
    this.#progress = p;
    this.#deps.emit({ ...p });
  }
}

const INTERRUPTED = { state: 'interrupted', message: HISTORY_INTERRUPTED } as const;

/** The progress of a sweep as it stands (its state and message left to the caller). */
function progressOf(
  accountId: number,
  s: SweepResume,
): Omit<HistorySweepProgress, 'state' | 'message'> {
  return {
    accountId,
    reason: s.reason,
    pages: s.pages,
    estimatedPages: s.estimatedPages,
    added: s.added,
    startedAt: s.startedAt,
  };
}
