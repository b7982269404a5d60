/**
 * The alert centre of one account: the knockout watch's near and knocked-out alerts, plus an
 * alert when an order of the account fills or ends without filling, all kept in the store's
 * alerts table (so the history and the unread count survive a restart) and announced on the
 * bridge as `alert:raised`, with whether the account's settings want a desktop notification.
 * It also applies the account's alert settings to the knockout watch, at start and at once when
 * they change, and keeps the unread/near-knockout summary (`alerts:changed`) current.
 */
import { isFinalStatus, type Order } from '../../shared/api/schemas.js';
import {
  DANGER_ALERT_KINDS,
  type AccountAlertCounts,
  type AlertPage,
  type AlertSettings,
  type AlertsQuery,
  type AlertsSummary,
  type AlertView,
  type IpcEvent,
  type IpcEventPayload,
  type MarkRead,
} from '../../shared/ipc/contract.js';
import { formatUsd } from '../../shared/money.js';
import { indexDistance, type KnockoutAlertEvent } from '../alerts/index.js';
import type { Listener } from '../sync/emitter.js';
import type {
  FixturesChangedEvent,
  OrdersChangedEvent,
  PositionsSyncedEvent,
} from '../sync/events.js';
import type { Alert, AlertKind, Store } from '../store/index.js';
import { outcomeOfOrder } from '../trading/outcome.js';
import { readAlertSettings, writeAlertSettings } from './alert-settings.js';
import { deepestLevelInside } from './positions.js';
import { fixtureName } from './rows.js';

/** What the centre needs of the knockout watch. */
export interface KnockoutAlerts {
  on(event: 'alert:knockout', listener: Listener<KnockoutAlertEvent>): () => void;
  configure(levels: readonly string[], margin: string): void;
}

/** What the centre needs of the sync engine. */
export interface OrderAndPositionFeed {
  on(event: 'orders:changed', listener: Listener<OrdersChangedEvent>): () => void;
  on(event: 'positions:synced', listener: Listener<PositionsSyncedEvent>): () => void;
  on(event: 'fixtures:changed', listener: Listener<FixturesChangedEvent>): () => void;
}

export type Emit = <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>) => void;

export interface AlertCentreOptions {
  store: Store;
  accountId: number;
  /** The account as the bridge names it (null: paper). */
  bridgeId: string | null;
  /** The account's name, as its alerts and notifications say it ("Paper" for paper). */
  label: string;
  watch: KnockoutAlerts;
  engine: OrderAndPositionFeed;
  emit: Emit;
  /** Every watched account's counts, this one's among them (root/active.ts); alone: its own. */
  everyAccount?: () => AccountAlertCounts[];
  now?: () => number;
}

const DANGER = new Set<string>(DANGER_ALERT_KINDS);

export class AlertCentre {
  readonly #store: Store;
  readonly #accountId: number;
  readonly #bridgeId: string | null;
  readonly #label: string;
  readonly #everyAccount: () => AccountAlertCounts[];
  readonly #watch: KnockoutAlerts;
  readonly #engine: OrderAndPositionFeed;
  readonly #emit: Emit;
  readonly #now: () => number;
  #settings: AlertSettings;
  #stops: (() => void)[] = [];
  #lastCounts = '';

  constructor(opts: AlertCentreOptions) {
    this.#store = opts.store;
    this.#accountId = opts.accountId;
    this.#bridgeId = opts.bridgeId;
    this.#label = opts.label;
    this.#everyAccount = opts.everyAccount ?? (() => [this.counts()]);
    this.#watch = opts.watch;
    this.#engine = opts.engine;
    this.#emit = opts.emit;
    this.#now = opts.now ?? Date.now;
    this.#settings = readAlertSettings(this.#store, this.#accountId);
  }

