/**
 * The store's migrations on their own thread (started by migrate-worker.ts): opens the file,
 * runs runMigrations (each migration in one transaction with its user_version, as on main),
 * says each step, closes, and ends. Main keeps serving the window meanwhile. Built as its own
 * entry beside the main bundle (electron.vite.config.ts); from the sources through tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openWriter, type Db } from './connection.js';
import { NewerSchemaError } from './errors.js';
import type { FromMigrateWorker, MigrateWorkerData } from './migrate-messages.js';
import { runMigrations } from './migrations/index.js';

const port = parentPort;
if (port === null) throw new Error('The store migrations run on a worker thread only.');
const say = (message: FromMigrateWorker): void => port.postMessage(message);

const { file, nativeBinding } = workerData as MigrateWorkerData;
let db: Db | undefined;
try {
  db = openWriter(file, nativeBinding);
  say({ kind: 'ready' });
  const { from, to } = runMigrations(db, undefined, (step) => say({ kind: 'step', step }));
  db.close();
  db = undefined;
  say({ kind: 'done', from, to });
} catch (err) {
  db?.close();
  const e = err as { message?: unknown; code?: unknown };
  say({
    kind: 'failed',
    error: {
      message: typeof e.message === 'string' ? e.message : String(err),
      ...(e.code === undefined ? {} : { code: e.code }),
      ...(err instanceof NewerSchemaError ? { newer: { found: err.found, known: err.known } } : {}),
    },
  });
} finally {
  port.close();
}
