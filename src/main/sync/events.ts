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
  /** True on the account's very first settlements sync (history backfill, not news). */
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

export interface SyncEvents {
  'orders:changed': OrdersChangedEvent;
  'positions:changed': PositionsChangedEvent;
  'positions:synced': PositionsSyncedEvent;
  'settlements:changed': SettlementsChangedEvent;
  'fixtures:changed': FixturesChangedEvent;
  'sync:status': SyncStatus;
}
