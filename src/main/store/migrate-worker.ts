/**
 * Runs the store's migrations off the main thread (migrate.thread.ts), so the main process
 * keeps serving the window and pushing the start's progress while an upgrade runs: migration
 * 006 on a big store takes seconds (docs/data.md, "Start"). Each step is told to `onStep`.
 *
 * The worker opens the file, migrates and closes it; the caller opens the migrated file after.
 * A worker that cannot start (no entry file, a native module the thread cannot load) leaves the
 * migrations to this thread, as before. Errors come back as what they were: NewerSchemaError,
 * or SQLite's error with its code (so a damaged file is still taken for damaged).
 */
import type { Worker } from 'node:worker_threads';
import { openWriter } from './connection.js';
import { NewerSchemaError } from './errors.js';
import type { FromMigrateWorker, MigrateWorkerData, SentMigrateError } from './migrate-messages.js';
import { runMigrations, type MigrationStep } from './migrations/index.js';
import { WorkerSqliteError } from './worker.js';
import { startWorker, workerEntry, type WorkerEntry } from './worker-entry.js';

export const MIGRATE_WORKER_BUNDLE = 'store-migrate.js';

/** The worker's entry for the way this code runs: a build, or the sources under tsx. */
export function defaultMigrateWorkerEntry(): WorkerEntry {
  return workerEntry(import.meta.url, MIGRATE_WORKER_BUNDLE, 'migrate.thread.ts');
}

export interface MigrateOptions {
  nativeBinding?: string;
  onStep?: (step: MigrationStep) => void;
  /** Default: defaultMigrateWorkerEntry(). */
  entry?: WorkerEntry;
}

/** Brings the (closed) store file `file` to the latest schema; see the file's comment. */
export async function migrateFile(
  file: string,
  options: MigrateOptions = {},
): Promise<{ from: number; to: number; onWorker: boolean }> {
  const data: MigrateWorkerData = {
    file,
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
  };
  const entry = options.entry ?? defaultMigrateWorkerEntry();
  let worker: Worker;
  try {
    worker = startWorker(entry, data);
  } catch {
    return { ...migrateHere(file, options), onWorker: false };
  }
  const outcome = await new Promise<FromMigrateWorker | { kind: 'lost'; ready: boolean }>(
    (resolve) => {
      let ready = false;
      worker.on('message', (message: FromMigrateWorker) => {
        if (message.kind === 'ready') ready = true;
        else if (message.kind === 'step') options.onStep?.(message.step);
        else resolve(message);
      });
      worker.on('error', () => resolve({ kind: 'lost', ready }));
      worker.on('exit', () => resolve({ kind: 'lost', ready }));
    },
  );
  await worker.terminate();
  switch (outcome.kind) {
    case 'done':
      return { from: outcome.from, to: outcome.to, onWorker: true };
    case 'failed':
      throw errorOf(outcome.error);
    default:
      // A thread that never opened the file changed nothing: this thread does the work. One
      // lost mid-way left the file at its last whole step (each is one transaction): the rest
      // runs here too.
      return { ...migrateHere(file, options), onWorker: false };
  }
}

function migrateHere(file: string, options: MigrateOptions): { from: number; to: number } {
  const db = openWriter(file, options.nativeBinding);
  try {
    return runMigrations(db, undefined, options.onStep);
  } finally {
    db.close();
  }
}

function errorOf(sent: SentMigrateError): Error {
  if (sent.newer) return new NewerSchemaError(sent.newer.found, sent.newer.known);
  return new WorkerSqliteError(sent.message, sent.code);
}
