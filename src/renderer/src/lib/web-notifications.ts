/** The Web Notifications API behind the notifier's port (the browser host's desktop notices). */
import type { NotificationPort, PermissionState } from './state/notifier.svelte.js';

export function webNotifications(): NotificationPort {
  const supported = typeof Notification !== 'undefined';
  return {
    permission: (): PermissionState => (supported ? Notification.permission : 'unsupported'),
    async request(): Promise<PermissionState> {
      if (!supported) return 'unsupported';
      return Notification.requestPermission();
    },
    show({ title, body, tag }, onClick) {
      if (!supported || Notification.permission !== 'granted') return;
      const n = new Notification(title, { body, tag });
      n.onclick = () => {
        window.focus();
        onClick();
        n.close();
      };
    },
  };
}
