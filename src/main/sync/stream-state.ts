/**
 * One stream's place in the engine's schedule (running, due, failing, waited for), the names of
 * the streams, and each stream's polling cadence after a pass (intervals.ts has the numbers).
 */
import { Backoff, type BackoffOptions } from '../../shared/backoff.js';
import type { SyncStreamName } from './events.js';
import type { Waiter } from './history.js';
import type { SyncIntervals } from './intervals.js';

export interface StreamState {
  name: SyncStreamName;
  running: Promise<void> | null;
  /** Local time of the next run; null when nothing is due (waiting for a trigger). */
  nextAt: number | null;
  lastStartedAt: number;
  /** Why its last run failed (not counting "unreachable", which is the engine's), or null. */
  error: string | null;
  /** A run was asked for while this one ran. */
  again: boolean;
  /** syncNow() callers waiting for the next run to start and finish. */
  waiting: Waiter[];
  /** The wait after a refused poll (never shorter than a Retry-After). */
  backoff: Backoff;
}

export function newStreamState(
  name: SyncStreamName,
  backoff: BackoffOptions,
  random: () => number,
): StreamState {
  return {
    name,
    running: null,
    nextAt: null,
    lastStartedAt: -Infinity,
    error: null,
    again: false,
    waiting: [],
    backoff: new Backoff(backoff, random),
  };
}

export const ALL_STREAMS: readonly SyncStreamName[] = [
  'orders',
  'settlements',
  'positions',
  'fixtures',
  'prices',
];
/** syncNow() and syncOnce() without names: what makes the store current (prices is a watch). */
export const CORE_STREAMS: readonly SyncStreamName[] = [
  'orders',
  'settlements',
  'positions',
  'fixtures',
];
/** The one stream that keeps trying while the exchange is unreachable. */
export const PROBE: SyncStreamName = 'orders';

/** What the cadence of the streams depends on; getters, read only when a stream needs them. */
export interface CadenceFacts {
  /** An order of ours is not final yet. */
  pendingOrders: boolean;
  /** A history sweep is reading the orders. */
  sweepReading: boolean;
  /** A boosted position is open. */
  boostedOpen: boolean;
}

/** When a stream polls next after a successful pass; null: only when triggered. */
export function nextPollAfter(
  name: SyncStreamName,
  i: SyncIntervals,
  now: number,
  facts: CadenceFacts,
): number | null {
  switch (name) {
    case 'orders': {
      const { pendingOrders, sweepReading } = facts;
      // A history sweep reads the orders; a pending order is still followed closely.
      if (!pendingOrders && sweepReading) return null;
      return now + (pendingOrders ? i.ordersPendingMs : i.ordersIdleMs);
    }
    case 'settlements':
      return now + i.settlementsMs;
    case 'positions':
      return now + (facts.boostedOpen ? i.positionsBoostedMs : i.positionsIdleMs);
    case 'fixtures':
      return now + i.fixturesMs;
    case 'prices':
      return facts.boostedOpen ? now + i.pricesMs : null;
  }
}
