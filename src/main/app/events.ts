/**
 * What the active account's sync engine announces, as the bridge's push events: fixtures,
 * positions (the whole view, on every positions pass, so "updated 3 s ago" is true), orders
 * (as rows), new settlements (the History screen refreshes), the history sweep's progress
 * (first sync and resync, page by page), and status. The desk's own parts (placing, the alert centre) emit to the hub
 * themselves.
 */
import type { AppStatus } from '../../shared/ipc/contract.js';
import { fixtureLookup, orderRow } from '../desk/rows.js';
import { positionsView } from '../desk/positions.js';
import type { IpcEventHub } from '../ipc/events.js';
import type { Store } from '../store/index.js';
import type { FixtureBoard } from './fixtures.js';
import type { AccountSession } from './session.js';

/** At most this many changed rows ride on one orders:changed push; beyond, the page reloads. */
export const MAX_PUSHED_ROWS = 200;

export interface EventWiring {
  hub: IpcEventHub;
  store: Store;
  fixtures: FixtureBoard;
  status: () => AppStatus;
}

/** Forwards the session's events to the hub until the returned function is called. */
export function forwardEvents(session: AccountSession, w: EventWiring): () => void {
  const accountId = session.bridgeId;
  const stops = [
    session.engine.on('fixtures:changed', (e) => {
      // The engine emits only when a fixture is new or differs from the stored one.
      w.fixtures.invalidate();
      w.hub.emit('fixtures:changed', { total: w.fixtures.total, syncedAt: e.at });
    }),
    session.engine.on('positions:synced', (e) => {
      w.hub.emit('positions:changed', {
        accountId,
        at: e.at,
        view: sessionPositions(session, w.store),
      });
    }),
    session.engine.on('orders:changed', (e) => {
      const fixture = fixtureLookup(w.store);
      w.hub.emit('orders:changed', {
        accountId,
        orderIds: e.orders.map((o) => o.orderId),
        rows: e.orders.slice(0, MAX_PUSHED_ROWS).map((o) => orderRow(o, fixture)),
        more: e.orders.length > MAX_PUSHED_ROWS,
        at: e.at,
      });
    }),
    session.engine.on('settlements:changed', (e) => {
      w.hub.emit('history:changed', { accountId, added: e.inserted.length, at: e.at });
    }),
    session.engine.on('history:progress', (p) => {
      w.hub.emit('history:progress', { ...p, accountId });
    }),
    session.engine.on('sync:status', () => w.hub.emit('sync:status', w.status())),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** The session's positions as the positions screen shows them. */
export function sessionPositions(session: AccountSession, store: Store) {
  return positionsView(store, session.accountId, {
    bridgeId: session.bridgeId,
    pollMs: session.engine.positionsPollMs,
    levels: session.alerts.levels,
  });
}
