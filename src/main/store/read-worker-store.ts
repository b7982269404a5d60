/**
 * What a read run by the store's read worker (read-worker.ts) is given: the store's repositories
 * over a read-only connection, opened without migrating (the app's own connection has already
 * brought the file up to date). In WAL mode the reader sees every committed write.
 */
import { threadId } from 'node:worker_threads';
import { openReader } from './connection.js';
import type { SettlementsRepoOptions } from './repos/settlements.js';
import { Store } from './store.js';

/** The store's repositories, without its writes: what a read may use. */
export type ReadableStore = Omit<
  Store,
  | 'db'
  | 'transaction'
  | 'applyOrderUpdates'
  | 'applySettlements'
  | 'replacePositions'
  | 'checkpoint'
  | 'openReader'
  | 'close'
>;

/**
 * A read the worker can run: synchronous, over the store's repositories, with an input and an
 * output that cross between threads as structured clones (plain data: no class, no function).
 */
export type StoreRead<I, O> = (store: ReadableStore, input: I) => O;

/** How the worker opens the file: the same settings as the app's own store. */
export interface ReadableStoreOptions {
  /** better-sqlite3's native module to load instead of the default (Electron's ABI build). */
  nativeBinding?: string;
  settlements?: SettlementsRepoOptions;
}

/** The repositories over a new read-only connection to `file`; close() it when done. */
export function openReadableStore(
  file: string,
  options: ReadableStoreOptions = {},
): { store: ReadableStore; close(): void } {
  const db = openReader(file, options.nativeBinding);
  const store = new Store(file, db, {
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    ...(options.settlements === undefined ? {} : { settlements: options.settlements }),
  });
  // Not Store.close(): its `PRAGMA optimize` is the writer's to run.
  return { store, close: () => db.close() };
}

/** Which thread answers the store's reads and what schema it sees: for diagnostics and tests. */
export function readerInfo(store: ReadableStore): { threadId: number; schemaVersion: number } {
  return { threadId, schemaVersion: store.schemaVersion };
}
