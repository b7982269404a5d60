/**
 * SQLite work too long for the event loop of an app serving its window (a quick_check of a big
 * store takes about a second, the last step of a backup a quarter of one), run on a worker
 * thread. The worker is plain CommonJS given as text, so it needs no file of its own in the
 * bundles (electron-vite, the browser host, the CLI); better-sqlite3 is loaded from the path
 * this module resolves, with the Electron build's native binding when there is one.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * What the code of a job sees: `workerData`, `open(file, options)`, `reply(result)` and
 * `note(news)` (how far it is, for onWorker's `onNote`).
 */
const PRELUDE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const open = (file, options) => new Database(file, {
  ...options,
  ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}),
});
const reply = (result) => parentPort.postMessage({ result });
const note = (news) => parentPort.postMessage({ note: news });
const fail = (err) => parentPort.postMessage({
  error: { message: String(err && err.message ? err.message : err), code: err && err.code },
});
`;

/** An error SQLite raised on the worker, with its code (SQLITE_NOTADB, ...). */
export class WorkerSqliteError extends Error {
  readonly code: unknown;

  constructor(message: string, code: unknown) {
    super(message);
    this.name = 'SqliteError';
    this.code = code;
  }
}

/**
 * Runs `body` (an async function body that calls `reply` once) on a worker thread with `data` as
 * `workerData`. Resolves with what it replied (null for nothing to say); throws what it failed
 * with; resolves `undefined` when no worker could run here, so the caller does the work itself.
 */
export async function onWorker(
  body: string,
  data: Record<string, unknown>,
  nativeBinding?: string,
  onNote?: (news: unknown) => void,
): Promise<string | null | undefined> {
  let module: string;
  try {
    module = createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    return undefined;
  }
  const code = `${PRELUDE}\n(async () => {\n${body}\n})().catch(fail);`;
  const answer = await new Promise<
    { result?: string | null; error?: { message: string; code: unknown } } | undefined
  >((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(code, {
        eval: true,
        workerData: { ...data, module, nativeBinding },
      });
    } catch {
      resolve(undefined);
      return;
    }
    worker.on('message', (message: { note?: unknown; result?: string | null }) => {
      if ('note' in message) onNote?.(message.note);
      else resolve(message);
    });
    // The worker could not load better-sqlite3 (or run at all): the caller works in-thread.
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
  if (answer === undefined) return undefined;
  if (answer.error) throw new WorkerSqliteError(answer.error.message, answer.error.code);
  return answer.result ?? null;
}
