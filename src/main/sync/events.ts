/** What the sync engine tells the rest of the app: its status and what changed in the store. */
import type { Fixture, Order, Settlement } from '../../shared/api/schemas.js';
import type { SyncState } from '../../shared/ipc/contract.js';
import type { StoredPosition } from '../store/index.js';

export type { SyncState };

/** The exchange reads the engine keeps in the store, one loop each. */
export type SyncStreamName = 'orders' | 'settlements' | 'positions' | 'fixtures' | 'prices';

export interface SyncStatus {
  accountId: number;
  /** paused > offline > error > syncing > idle: the first that applies. */
  state: SyncState;
  /** Local time of the last successful exchange read (survives restarts via the store). */
  lastSyncAt: number | null;
  /** Why the last attempt failed, as a sentence; null once syncing works again. */
  lastError: string | null;
  /** Local time of the next scheduled poll; null when paused or stopped. */
  nextPollAt: number | null;
  /** Local time the exchange stopped answering; null while it answers. */
  offlineSince: number | null;
}

export interface OrdersChangedEvent {
  accountId: number;
  /** The batch from GET /orders/updates that changed the store (new or newer orders). */
  orders: Order[];
  /** The cursor committed with them. */
  cursor: number;
  /** True on the account's very first orders sync (its whole history, not news). */
  initial: boolean;
  at: number;
}

export interface PositionsChangedEvent {
  accountId: number;
  /** The new snapshot, as stored. */
  positions: StoredPosition[];
  /** The snapshot it replaced (from the store, so across restarts too). */
  previous: StoredPosition[];
  /** True while a boosted position is open: positions are then polled fast. */
  boostedOpen: boolean;
  at: number;
}

/** Every successful positions pass, changed or not: the figures are this fresh. */
export interface PositionsSyncedEvent {
  accountId: number;
  /** Whether the snapshot differs from the one it replaced (then positions:changed came too). */
  changed: boolean;
  at: number;
}

export interface SettlementsChangedEvent {
  accountId: number;
  /** Rows stored for the first time by this pass, newest first. */
  inserted: Settlement[];
  /** GET /settlements' total at this pass. */
  total: number;
  /**
   * True when the rows are history being loaded, not news: the account's first sync, and the
   * pages below the newest one of a resync (the knockout watch raises no alert for them).
   */
  initial: boolean;
  at: number;
}

export interface FixturesChangedEvent {
  accountId: number;
  /** Fixtures that are new or differ from the stored ones (prices included). */
  fixtures: Fixture[];
  /** The exchange's total on a full refresh; null when the price watch read a few. */
  total: number | null;
  at: number;
}

/** Why the account's whole history is read: its first sync, or a resync the user asked for. */
export type HistorySweepReason = 'first-sync' | 'resync';
export type HistorySweepState = 'running' | 'done' | 'failed' | 'interrupted';

/**
 * A history sweep's progress (the bridge's HistorySyncProgress, with the store's account id):
 * sent when it starts, after every page it reads and when it ends.
 */
export interface HistorySweepProgress {
  accountId: number;
  reason: HistorySweepReason;
  state: HistorySweepState;
  /** Pages read so far: the orders read counts as one, then each GET /settlements page. */
  pages: number;
  /**
   * 1 + ceil(total / 100) (one settlements page at least) once the exchange's settlement total
   * is known, or the total the last pass saw; 0 before. Equal to `pages` once done.
   */
  estimatedPages: number;
  /** Orders and settlements new to the store (or newer than the stored report) so far. */
  added: number;
  /** Local time the sweep was asked for. */
  startedAt: number;
  /** failed or interrupted: why, as a sentence; otherwise null. */
  message: string | null;
}

/** The index prices of these fixtures were read (changed or not): their age starts again. */
export interface IndexReadEvent {
  accountId: number;
  contractIds: string[];
  at: number;
}

export interface SyncEvents {
  'orders:changed': OrdersChangedEvent;
  'positions:changed': PositionsChangedEvent;
  'positions:synced': PositionsSyncedEvent;
  'settlements:changed': SettlementsChangedEvent;
  'fixtures:changed': FixturesChangedEvent;
  'index:read': IndexReadEvent;
  'sync:status': SyncStatus;
  'history:progress': HistorySweepProgress;
}
