/**
 * The store's heavy reads (History's summaries and choices, and later the portfolio's and the
 * price history's) on a worker thread, so a big account never holds the main thread: in
 * Electron a blocked main freezes IPC, menus and the tray, in the browser host every socket.
 * The main thread keeps the sync, trading and alerts on its own connection.
 *
 * - One persistent worker (read-worker.thread.ts) with a read-only connection to the store file
 *   (WAL: it sees every committed write), started on the first read. Reads queue on its port
 *   and run one at a time, each answered by id.
 * - A worker that dies is started again by the next read; the reads it had not answered fail
 *   with ReadWorkerStoppedError.
 * - Where no worker can start (no entry file, a native module the thread cannot load), the reads
 *   run in this thread on the app's own store, as store/worker.ts does, and that is logged once.
 * - The worker holds the process only while a read is in flight; close() ends it.
 *
 * Where the worker's code is: in a build, `read-worker.js` beside the main bundle (its own entry
 * in electron.vite.config.ts); from the sources (the CLI under tsx, vitest), the .ts entry
 * beside this file, run through tsx's loader.
 */
import { Worker } from 'node:worker_threads';
import { silentLogger, type Logger } from '../../shared/log.js';
import { StoreError } from './errors.js';
import { workerEntry, type WorkerEntry } from './worker-entry.js';
import {
  receiveError,
  type FromReadWorker,
  type ReadWorkerData,
  type ToReadWorker,
} from './read-worker-messages.js';
import type { ReadableStore, ReadableStoreOptions } from './read-worker-store.js';
import {
  STORE_READS,
  type StoreReadInput,
  type StoreReadName,
  type StoreReadOutput,
} from './read-worker-table.js';

/** The worker's entry in a build: beside the main bundle, one folder above its chunks. */
export const READ_WORKER_BUNDLE = 'read-worker.js';

/** The worker's code: a module file, or a script that loads one. */
export type ReadWorkerEntry = WorkerEntry;

/** A read in flight when the worker stopped (it crashed, or was ended): trying again works. */
export class ReadWorkerStoppedError extends StoreError {
  constructor(read: string, why: string) {
    super(`The store's reader stopped (${why}) before it answered ${read}; try again.`);
    this.name = 'ReadWorkerStoppedError';
  }
}

export interface StoreReadsOptions extends ReadableStoreOptions {
  /** The store file the worker opens read-only. */
  file: string;
  /** Where the reads run when no worker can start: the app's own store. */
  fallback: ReadableStore;
  logger?: Logger;
  /** Default: defaultReadWorkerEntry(). Tests point it elsewhere. */
  entry?: ReadWorkerEntry;
}

interface Pending {
  name: StoreReadName;
  input: unknown;
  resolve: (output: unknown) => void;
  reject: (err: unknown) => void;
}

type State =
  | { is: 'idle' }
  | { is: 'starting' | 'ready'; worker: Worker }
  | { is: 'in-thread' }
  | { is: 'closed' };

/** The worker's entry for the way this code runs: a build, or the sources under tsx. */
export function defaultReadWorkerEntry(): ReadWorkerEntry {
  return workerEntry(import.meta.url, READ_WORKER_BUNDLE, 'read-worker.thread.ts');
}

/** Runs the reads of read-worker-table.ts on the store's read worker. */
export class StoreReads {
  readonly #options: StoreReadsOptions;
  readonly #logger: Logger;
  readonly #pending = new Map<number, Pending>();
  #state: State = { is: 'idle' };
  #nextId = 1;

