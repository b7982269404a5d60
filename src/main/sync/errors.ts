/**
 * How the engine reads a failed poll: the exchange is unreachable, it refused, or the store could
 * not save what it answered (a full disk, or an I/O error on a disk with room: writeFaultOf).
 */
import { ExchangeError, NetworkError } from '../client/index.js';
import { IoError, writeFaultOf } from '../store/index.js';
import type { HistorySweepReason } from './events.js';

const DISK_FULL_PREFIX = 'The disk is full: Betdesk could not save ';
const NOTHING_LOST = 'nothing on the exchange is lost.';

/**
 * A write the disk failed while it had room: the batch was rolled back with its cursor, so what
 * was stored before is kept, and `then` says when it is tried again.
 */
function ioFailure(err: unknown, notSaved: string, then: string): string {
  return new IoError(`${notSaved}; everything stored before is kept. ${then}; ${NOTHING_LOST}`, {
    cause: err,
  }).message;
}

export class SyncStoppedError extends Error {
  constructor() {
    super('The sync engine was stopped before this sync could run.');
    this.name = 'SyncStoppedError';
  }
}

/** resyncHistory() while a sweep of the history runs (the first sync included). */
export class HistorySweepRunningError extends Error {
  constructor(readonly reason: 'first-sync' | 'resync') {
    super(
      reason === 'first-sync'
        ? 'The history is being loaded for the first time; a resync can start once it is done.'
        : 'The history is being resynced already; wait for it to finish.',
    );
    this.name = 'HistorySweepRunningError';
  }
}

export const HISTORY_INTERRUPTED =
  'Syncing stopped before the whole history was read. Everything read so far is kept.';

/** A sweep of the history was cut short: the engine stopped (nothing stored was lost). */
export class HistorySweepInterruptedError extends Error {
  constructor() {
    super(HISTORY_INTERRUPTED);
    this.name = 'HistorySweepInterruptedError';
  }
}

/**
 * The sentence for a sweep of the history that failed. Either sweep carries on where it
 * stopped when the stream retries (history.ts).
 */
export function historyFailure(err: unknown, reason: HistorySweepReason): string {
  const fault = writeFaultOf(err);
  if (fault === 'disk-full') {
    const then =
      reason === 'first-sync'
        ? 'It will sync again when there is room'
        : 'The resync carries on when there is room';
    return `${DISK_FULL_PREFIX}the history it read. ${then}; ${NOTHING_LOST}`;
  }
  if (fault === 'io-error') {
    const then = reason === 'first-sync' ? 'It will sync again' : 'Resync once the disk is checked';
    return ioFailure(err, 'The history it read was not saved', then);
  }
  const why = err instanceof Error ? err.message : String(err);
  return `The history could not be read from the exchange. ${why}`;
}

/** True when the request was given up on purpose (the engine stopped). */
export function isAborted(err: unknown): boolean {
  return err instanceof NetworkError && err.kind === 'aborted';
}

/** True when no answer came back: the exchange is down or the network is. */
export function isUnreachable(err: unknown): boolean {
  return err instanceof NetworkError && err.kind !== 'aborted';
}

export function retryAfterMs(err: unknown): number | undefined {
  return err instanceof ExchangeError ? err.retryAfterMs : undefined;
}

/** What a stream's pass saves: its sentence's subject, and (lower case) what a full disk lost. */
const STREAM_NOUN: Record<string, string> = {
  orders: 'Orders',
  settlements: 'Settlements',
  positions: 'Positions',
  fixtures: 'Fixtures',
  prices: 'Prices of boosted positions',
};

/**
 * One sentence for people: which sync failed and why (the client's messages are sentences). A
 * full disk or an I/O error rolled the pass's batch back with its cursor, so the retry reads the
 * same updates.
 */
export function failureSentence(stream: string, err: unknown): string {
  const fault = writeFaultOf(err);
  const data = `the latest ${(STREAM_NOUN[stream] ?? stream).toLowerCase()}`;
  if (fault === 'disk-full') {
    return `${DISK_FULL_PREFIX}${data}. It will sync again when there is room; ${NOTHING_LOST}`;
  }
  if (fault === 'io-error') {
    return ioFailure(err, `The ${data.slice(4)} were not saved`, 'It will sync again shortly');
  }
  const why = err instanceof Error ? err.message : String(err);
  return `${STREAM_NOUN[stream] ?? stream} could not be synced. ${why}`;
}

export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
