/** How the engine reads a failed poll: the exchange is unreachable, or it refused. */
import { ExchangeError, NetworkError } from '../client/index.js';

export class SyncStoppedError extends Error {
  constructor() {
    super('The sync engine was stopped before this sync could run.');
    this.name = 'SyncStoppedError';
  }
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
