/**
 * Runs the upgrade's backfill of realized P&L (backfill.ts) on a worker thread with its own
 * write connection (backfill.thread.ts), so the main thread keeps IPC, the sync and trading:
 * on main, a turn's commit that checkpointed the WAL held the event loop for 250–330 ms at 1M
 * settlements (docs/pnl.md, "The upgrade"). Same face as RealizedBackfill: start(), progress(),
 * stop().
 *
 * - Nothing to do (no `realized_backfill` row, the usual start): no thread at all.
 * - A worker that cannot start (no entry file, a native module the thread cannot load) leaves
 *   the work to RealizedBackfill on main, as before, and that is logged; one that fails later is
 *   logged and the rest waits for the next start (the queue's cursor is in the store).
 *
 * Where the worker's code is: in a build, `realized-backfill.js` beside the main bundle (its own
 * entry in electron.vite.config.ts); from the sources (tsx, vitest), the .ts entry beside this
 * file, through tsx's loader (as src/main/store/read-worker.ts does).
 */
import { Worker } from 'node:worker_threads';
import { silentLogger, type Logger } from '../../shared/log.js';
import type { Store } from '../store/index.js';
import { workerEntry, type WorkerEntry } from '../store/worker-entry.js';
import type { BackfillWorkerData, FromBackfillWorker } from './backfill-messages.js';
import { RealizedBackfill, type BackfillProgress } from './backfill.js';

export const BACKFILL_WORKER_BUNDLE = 'realized-backfill.js';

export type BackfillWorkerEntry = WorkerEntry;

/** The worker's entry for the way this code runs: a build, or the sources under tsx. */
export function defaultBackfillWorkerEntry(): BackfillWorkerEntry {
  return workerEntry(import.meta.url, BACKFILL_WORKER_BUNDLE, 'backfill.thread.ts');
}

export interface BackfillWorkerOptions {
  store: Pick<Store, 'file' | 'transaction' | 'realized' | 'settlementRealized'>;
  nativeBinding?: string;
  logger?: Logger;
  sliceMs?: number;
  /** Told once when the queue is empty (not when stopped or failed). */
  onDone?: () => void;
  /** Default: defaultBackfillWorkerEntry(). */
  entry?: BackfillWorkerEntry;
}

export class BackfillWorker {
  readonly #options: BackfillWorkerOptions;
  readonly #logger: Logger;
  #progress: BackfillProgress | null = null;
  #running: Promise<void> | undefined;
  #worker: Worker | undefined;
  #inThread: RealizedBackfill | undefined;
  #stopped = false;

  constructor(options: BackfillWorkerOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  /** Starts (once); resolves when the queue is empty, the work stopped, or it failed. */
  start(): Promise<void> {
    this.#running ??= this.#run();
    return this.#running;
  }

  /** Null when nothing is left (or it never had anything to do). */
  progress(): BackfillProgress | null {
    return this.#inThread?.progress() ?? this.#progress;
  }

  /** Stops after the current turn (before the store closes); start() then resolves. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#worker?.postMessage({ kind: 'stop' });
    await this.#inThread?.stop();
    await this.#running;
  }

  async #run(): Promise<void> {
    const { store } = this.#options;
    if (this.#stopped || store.settlementRealized.backfillFrom() === null) return;
    this.#progress = { done: 0, total: store.settlementRealized.pendingCount() };
    const data: BackfillWorkerData = {
      file: store.file,
      ...(this.#options.nativeBinding === undefined
        ? {}
        : { nativeBinding: this.#options.nativeBinding }),
      ...(this.#options.sliceMs === undefined ? {} : { sliceMs: this.#options.sliceMs }),
    };
    const entry = this.#options.entry ?? defaultBackfillWorkerEntry();
    let worker: Worker;
    try {
      worker =
        'url' in entry
          ? new Worker(entry.url, { workerData: data })
          : new Worker(entry.script, { eval: true, workerData: data });
    } catch (err) {
      return this.#runInThread(err);
    }
    this.#worker = worker;
    const outcome = await new Promise<'done' | 'ended' | { failed: unknown; ready: boolean }>(
      (resolve) => {
        let ready = false;
        worker.on('message', (message: FromBackfillWorker) => {
          switch (message.kind) {
            case 'ready':
              ready = true;
              return;
            case 'progress':
              this.#progress = { done: message.done, total: message.total };
              return;
            case 'done':
              resolve('done');
              return;
            case 'failed':
              resolve({ failed: message.message, ready });
              return;
            case 'log':
              this.#logger.warn(message.message, message.fields);
          }
        });
        worker.on('error', (err) => resolve({ failed: err, ready }));
        worker.on('exit', () => resolve('ended'));
      },
    );
    this.#worker = undefined;
    this.#progress = null;
    await worker.terminate();
    if (outcome === 'done') {
      this.#options.onDone?.();
    } else if (outcome !== 'ended') {
      if (!outcome.ready && !this.#stopped) return this.#runInThread(outcome.failed);
      this.#logger.warn('working out realized P&L after the upgrade failed', {
        reason: reasonOf(outcome.failed),
      });
    }
  }

  #runInThread(why: unknown): Promise<void> {
    this.#progress = null;
    this.#logger.warn('the realized P&L backfill could not start a worker; it runs on main', {
      reason: reasonOf(why),
    });
    const { onDone } = this.#options;
    this.#inThread = new RealizedBackfill(this.#options.store, {
      ...(this.#options.sliceMs === undefined ? {} : { sliceMs: this.#options.sliceMs }),
      ...(onDone === undefined ? {} : { onDone }),
    });
    return this.#inThread.start();
  }
}

const reasonOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
