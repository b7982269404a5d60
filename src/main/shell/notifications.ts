/**
 * Desktop notifications for alerts (near knockout, knocked out, filled, rejected, guardian), shown when the
 * account's settings ask for them; a click brings the window forward on the position or order.
 */
import type { NotificationConstructorOptions } from 'electron';
import {
  DANGER_ALERT_KINDS,
  type AlertKind,
  type AlertRaised,
  type AlertView,
  type ShowRequest,
} from '../../shared/ipc/contract.js';
import type { EventSource } from '../ipc/events.js';

const NOTICES: Record<AlertKind, { title: string; urgency: 'low' | 'normal' | 'critical' }> = {
  near: { title: 'Near knockout', urgency: 'normal' },
  knocked_out: { title: 'Knocked out', urgency: 'critical' },
  filled: { title: 'Filled', urgency: 'low' },
  rejected: { title: 'Rejected', urgency: 'normal' },
  guard: { title: 'Guardian', urgency: 'critical' },
};

/** Every account is watched: the title names the account the alert is about. */
export function alertNotice(alert: AlertView): NotificationConstructorOptions {
  const { title, urgency } = NOTICES[alert.kind];
  const what = `${title}: ${alert.outcome} in ${alert.fixture} (${alert.account})`;
  return { title: what, body: alert.message, urgency };
}

const DANGER: ReadonlySet<AlertKind> = new Set(DANGER_ALERT_KINDS);

/** Where a click on the alert takes the user: its position for a knockout alert, else the
 *  orders; the Alerts screen (which names it) for an account not on screen. */
export function alertTarget(
  alert: AlertView,
  onScreen: string | null = alert.accountId,
): ShowRequest {
  if (alert.accountId !== onScreen) return { screen: 'alerts' };
  return DANGER.has(alert.kind)
    ? { screen: 'positions', contractId: alert.contractId, outcome: alert.outcome }
    : { screen: 'orders' };
}

interface ShownNotification {
  show(): void;
  on(event: 'click', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

export interface NotificationParts {
  Notification: {
    new (options: NotificationConstructorOptions): ShownNotification;
    isSupported(): boolean;
  };
}

/** Notifications held at most: a desktop that never reports "closed" must not grow this forever. */
export const MAX_HELD_NOTIFICATIONS = 50;

/**
 * Shows a notification for every `alert:raised` whose settings want one; clicking it calls
 * `onShow` with where to go. Each notification is held until clicked or closed: Electron drops
 * the events of a Notification that was garbage collected (electron/electron#16922).
 */
export class AlertNotifications {
  private readonly held = new Set<ShownNotification>();
  private readonly unsubscribe: () => void;

  constructor(
    events: EventSource,
    private readonly parts: NotificationParts,
    private readonly onShow: (target: ShowRequest) => void,
  ) {
    this.unsubscribe = events.subscribe((event, payload) => {
      if (event === 'alert:raised') this.raised(payload as AlertRaised);
    });
  }

  /** How many shown notifications are still held for their click. */
  get waiting(): number {
    return this.held.size;
  }

  stop(): void {
    this.unsubscribe();
    this.held.clear();
  }

  private raised({ alert, notify, summary }: AlertRaised): void {
    if (!notify || !this.parts.Notification.isSupported()) return;
    const notification = new this.parts.Notification(alertNotice(alert));
    const release = () => this.held.delete(notification);
    notification.on('click', () => {
      release();
      this.onShow(alertTarget(alert, summary.accountId));
    });
    notification.on('close', release);
    this.held.add(notification);
    if (this.held.size > MAX_HELD_NOTIFICATIONS) {
      const [oldest] = this.held;
      if (oldest) this.held.delete(oldest);
    }
    notification.show();
  }
}
