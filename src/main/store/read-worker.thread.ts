/**
 * The store's read worker, on its own thread (started by read-worker.ts): one read-only
 * connection to the store file, and the reads of read-worker-table.ts run on it one message at
 * a time. Built as its own entry beside the main bundle (electron.vite.config.ts); run from
 * this source through tsx under the CLI and the tests.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import {
  sendError,
  type FromReadWorker,
  type ReadWorkerData,
  type ToReadWorker,
} from './read-worker-messages.js';
import { openReadableStore, type ReadableStore } from './read-worker-store.js';
import { isStoreReadName, STORE_READS } from './read-worker-table.js';

const port = parentPort;
if (port === null) throw new Error('The store read worker runs on a worker thread only.');
const say = (message: FromReadWorker): void => port.postMessage(message);

const { file, ...options } = workerData as ReadWorkerData;
let reader: ReturnType<typeof openReadableStore> | undefined;
try {
  reader = openReadableStore(file, options);
  say({ kind: 'ready', threadId });
} catch (err) {
  say({ kind: 'failed', error: sendError(err) });
  port.close();
}

port.on('message', (message: ToReadWorker) => {
  if (reader === undefined) return;
  if (message.kind === 'close') {
    reader.close();
    reader = undefined;
    port.close();
    return;
  }
  const { id, name, input } = message;
  try {
    if (!isStoreReadName(name)) throw new Error(`The store has no read named ${String(name)}.`);
    const read = STORE_READS[name] as (store: ReadableStore, input: unknown) => unknown;
    say({ kind: 'answer', id, output: read(reader.store, input) });
  } catch (err) {
    say({ kind: 'error', id, error: sendError(err) });
  }
});
