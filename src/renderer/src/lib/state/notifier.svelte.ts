/**
 * Delivers raised alerts: read out in the live region (fills, knockouts, near knockouts,
 * rejections), and, when the account's settings want a notification for the kind, shown as a
 * Web Notification in the browser host once the user has allowed them, or as an in-app toast.
 * (In Electron main shows the OS notification; the page toasts as well.) Clicking either shows
 * the position.
 */
import type { AlertKind, AlertRaised, AlertView } from '../../../../shared/ipc/contract.js';
import { isAboutPosition } from '../alert-kinds.js';
import type { Bridge } from '../bridge.js';
import type { Announcer } from './announcer.svelte.js';
import type { ToastsState, ToastTone } from './toasts.svelte.js';

export type PermissionState = 'default' | 'granted' | 'denied' | 'unsupported';

/** The Web Notifications API as the notifier uses it (web-notifications.ts is the real one). */
export interface NotificationPort {
  permission(): PermissionState;
  request(): Promise<PermissionState>;
  show(notification: { title: string; body: string; tag: string }, onClick: () => void): void;
}

export interface NotifierContext {
  /** Which front end runs this page, once known. */
  readonly host: 'electron' | 'browser' | null;
}

export const ALERT_TITLES: Record<AlertKind, string> = {
  near: 'Near knockout',
  knocked_out: 'Knocked out',
  filled: 'Filled',
  rejected: 'Rejected',
  guard: 'Guardian',
};

const TONES: Record<AlertKind, ToastTone> = {
  near: 'danger',
  knocked_out: 'danger',
  filled: 'ok',
  rejected: 'danger',
  guard: 'danger',
};

export class Notifier {
  /** Whether the browser lets the page show notifications, as last asked. */
  permission = $state<PermissionState>('unsupported');
  readonly #bridge: Bridge;
  readonly #port: NotificationPort;
  readonly #toasts: ToastsState;
  readonly #announcer: Announcer;
  readonly #ctx: NotifierContext;
  readonly #open: (alert: AlertView, onScreen: boolean) => void;

  constructor(
    bridge: Bridge,
    port: NotificationPort,
    toasts: ToastsState,
    announcer: Announcer,
    ctx: NotifierContext,
    open: (alert: AlertView, onScreen: boolean) => void,
  ) {
    this.#bridge = bridge;
    this.#port = port;
    this.#toasts = toasts;
    this.#announcer = announcer;
    this.#ctx = ctx;
    this.#open = open;
    this.permission = port.permission();
  }

  /** The browser host may ask for permission: the user has not answered yet. */
  readonly canAsk: boolean = $derived.by(
    () => this.#ctx.host === 'browser' && this.permission === 'default',
  );

  /** Follows `alert:raised`; returns the function that stops. */
  start(): () => void {
    return this.#bridge.on('alert:raised', (raised) => this.deliver(raised));
  }

  /** Asks the browser to allow notifications (call from a click: browsers require it). */
  async allow(): Promise<void> {
    this.permission = await this.#port.request();
  }

  /** Every account is watched: the title names the account; one not on screen opens Alerts. */
  deliver({ alert, notify, summary }: AlertRaised): void {
    const title = `${ALERT_TITLES[alert.kind]} · ${alert.account}`;
    this.#announcer.announce(
      `${alert.account}: ${alert.message}`,
      alert.kind === 'knocked_out' || alert.kind === 'near',
    );
    if (!notify) return;
    this.permission = this.#port.permission();
    const onScreen = alert.accountId === summary.accountId;
    if (this.#ctx.host === 'browser' && this.permission === 'granted') {
      this.#port.show(
        { title: `Betdesk: ${title}`, body: alert.message, tag: `alert-${alert.id}` },
        () => this.#open(alert, onScreen),
      );
      return;
    }
    this.#toasts.push({
      tone: TONES[alert.kind],
      title,
      message: alert.message,
      // A rejected order made no position: its toast shows the order instead. Another
      // account's alert: the Alerts screen, which names it and offers the switch.
      target: !onScreen
        ? { screen: 'alerts' }
        : isAboutPosition(alert.kind)
          ? { screen: 'positions', contractId: alert.contractId, outcome: alert.outcome }
          : { screen: 'orders' },
    });
  }
}
