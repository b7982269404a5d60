/** What main and the migration worker (migrate.thread.ts) say to each other. */
import type { MigrationStep } from './migrations/index.js';

export interface MigrateWorkerData {
  file: string;
  nativeBinding?: string;
}

/** An error as it crosses the thread: its SQLite code, and a NewerSchemaError's versions. */
export interface SentMigrateError {
  message: string;
  code?: unknown;
  newer?: { found: number; known: number };
}

export type FromMigrateWorker =
  /** The file is open on the worker: the migrations run. */
  | { kind: 'ready' }
  /** A migration is about to run. */
  | { kind: 'step'; step: MigrationStep }
  /** Every migration ran and the connection is closed: main may open the file. */
  | { kind: 'done'; from: number; to: number }
  /** A migration (or the opening) failed; its transaction was rolled back. */
  | { kind: 'failed'; error: SentMigrateError };