  /** Applies the stored settings to the watch; call before the watch starts checking. */
  start(): void {
    if (this.#stops.length > 0) return;
    this.#watch.configure(this.#settings.levels, this.#settings.margin);
    this.#stops = [
      this.#watch.on('alert:knockout', (e) => this.#announce(e.alertId)),
      this.#engine.on('orders:changed', (e) => this.#onOrders(e)),
      this.#engine.on('positions:synced', () => {
        this.#writeHeld();
        this.#summaryChanged();
      }),
      // An index price moved: a position may have come near its knockout, or left it.
      this.#engine.on('fixtures:changed', () => this.#summaryChanged()),
    ];
  }

  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  /**
   * Alerts the store could not take (a full disk) are shown from memory meanwhile and written on
   * the next insert, or here, after every sync pass (the store's AlertsRepo holds them).
   */
  #writeHeld(): void {
    if (this.#store.alerts.heldCount > 0) this.#store.alerts.writeHeld();
  }

  /** The account's near-knockout levels now (fractions, widest first). */
  get levels(): readonly string[] {
    return this.#settings.levels;
  }

  list(query: AlertsQuery): AlertPage {
    const page = this.#store.alerts.list(this.#accountId, {
      limit: query.limit,
      offset: query.offset,
      ...(query.unreadOnly === true ? { unreadOnly: true } : {}),
    });
    return {
      alerts: page.alerts.map((a) => this.#view(a)),
      total: page.total,
      limit: query.limit,
      offset: query.offset,
      summary: this.summary(),
    };
  }

  markRead(input: MarkRead): AlertsSummary {
    const ids = input.all === true ? undefined : (input.ids ?? []);
    this.#store.alerts.markRead(this.#accountId, this.#now(), ids);
    return this.#summaryChanged();
  }

  /** This account's counts and the counts of every watched account (the tray's). */
  summary(): AlertsSummary {
    return this.#summaryOf(this.counts());
  }

  #summaryOf(own: AccountAlertCounts): AlertsSummary {
    const { accountId, unread, unreadDanger, nearKnockout } = own;
    return { accountId, unread, unreadDanger, nearKnockout, everyAccount: this.#everyAccount() };
  }

  /** This account's unread alerts and positions near their knockout now. */
  counts(): AccountAlertCounts {
    const unread = this.#store.alerts.unreadCounts(this.#accountId);
    const levels = this.#settings.levels;
    const now = this.#now();
    // On the index price (the exchange knocks out on it), read recently enough to trust now.
    const nearKnockout = this.#store.positions.list(this.#accountId).filter((p) => {
      if (!p.boosted || p.knockout === undefined) return false;
      const d = indexDistance(this.#store, this.#accountId, p, p.knockout, now);
      return (
        d !== undefined && d.fresh && deepestLevelInside(d.distance.toString(), levels) !== null
      );
    }).length;
    return {
      accountId: this.#bridgeId,
      account: this.#label,
      unread: Object.values(unread).reduce((a, b) => a + b, 0),
      unreadDanger: DANGER_ALERT_KINDS.reduce((n, k) => n + unread[k], 0),
      nearKnockout,
    };
  }

  settings(): AlertSettings {
    return this.#settings;
  }

  /** Stores the settings and applies the levels to the running watch at once. */
  configure(settings: AlertSettings): AlertSettings {
    const next = writeAlertSettings(this.#store, this.#accountId, settings);
    this.#settings = next;
    this.#watch.configure(next.levels, next.margin);
    this.#summaryChanged();
    return next;
  }

  // ------------------------------------------------------------------ raising

  /** Fills and orders that ended without filling, as they arrive (not the history backfill). */
  #onOrders(e: OrdersChangedEvent): void {
    if (e.initial) return;
    for (const order of e.orders) {
      if (!isFinalStatus(order.status)) continue;
      const kind: AlertKind = order.status === 'FILLED' ? 'filled' : 'rejected';
      const stored = this.#store.alerts.insertOnce({
        accountId: this.#accountId,
        kind,
        contractId: order.contractId,
        outcome: order.outcome,
        orderId: order.orderId,
        level: order.status === 'FILLED' ? order.entryPrice : null,
        threshold: order.knockout ?? null,
        message: orderMessage(order, fixtureName(this.#store, this.#accountId, order.contractId)),
        dedupKey: `${kind}|${order.orderId}`,
        createdAt: this.#now(),
      });
      if (stored) this.#announce(stored.id);
    }
  }

  /** Announces an alert another part stored (a guardian's `guard` alert): `alert:raised`. */
  announce(alertId: number): void {
    this.#announce(alertId);
  }

  #announce(alertId: number): void {
    const alert = this.#store.alerts.get(this.#accountId, alertId);
    if (alert === undefined) return;
    const own = this.counts();
    this.#lastCounts = JSON.stringify(own);
    const summary = this.#summaryOf(own);
    this.#emit('alert:raised', {
      alert: this.#view(alert),
      notify: this.#settings.notify[alert.kind],
      summary,
    });
  }

  /**
   * Emits the summary when this account's counts differ from the last ones sent (another
   * account's change is its own centre's to announce); returns it.
   */
  #summaryChanged(): AlertsSummary {
    const own = this.counts();
    const key = JSON.stringify(own);
    const summary = this.#summaryOf(own);
    if (key !== this.#lastCounts) {
      this.#lastCounts = key;
      this.#emit('alerts:changed', summary);
    }
    return summary;
  }

  #view(a: Alert): AlertView {
    const view: AlertView = {
      id: a.id,
      kind: a.kind,
      accountId: this.#bridgeId,
      account: this.#label,
      contractId: a.contractId,
      outcome: a.outcome,
      fixture: fixtureName(this.#store, this.#accountId, a.contractId),
      message: a.message,
      createdAt: a.createdAt,
      read: a.readAt !== null,
    };
    if (a.orderId !== null) view.orderId = a.orderId;
    if (DANGER.has(a.kind)) {
      if (a.threshold !== null) view.knockout = a.threshold;
      if (a.level !== null) view.price = a.level;
    }
    return view;
  }
}

/** One sentence for an order that ended. */
export function orderMessage(o: Order, fixture: string): string {
  const n = `${o.contracts} contract${o.contracts === 1 ? '' : 's'}`;
  const on = `${o.outcome} (${fixture})`;
  if (o.status === 'FILLED') {
    return o.side === 'BUY'
      ? `Filled: bought ${n} of ${on} at ${o.entryPrice} for ${formatUsd(o.cost)}.`
      : `Filled: sold ${n} of ${on} at ${o.entryPrice}` +
          (o.proceeds !== undefined ? `, proceeds ${formatUsd(o.proceeds)}.` : '.');
  }
  const what = o.side === 'BUY' ? 'bet' : 'close';
  const status = o.status.charAt(0) + o.status.slice(1).toLowerCase();
  const reason = outcomeOfOrder(o).error?.message ?? 'It did not fill.';
  return `${status}: your ${o.orderType} ${what} on ${on} did not fill. ${reason}`;
}
