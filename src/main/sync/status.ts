/**
 * The engine's state as the app shows it (idle, syncing, paused, offline, error), built from
 * its streams and the outage; and which changes of it are worth a 'sync:status' event.
 */
import type { SyncState, SyncStatus } from './events.js';
import type { Reachability } from './offline.js';
import type { StreamState } from './stream-state.js';

export interface StatusInput {
  accountId: number;
  paused: boolean;
  reachability: Reachability;
  streams: Iterable<StreamState>;
  lastSyncAt: number | null;
  nextPollAt: number | null;
}

export function engineStatus(i: StatusInput): SyncStatus {
  const streams = [...i.streams];
  const failed = streams.find((s) => s.error !== null);
  const offline = i.reachability.offline;
  let state: SyncState = 'idle';
  if (i.paused) state = 'paused';
  else if (offline) state = 'offline';
  else if (failed) state = 'error';
  else if (streams.some((s) => s.running !== null)) state = 'syncing';
  return {
    accountId: i.accountId,
    state,
    lastSyncAt: i.lastSyncAt,
    lastError: offline ? i.reachability.error : (failed?.error ?? null),
    nextPollAt: i.nextPollAt,
    offlineSince: i.reachability.offlineSince,
  };
}

/** Says whether a status differs from the last one it saw in what a person sees (not nextPollAt). */
export class StatusChanges {
  #last = '';

  changed(s: SyncStatus): boolean {
    const key = JSON.stringify([s.state, s.lastError, s.lastSyncAt, s.offlineSince]);
    if (key === this.#last) return false;
    this.#last = key;
    return true;
  }
}
