/**
 * Where an unfinished history sweep stands, kept in the store (rows of `sync_cursors`) so the
 * next start, of the app, the browser host or `cli sync`, carries on from there: which sweep
 * (first sync or resync), when it was asked for, the offset reached, and the progress reported
 * so far. Each page's rows and this state commit in one transaction (streams/history.ts), so
 * what was reported before a kill is never more than what the store remembers.
 *
 * The rows are named cursors of the account: `history-sweep` (the offset, the name an earlier
 * version used for an unfinished first sync, which is read as such) and `history-sweep-*`
 * beside it. No row: no sweep is unfinished.
 */
import type { Store } from '../store/index.js';
import type { HistorySweepReason } from './events.js';
import { PAGE_LIMIT } from './streams/context.js';

/** Rows from the newest an unfinished sweep has stored: the offset it carries on at. */
export const SWEEP_RESUME = 'history-sweep';

const ROW = {
  offset: SWEEP_RESUME,
  /** 1: the sweep is a resync the user asked for (absent: the first sync). */
  resync: 'history-sweep-resync',
  startedAt: 'history-sweep-started',
  pages: 'history-sweep-pages',
  added: 'history-sweep-added',
  estimatedPages: 'history-sweep-estimate',
  /** 1: the orders read is stored (a sweep that carries on does not read them again). */
  ordersRead: 'history-sweep-orders',
} as const;

export interface SweepResume {
  reason: HistorySweepReason;
  /** Local time the sweep was asked for (a first sync: when it first ran). */
  startedAt: number;
  /** Settlement rows from the newest read so far. */
  offset: number;
  ordersRead: boolean;
  /** Pages counted so far, as reported (the orders read is one). */
  pages: number;
  /** Orders and settlement rows new to the store so far, as reported. */
  added: number;
  /** As reported: 0 while unknown. */
  estimatedPages: number;
}

/** The sweep a fresh start begins with: nothing read yet. */
export function freshSweep(reason: HistorySweepReason, startedAt: number): SweepResume {
  return { reason, startedAt, offset: 0, ordersRead: false, pages: 0, added: 0, estimatedPages: 0 };
}

/** The unfinished sweep the store remembers for the account, or null when there is none. */
export function readSweep(store: Store, accountId: number): SweepResume | null {
  const get = (row: string) => store.cursors.get(accountId, row);
  const offset = get(ROW.offset);
  if (offset === undefined) return null;
  const pages = get(ROW.pages);
  const reason: HistorySweepReason = get(ROW.resync) === undefined ? 'first-sync' : 'resync';
  if (pages === undefined) {
    // Left by an earlier version: the offset alone. Its pages are counted from the offset and
    // the orders are read again, as that version did.
    return {
      ...freshSweep(reason, offset.lastSyncAt),
      offset: offset.cursor,
      pages: Math.ceil(offset.cursor / PAGE_LIMIT),
    };
  }
  return {
    reason,
    startedAt: get(ROW.startedAt)?.cursor ?? offset.lastSyncAt,
    offset: offset.cursor,
    ordersRead: get(ROW.ordersRead) !== undefined,
    pages: pages.cursor,
    added: get(ROW.added)?.cursor ?? 0,
    estimatedPages: get(ROW.estimatedPages)?.cursor ?? 0,
  };
}

/**
 * Stores where the sweep stands (call it in the transaction that stores what it read).
 * `at`: local time of the write.
 */
export function saveSweep(store: Store, accountId: number, s: SweepResume, at: number): void {
  const { cursors } = store;
  store.transaction(() => {
    cursors.set(accountId, ROW.offset, s.offset, at);
    cursors.set(accountId, ROW.startedAt, s.startedAt, at);
    cursors.set(accountId, ROW.pages, s.pages, at);
    cursors.set(accountId, ROW.added, s.added, at);
    cursors.set(accountId, ROW.estimatedPages, s.estimatedPages, at);
    setOrReset(store, accountId, ROW.resync, s.reason === 'resync' ? 1 : null, at);
    setOrReset(store, accountId, ROW.ordersRead, s.ordersRead ? 1 : null, at);
  });
}

/** The sweep is done: nothing is left to carry on. */
export function clearSweep(store: Store, accountId: number): void {
  store.transaction(() => {
    for (const row of Object.values(ROW)) store.cursors.reset(accountId, row);
  });
}

function setOrReset(
  store: Store,
  accountId: number,
  row: string,
  value: 1 | null,
  at: number,
): void {
  if (value === null) store.cursors.reset(accountId, row);
  else store.cursors.set(accountId, row, value, at);
}
