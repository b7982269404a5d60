/** Desktop notifications for knockouts: the one alert that must reach the user outside the app. */
import type { NotificationConstructorOptions } from 'electron';
import type { KnockoutAlert } from '../../shared/ipc/contract.js';
import type { EventSource } from '../ipc/services.js';

export function knockoutNotice(alert: KnockoutAlert): NotificationConstructorOptions {
  if (alert.kind === 'near') {
    return {
      title: `Near knockout: ${alert.outcome} in ${alert.fixture}`,
      body: alert.message,
      urgency: 'normal',
    };
  }
  const body =
    alert.contracts !== undefined && alert.knockout !== undefined
      ? `Your boosted bet on ${alert.outcome} (${alert.contracts} contract${alert.contracts === 1 ? '' : 's'}) was knocked out at index price ${alert.knockout}.`
      : alert.message;
  return { title: `Knocked out: ${alert.outcome} in ${alert.fixture}`, body, urgency: 'critical' };
}

export interface NotificationParts {
  Notification: {
    new (options: NotificationConstructorOptions): {
      show(): void;
      on(event: 'click', listener: () => void): unknown;
    };
    isSupported(): boolean;
  };
}

/** Shows a notification for every `alert:knockout` (near or knocked out); clicking it opens
 *  the window. */
export function notifyKnockouts(
  events: EventSource,
  parts: NotificationParts,
  onClick: () => void,
): () => void {
  return events.subscribe((event, payload) => {
    if (event !== 'alert:knockout' || !parts.Notification.isSupported()) return;
    const notification = new parts.Notification(knockoutNotice(payload as KnockoutAlert));
    notification.on('click', onClick);
    notification.show();
  });
}
