/**
 * The shell's own one-line notices (not alerts): that Betdesk went on running in the tray when its
 * window was closed the first time, and that the diagnostics are on the clipboard.
 */
import type { NotificationConstructorOptions } from 'electron';
import type { NotificationParts } from './notifications.js';

/** What the first close of the window says: where Betdesk went and how to quit it. */
export function trayNotice(platform: NodeJS.Platform): NotificationConstructorOptions {
  const body =
    platform === 'darwin'
      ? 'Betdesk is still running in the menu bar; it keeps watching your positions. Quit from its menu-bar icon or Betdesk > Quit Betdesk.'
      : 'Betdesk is still running in the tray; it keeps watching your positions. Quit from the tray menu or File > Quit.';
  return { title: 'Betdesk is still running', body, urgency: 'low' };
}

export const DIAGNOSTICS_COPIED: NotificationConstructorOptions = {
  title: 'Diagnostics copied',
  body: 'Paste them into your message to support. They hold no keys or secrets.',
  urgency: 'low',
  silent: true,
};

/** Shows a notice where the desktop has notifications; elsewhere it goes unsaid. */
export function showNotice(
  parts: NotificationParts,
  options: NotificationConstructorOptions,
): void {
  if (parts.Notification.isSupported()) new parts.Notification(options).show();
}
