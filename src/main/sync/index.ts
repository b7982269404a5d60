/** The sync engine's public surface (one engine per account). */
export { SyncEngine, type SyncEngineOptions, type SyncReport } from './engine.js';
export type {
  FixturesChangedEvent,
  HistorySweepProgress,
  HistorySweepReason,
  HistorySweepState,
  OrdersChangedEvent,
  PositionsChangedEvent,
  SettlementsChangedEvent,
  SyncEvents,
  SyncState,
  SyncStatus,
  SyncStreamName,
} from './events.js';
export { DEFAULT_BACKOFF, DEFAULT_INTERVALS, type SyncIntervals } from './intervals.js';
export type { BackoffOptions } from '../../shared/backoff.js';
export { CachedReads, type Cached, type Freshness } from './reads.js';
export {
  HistorySweepInterruptedError,
  HistorySweepRunningError,
  SyncStoppedError,
} from './errors.js';
export type { TimeSource } from './timers.js';
export type { Listener } from './emitter.js';
