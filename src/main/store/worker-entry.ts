/**
 * Where a worker thread's code is, for the way this code runs (the store's read worker, the
 * realized-P&L backfill, the migrations): in a build, its own entry file beside the main bundle
 * (electron.vite.config.ts); from the sources (tsx, vitest), its .ts entry beside the caller,
 * through tsx's loader.
 */
import { Worker } from 'node:worker_threads';

/** A file to start, or a script to eval that imports the sources. */
export type WorkerEntry = { url: URL } | { script: string };

/** Starts a thread at `entry` with `workerData`; throws when it cannot start. */
export function startWorker(entry: WorkerEntry, workerData: unknown): Worker {
  return 'url' in entry
    ? new Worker(entry.url, { workerData })
    : new Worker(entry.script, { eval: true, workerData });
}

const BUNDLE_CHUNKS = /\/chunks\/[^/]*$/;

/**
 * `here`: the caller's import.meta.url; `bundleFile`: the entry's name in the build;
 * `sourceFile`: the .ts entry beside the caller.
 */
export function workerEntry(here: string, bundleFile: string, sourceFile: string): WorkerEntry {
  if (!here.endsWith('.ts')) {
    // This code is in a chunk of the bundle, or in an entry itself.
    const bundle = BUNDLE_CHUNKS.test(here) ? new URL('..', here) : here;
    return { url: new URL(bundleFile, bundle) };
  }
  // Node 20 takes no `--import tsx` for a worker, and tsx registers itself on the main thread
  // only: the script registers tsx's loader through its API, then imports the sources.
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = new URL(sourceFile, here).href;
  return {
    script: `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(source)}); });`,
  };
}
