/**
 * What the active account's services announce, as the bridge's push events: the sync engine's
 * fixtures, positions, orders and status, and the knockout watch's alerts.
 */
import type { KnockoutAlertEvent } from '../alerts/index.js';
import type { AppStatus, KnockoutAlert } from '../../shared/ipc/contract.js';
import type { IpcEventHub } from '../ipc/events.js';
import type { FixtureBoard } from './fixtures.js';
import type { AccountSession } from './session.js';

export interface EventWiring {
  hub: IpcEventHub;
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
    session.engine.on('positions:changed', (e) => {
      w.hub.emit('positions:changed', { accountId, at: e.at });
    }),
    session.engine.on('orders:changed', (e) => {
      w.hub.emit('orders:changed', {
        accountId,
        orderIds: e.orders.map((o) => o.orderId),
        at: e.at,
      });
    }),
    session.engine.on('sync:status', () => w.hub.emit('sync:status', w.status())),
    session.watch.on('alert:knockout', (e) =>
      w.hub.emit('alert:knockout', knockoutAlert(e, accountId)),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

export function knockoutAlert(e: KnockoutAlertEvent, accountId: string | null): KnockoutAlert {
  return {
    kind: e.kind,
    accountId,
    contractId: e.contractId,
    outcome: e.outcome,
    fixture: e.fixture ?? e.contractId,
    message: e.message,
    at: e.at,
    ...(e.contracts !== undefined ? { contracts: e.contracts } : {}),
    ...(e.knockout !== undefined ? { knockout: e.knockout } : {}),
    ...(e.level !== undefined ? { level: e.level } : {}),
    ...(e.distance !== undefined ? { distance: e.distance } : {}),
  };
}