  constructor(options: StoreReadsOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  /** Runs the read `name` with `input` on the worker (in this thread when none can start). */
  run<K extends StoreReadName>(name: K, input: StoreReadInput<K>): Promise<StoreReadOutput<K>> {
    const state = this.#state;
    if (state.is === 'closed') {
      return Promise.reject(new StoreError('The store is closed; its reads have stopped.'));
    }
    if (state.is === 'in-thread') return this.#inThread(name, input);
    const worker = state.is === 'idle' ? this.#start() : state.worker;
    if (worker === undefined) return this.#inThread(name, input);
    const id = this.#nextId++;
    return new Promise<StoreReadOutput<K>>((resolve, reject) => {
      this.#pending.set(id, { name, input, resolve: resolve as (o: unknown) => void, reject });
      worker.ref();
      const message: ToReadWorker = { kind: 'read', id, name, input };
      worker.postMessage(message);
    });
  }

  /** The worker running now, if any: for diagnostics and tests (which end it on purpose). */
  get worker(): Worker | undefined {
    const state = this.#state;
    return state.is === 'starting' || state.is === 'ready' ? state.worker : undefined;
  }

  /** Ends the worker (a read in flight fails); reads after this are refused. */
  async close(): Promise<void> {
    const state = this.#state;
    this.#state = { is: 'closed' };
    if (state.is !== 'starting' && state.is !== 'ready') return;
    this.#failPending(new StoreError('The store was closed before this read was answered.'));
    const exited = new Promise((resolve) => state.worker.once('exit', resolve));
    // The worker closes its connection itself; terminate() only ends a read still running.
    if (state.is === 'ready') state.worker.postMessage({ kind: 'close' } satisfies ToReadWorker);
    else await state.worker.terminate();
    state.worker.ref();
    await exited;
  }

  #start(): Worker | undefined {
    const { file, nativeBinding, settlements } = this.#options;
    const entry = this.#options.entry ?? defaultReadWorkerEntry();
    const workerData: ReadWorkerData = {
      file,
      ...(nativeBinding === undefined ? {} : { nativeBinding }),
      ...(settlements === undefined ? {} : { settlements }),
    };
    let worker: Worker;
    try {
      worker =
        'url' in entry
          ? new Worker(entry.url, { workerData })
          : new Worker(entry.script, { eval: true, workerData });
    } catch (err) {
      this.#runInThread(err);
      return undefined;
    }
    this.#state = { is: 'starting', worker };
    worker.on('message', (message: FromReadWorker) => this.#receive(worker, message));
    worker.on('error', (err) => this.#stopped(worker, err));
    worker.on('exit', (code) => this.#stopped(worker, `exit code ${code}`));
    return worker;
  }

  #receive(worker: Worker, message: FromReadWorker): void {
    if (this.worker !== worker) return;
    switch (message.kind) {
      case 'ready':
        this.#state = { is: 'ready', worker };
        this.#logger.info('the store reader started', { threadId: message.threadId });
        return;
      case 'failed':
        this.#stopped(worker, receiveError(message.error));
        return;
      case 'answer':
      case 'error': {
        const pending = this.#pending.get(message.id);
        if (pending === undefined) return;
        this.#pending.delete(message.id);
        if (this.#pending.size === 0) worker.unref();
        if (message.kind === 'answer') pending.resolve(message.output);
        else pending.reject(receiveError(message.error));
      }
    }
  }

  /** The worker failed or ended: before it was ready, reads go in-thread; after, it restarts. */
  #stopped(worker: Worker, why: unknown): void {
    const state = this.#state;
    if (this.worker !== worker) return;
    if (state.is === 'starting') {
      void worker.terminate();
      this.#runInThread(why);
      const waiting = [...this.#pending.values()];
      this.#pending.clear();
      for (const p of waiting) this.#inThread(p.name, p.input as never).then(p.resolve, p.reject);
      return;
    }
    this.#state = { is: 'idle' };
    void worker.terminate();
    const reason = why instanceof Error ? why.message : String(why);
    this.#logger.warn('the store reader stopped; it starts again on the next read', { reason });
    this.#failPending(undefined, reason);
  }

  #failPending(err: Error | undefined, why = 'closed'): void {
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of waiting) p.reject(err ?? new ReadWorkerStoppedError(p.name, why));
  }

  #runInThread(why: unknown): void {
    this.#state = { is: 'in-thread' };
    const reason = why instanceof Error ? why.message : String(why);
    this.#logger.warn('the store reader could not start a worker; heavy reads run on main', {
      reason,
    });
  }

  #inThread<K extends StoreReadName>(
    name: K,
    input: StoreReadInput<K>,
  ): Promise<StoreReadOutput<K>> {
    const read = STORE_READS[name] as (s: ReadableStore, i: unknown) => StoreReadOutput<K>;
    // What the read throws rejects the promise, as on the worker.
    return new Promise((resolve) => resolve(read(this.#options.fallback, input)));
  }
}
