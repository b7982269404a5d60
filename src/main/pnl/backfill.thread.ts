/**
 * The upgrade's backfill of realized P&L (backfill.ts) on its own thread (started by
 * backfill-worker.ts), with its own write connection to the store file, so its work, its
 * commits and their WAL checkpoints never hold the main thread. Its transactions stay short
 * (one turn of about `sliceMs`), so a write of main's waits for one turn at most. Built as its
 * own entry beside the main bundle (electron.vite.config.ts); from the sources through tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openWriter } from '../store/connection.js';
import { Store } from '../store/index.js';
import type {
  BackfillWorkerData,
  FromBackfillWorker,
  ToBackfillWorker,
} from './backfill-messages.js';
import { RealizedBackfill } from './backfill.js';

/** Pages the WAL may hold before this connection copies them back: well below main's 10,000. */
const CHECKPOINT_PAGES = 4000;

const port = parentPort;
if (port === null) throw new Error('The realized P&L backfill runs on a worker thread only.');
const say = (message: FromBackfillWorker): void => port.postMessage(message);

const { file, nativeBinding, sliceMs } = workerData as BackfillWorkerData;
let store: Store | undefined;
try {
  const db = openWriter(file, nativeBinding);
  // Checkpoints in small steps here, on this thread: the WAL stays far below the size at
  // which main's own commit would checkpoint it (connection.ts).
  db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
  store = new Store(file, db);
} catch (err) {
  say({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
  port.close();
}

if (store !== undefined) {
  const open = store;
  open.realized.useLogger({
    debug: () => {},
    info: () => {},
    warn: (message, fields) => say({ kind: 'log', message, fields: fields ?? {} }),
  });
  const backfill = new RealizedBackfill(open, {
    ...(sliceMs === undefined ? {} : { sliceMs }),
    onTurn: (progress) => say({ kind: 'progress', ...progress }),
    onDone: () => say({ kind: 'done' }),
  });
  port.on('message', (message: ToBackfillWorker) => {
    if (message.kind === 'stop') void backfill.stop();
  });
  say({ kind: 'ready' });
  backfill
    .start()
    .catch((err: unknown) =>
      say({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }),
    )
    .finally(() => {
      open.close();
      port.close();
    });
}
