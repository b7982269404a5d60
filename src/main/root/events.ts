/**
 * What reaches the bridge of every account's session: every account's alerts, each with the
 * summary of the account on screen and every watched account's counts (routeEmit); the rest only
 * of the account on screen. What its sync engine announces, as push events: fixtures,
 * positions (the whole view, on every positions pass, so "updated 3 s ago" is true, and when
 * the index price of a boosted position's fixture moves: its distance to the knockout), orders
 * (as rows, desk/orders-news.ts), new settlements (the History screen refreshes), the history sweep's progress
 * (first sync and resync, page by page), and status. The desk's own parts (placing, the alert
 * centre) emit to the hub themselves.
 */
import { movesBoosted } from '../alerts/index.js';
import { announceOrderWrites } from '../desk/orders-news.js';
import type { IpcEventHub } from '../ipc/events.js';
import type { Store } from '../store/index.js';
import type { AppInfoOf } from '../accounts/feature.js';
import type { FixtureBoard } from '../markets/board.js';
import type { Emit } from '../desk/alert-centre.js';
import type { AlertRaised, AlertsSummary } from '../../shared/ipc/contract.js';
import type { AccountSession } from './session.js';
import { appStatus } from '../sync/feature.js';

export interface EventWiring {
  hub: IpcEventHub;
  store: Store;
  fixtures: FixtureBoard;
}

/**
 * Where the session of one account announces: its alerts always (the tray, the badge and the
 * notifications cover every account), with the summary of the account on screen; everything
 * else only while it is on screen (the screens show one account: it would overwrite their view).
 */
export function routeEmit(
  hub: IpcEventHub,
  onScreen: () => boolean,
  summary: () => AlertsSummary | undefined,
): Emit {
  return (event, payload) => {
    if (onScreen()) {
      hub.emit(event, payload);
      return;
    }
    if (event === 'alerts:changed' || event === 'alert:raised') {
      // Until an account is on screen, its own summary (the next announce says the whole).
      const shown = summary();
      if (event === 'alerts:changed') {
        hub.emit('alerts:changed', shown ?? (payload as AlertsSummary));
      } else {
        const raised = payload as AlertRaised;
        hub.emit('alert:raised', shown ? { ...raised, summary: shown } : raised);
      }
    }
  };
}

/**
 * Tells every window that `session` is now the active account's: the app's mode, its sync
 * status, and its alerts and positions, so every window and the tray drop the old account's.
 */
export function announceSession(
  session: AccountSession,
  to: { hub: IpcEventHub; store: Store; info: AppInfoOf },
): void {
  to.hub.emit('app:changed', to.info(session));
  to.hub.emit('sync:status', appStatus(session));
  to.hub.emit('alerts:changed', session.alerts.summary());
  to.hub.emit('positions:changed', {
    accountId: session.bridgeId,
    at: Date.now(),
    view: session.positionsView(),
  });
  to.hub.emit('guards:changed', session.guardian.view());
}

/** Forwards the session's events to the hub until the returned function is called. */
export function forwardEvents(session: AccountSession, wiring: EventWiring): () => void {
  const accountId = session.bridgeId;
  const stops = [
    session.engine.on('fixtures:changed', (e) => {
      // The engine emits only when a fixture is new or differs from the stored one.
      wiring.fixtures.invalidate();
      // This sync confirms the saved markets too: no second push for it below.
      wiring.fixtures.confirm();
      wiring.hub.emit('fixtures:changed', { total: wiring.fixtures.total, syncedAt: e.at });
      if (movesBoosted(wiring.store.positions.list(session.accountId), e.fixtures)) {
        wiring.hub.emit('positions:changed', {
          accountId,
          at: e.at,
          view: session.positionsView(),
        });
      }
    }),
    // Every index read of a boosted position, changed or not: the screen learns its new age,
    // so it never calls stale a price the alerts and the guardians judge fresh.
    session.engine.on('index:read', (e) => {
      wiring.hub.emit('positions:changed', {
        accountId,
        at: e.at,
        view: session.positionsView(),
      });
    }),
    session.engine.on('positions:synced', (e) => {
      wiring.hub.emit('positions:changed', {
        accountId,
        at: e.at,
        view: session.positionsView(),
      });
    }),
    // Every order row the store gains or changes, whoever wrote it (the sync, a guardian, the
    // desk, the CLI in another process): desk/orders-news.ts.
    announceOrderWrites({
      store: wiring.store,
      accountId: session.accountId,
      bridgeId: accountId,
      placing: (id) => session.trading.isPlacing(id),
      emit: (event, payload) => wiring.hub.emit(event, payload),
    }),
    session.engine.on('orders:changed', (e) => {
      // Filled orders may work out a held-to-the-end bet's realized P&L that was unknown
      // (Store.applyOrderUpdates, docs/pnl.md): History reads its figures again.
      if (e.orders.some((o) => o.status === 'FILLED')) {
        wiring.hub.emit('history:changed', { accountId, added: 0, at: e.at });
      }
    }),
    session.engine.on('settlements:changed', (e) => {
      wiring.hub.emit('history:changed', { accountId, added: e.inserted.length, at: e.at });
    }),
    session.engine.on('history:progress', (p) => {
      wiring.hub.emit('history:progress', { ...p, accountId });
    }),
    session.engine.on('sync:status', () => {
      wiring.hub.emit('sync:status', appStatus(session));
      // The first fixtures sync found the saved markets unchanged: they are confirmed all the
      // same, and the screen reads them again to drop the "saved" words (docs/desk.md).
      const syncedAt = wiring.fixtures.confirm() ? wiring.fixtures.syncedAt : null;
      if (syncedAt !== null) {
        wiring.hub.emit('fixtures:changed', { total: wiring.fixtures.total, syncedAt });
      }
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
