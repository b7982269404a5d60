/** How the engine reads a failed poll: the exchange is unreachable, or it refused. */
import { ExchangeError, NetworkError } from '../client/index.js';

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

/** The sentence for a sweep of the history that failed. */
export function historyFailure(err: unknown): string {
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

const STREAM_NOUN: Record<string, string> = {
  orders: 'Orders',
  settlements: 'Settlements',
  positions: 'Positions',
  fixtures: 'Fixtures',
  prices: 'Prices of boosted positions',
};

/** One sentence for people: which sync failed and why (the client's messages are sentences). */
export function failureSentence(stream: string, err: unknown): string {
  const why = err instanceof Error ? err.message : String(err);
  return `${STREAM_NOUN[stream] ?? stream} could not be synced. ${why}`;
}

export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
