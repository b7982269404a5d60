/**
 * What the main thread and the store's read worker say to each other (read-worker.ts), and how
 * an error a read throws crosses: as its name, message and the fields callers tell errors by
 * (a SQLite `code`, a refusal's `kind`), given back on main as the same class where the
 * bridge's error table needs it (a Refusal, an unknown time zone), else as a ReadFailedError.
 */
import { UnknownTimeZoneError } from '../history/zoned-time.js';
import { Refusal } from '../refusal.js';
import type { ReadableStoreOptions } from './read-worker-store.js';
import type { StoreReadName } from './read-worker-table.js';

/** What the worker is started with. */
export interface ReadWorkerData extends ReadableStoreOptions {
  file: string;
}

export type ToReadWorker =
  | { kind: 'read'; id: number; name: StoreReadName; input: unknown }
  /** Close the connection and end the thread. */
  | { kind: 'close' };

export type FromReadWorker =
  /** The connection is open: reads may come. */
  | { kind: 'ready'; threadId: number }
  /** The connection could not be opened; the thread ends. */
  | { kind: 'failed'; error: SentError }
  | { kind: 'answer'; id: number; output: unknown }
  | { kind: 'error'; id: number; error: SentError };

/** An error as it crosses between threads: plain fields only. */
export interface SentError {
  name: string;
  message: string;
  code?: string | number;
  kind?: string;
  retryAfterMs?: number;
  timeZone?: string;
}

export function sendError(err: unknown): SentError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const e = err as Error & Partial<Record<'code' | 'kind' | 'retryAfterMs' | 'timeZone', unknown>>;
  const out: SentError = { name: e.name, message: e.message };
  if (typeof e.code === 'string' || typeof e.code === 'number') out.code = e.code;
  if (typeof e.kind === 'string') out.kind = e.kind;
  if (typeof e.retryAfterMs === 'number') out.retryAfterMs = e.retryAfterMs;
  if (typeof e.timeZone === 'string') out.timeZone = e.timeZone;
  return out;
}

/** A read failed on the worker with an error of no class main tells apart. */
export class ReadFailedError extends Error {
  readonly code: string | number | undefined;

  constructor(sent: SentError) {
    super(sent.message);
    this.name = sent.name;
    this.code = sent.code;
  }
}

/** The error `sent` stands for, on this thread. */
export function receiveError(sent: SentError): Error {
  if (sent.name === 'Refusal' && sent.kind !== undefined) {
    const code = typeof sent.code === 'number' ? sent.code : undefined;
    return new Refusal(sent.kind as Refusal['kind'], sent.message, code, sent.retryAfterMs);
  }
  if (sent.name === 'UnknownTimeZoneError' && sent.timeZone !== undefined) {
    return new UnknownTimeZoneError(sent.timeZone);
  }
  return new ReadFailedError(sent);
}
