/** What the main thread and the backfill's worker (backfill.thread.ts) say to each other. */

export interface BackfillWorkerData {
  file: string;
  nativeBinding?: string;
  sliceMs?: number;
}

export type ToBackfillWorker = { kind: 'stop' };

export type FromBackfillWorker =
  /** The connection is open; the backfill runs. */
  | { kind: 'ready' }
  /** After each turn. */
  | { kind: 'progress'; done: number; total: number }
  /** The queue is empty; the thread ends. */
  | { kind: 'done' }
  /** It could not open the store, or a turn failed; the thread ends. */
  | { kind: 'failed'; message: string }
  /** A line for main's log (a disagreement with the exchange's costBasis). */
  | { kind: 'log'; message: string; fields: Record<string, unknown> };
