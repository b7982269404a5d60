import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { AlertView } from '../../../src/shared/ipc/contract.js';
import { Announcer } from '../../../src/renderer/src/lib/state/announcer.svelte.js';
import {
  Notifier,
  type NotificationPort,
  type PermissionState,
} from '../../../src/renderer/src/lib/state/notifier.svelte.js';
import { ToastsState } from '../../../src/renderer/src/lib/state/toasts.svelte.js';
import { FakeBridge } from '../fake-bridge.js';
import { alertView, summary } from '../rows.js';

class FakePort implements NotificationPort {
  shown: { title: string; body: string; tag: string; click: () => void }[] = [];
  constructor(
    public state: PermissionState,
    public answer: PermissionState = 'granted',
  ) {}
  permission(): PermissionState {
    return this.state;
  }
  request(): Promise<PermissionState> {
    this.state = this.answer;
    return Promise.resolve(this.state);
  }
  show(n: { title: string; body: string; tag: string }, onClick: () => void): void {
    this.shown.push({ ...n, click: onClick });
  }
}

function setup(permission: PermissionState, host: 'browser' | 'electron' = 'browser') {
  const bridge = new FakeBridge();
  const port = new FakePort(permission);
  const toasts = new ToastsState();
  const announcer = new Announcer();
  const opened: [AlertView, boolean][] = [];
  const notifier = new Notifier(bridge, port, toasts, announcer, { host }, (a, onScreen) =>
    opened.push([a, onScreen]),
  );
  notifier.start();
  const raise = (alert: AlertView, notify = true) =>
    bridge.emit('alert:raised', { alert, notify, summary: summary({ unread: 1 }) });
  return { port, toasts, announcer, opened, notifier, raise };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('delivering alerts', () => {
  test('the browser host shows a Web Notification once allowed, and a click opens the position', () => {
    const { port, toasts, opened, raise } = setup('granted');
    const alert = alertView({ kind: 'knocked_out', message: 'Knocked out: 10 contracts lost.' });
    raise(alert);
    expect(port.shown).toHaveLength(1);
    expect(port.shown[0]?.body).toBe('Knocked out: 10 contracts lost.');
    expect(toasts.items).toHaveLength(0);
    port.shown[0]?.click();
    expect(opened).toEqual([[alert, true]]);
  });

  test('without permission it is a toast, and the user is offered to allow notifications', async () => {
    const { port, toasts, notifier, raise } = setup('default');
    expect(notifier.canAsk).toBe(true);
    raise(alertView({ kind: 'near' }));
    expect(port.shown).toHaveLength(0);
    expect(toasts.items).toMatchObject([
      {
        tone: 'danger',
        title: 'Near knockout · Paper',
        target: { contractId: 'EPL-ARSCHE', outcome: 'ARS' },
      },
    ]);
    await notifier.allow();
    expect(notifier.permission).toBe('granted');
    expect(notifier.canAsk).toBe(false);
  });

  test('a rejected order’s toast shows it in Orders, never a position it did not make', () => {
    const { toasts, raise } = setup('default');
    raise(alertView({ kind: 'rejected', message: 'Rejected: nothing was bought or sold.' }));
    raise(alertView({ kind: 'filled' }));
    expect(toasts.items.map((t) => t.target)).toEqual([
      { screen: 'orders' },
      { screen: 'positions', contractId: 'EPL-ARSCHE', outcome: 'ARS' },
    ]);
  });

  test('in Electron main notifies the desktop; the page toasts and never asks', () => {
    const { port, toasts, notifier, raise } = setup('granted', 'electron');
    raise(alertView({ kind: 'filled' }));
    expect(port.shown).toHaveLength(0);
    expect(toasts.items).toHaveLength(1);
    expect(notifier.canAsk).toBe(false);
  });

  test('a kind the settings do not notify is neither toasted nor notified, but still announced', () => {
    const { port, toasts, announcer, raise } = setup('granted');
    raise(alertView({ kind: 'filled', message: 'Filled: 25 contracts of ARS.' }), false);
    expect(port.shown).toHaveLength(0);
    expect(toasts.items).toHaveLength(0);
    expect(announcer.polite).toBe('Paper: Filled: 25 contracts of ARS.');
  });

  test('another account’s alert names it, and leads to Alerts, not a position on screen', () => {
    const { port, toasts, opened, raise } = setup('default');
    const other = alertView({ kind: 'knocked_out', accountId: '7', account: 'Live B' });
    raise(other);
    expect(toasts.items).toMatchObject([
      { tone: 'danger', title: 'Knocked out · Live B', target: { screen: 'alerts' } },
    ]);
    const granted = setup('granted');
    granted.raise(other);
    expect(granted.port.shown[0]?.title).toBe('Betdesk: Knocked out · Live B');
    granted.port.shown[0]?.click();
    expect(granted.opened).toEqual([[other, false]]);
    expect(port.shown).toHaveLength(0);
    expect(opened).toEqual([]);
  });

  test('knockouts interrupt the screen reader; fills wait their turn', () => {
    const { announcer, raise } = setup('default');
    raise(alertView({ kind: 'knocked_out', message: 'Gone.' }));
    expect(announcer.assertive).toBe('Paper: Gone.');
    expect(announcer.polite).toBe('');
  });
});

describe('toasts', () => {
  test('go away by themselves, danger ones later', () => {
    const toasts = new ToastsState();
    toasts.push({ tone: 'ok', title: 'Filled', message: 'm', target: null });
    toasts.push({ tone: 'danger', title: 'Knocked out', message: 'm', target: null });
    vi.advanceTimersByTime(8000);
    expect(toasts.items.map((t) => t.title)).toEqual(['Knocked out']);
    vi.advanceTimersByTime(12_000);
    expect(toasts.items).toEqual([]);
  });

  test('keep the newest three', () => {
    const toasts = new ToastsState();
    for (let i = 1; i <= 6; i++)
      toasts.push({ tone: 'info', title: `t${i}`, message: '', target: null });
    expect(toasts.items.map((t) => t.title)).toEqual(['t4', 't5', 't6']);
  });

  test('dismiss removes one at once', () => {
    const toasts = new ToastsState();
    const id = toasts.push({ tone: 'info', title: 'a', message: '', target: null });
    toasts.dismiss(id);
    expect(toasts.items).toEqual([]);
  });
});

describe('the announcer', () => {
  test('the same sentence twice is announced twice', () => {
    const announcer = new Announcer();
    announcer.announce('Filled.');
    const first = announcer.polite;
    announcer.announce('Filled.');
    expect(announcer.polite).not.toBe(first);
    expect(announcer.polite.startsWith('Filled.')).toBe(true);
  });
});
