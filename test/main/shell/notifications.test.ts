import { beforeEach, describe, expect, it } from 'vitest';
import type { AlertKind, ShowRequest } from '../../../src/shared/ipc/contract.js';
import { IpcEventHub } from '../../../src/main/ipc/events.js';
import {
  AlertNotifications,
  MAX_HELD_NOTIFICATIONS,
  alertNotice,
  alertTarget,
  type NotificationParts,
} from '../../../src/main/shell/notifications.js';
import { alertRaised, alertsSummary, alertView } from './alert-samples.js';
import { Notification } from './fake-electron.js';

const parts = { Notification } as unknown as NotificationParts;

function listen() {
  const events = new IpcEventHub();
  const shown: ShowRequest[] = [];
  const notifications = new AlertNotifications(events, parts, (target) => shown.push(target));
  return { events, shown, notifications };
}

describe('alert notifications', () => {
  beforeEach(() => {
    Notification.shown = [];
    Notification.supported = true;
  });

  it.each<[AlertKind, string, string]>([
    ['near', 'Near knockout: ARS in ARS v CHE (Paper)', 'normal'],
    ['knocked_out', 'Knocked out: ARS in ARS v CHE (Paper)', 'critical'],
    ['filled', 'Filled: ARS in ARS v CHE (Paper)', 'low'],
    ['rejected', 'Rejected: ARS in ARS v CHE (Paper)', 'normal'],
  ])('name a %s alert’s outcome and fixture, and carry its sentence', (kind, title, urgency) => {
    const alert = alertView(kind);
    expect(alertNotice(alert)).toEqual({ title, body: alert.message, urgency });
  });

  it('lead a knockout alert to its position, and a fill or rejection to the orders', () => {
    const position = { screen: 'positions', contractId: 'EPL-ARSCHE-0001', outcome: 'ARS' };
    expect(alertTarget(alertView('near'))).toEqual(position);
    expect(alertTarget(alertView('knocked_out'))).toEqual(position);
    expect(alertTarget(alertView('filled'))).toEqual({ screen: 'orders' });
    expect(alertTarget(alertView('rejected'))).toEqual({ screen: 'orders' });
  });

  it('lead another account’s alert to Alerts, where it is named and can be switched to', () => {
    const other = { ...alertView('knocked_out'), accountId: '7', account: 'Live B' };
    expect(alertNotice(other).title).toBe('Knocked out: ARS in ARS v CHE (Live B)');
    expect(alertTarget(other, null)).toEqual({ screen: 'alerts' });
    expect(alertTarget(other, '7')).toMatchObject({ screen: 'positions' });
  });

  it('show a desktop notification for each raised alert whose settings want one', () => {
    const { events } = listen();
    events.emit('alert:raised', alertRaised('near', true));
    events.emit('alert:raised', alertRaised('filled', false));
    events.emit('alert:raised', alertRaised('knocked_out', true));
    events.emit('alert:raised', alertRaised('rejected', false));
    events.emit('alerts:changed', alertsSummary({ unread: 4 }));
    expect(Notification.shown.map((n) => n.options.title)).toEqual([
      'Near knockout: ARS in ARS v CHE (Paper)',
      'Knocked out: ARS in ARS v CHE (Paper)',
    ]);
  });

  it('on a click, ask to show the knocked-out position', () => {
    const { events, shown } = listen();
    events.emit('alert:raised', alertRaised('knocked_out'));
    expect(shown).toEqual([]);
    Notification.shown[0]!.emit('click');
    expect(shown).toEqual([{ screen: 'positions', contractId: 'EPL-ARSCHE-0001', outcome: 'ARS' }]);
  });

  it('on a click, ask to show the orders for a fill', () => {
    const { events, shown } = listen();
    events.emit('alert:raised', alertRaised('filled'));
    Notification.shown[0]!.emit('click');
    expect(shown).toEqual([{ screen: 'orders' }]);
  });

  it('hold each notification until it is clicked or closed, so its click still arrives', () => {
    const { events, notifications } = listen();
    events.emit('alert:raised', alertRaised('near'));
    events.emit('alert:raised', alertRaised('filled'));
    expect(notifications.waiting).toBe(2);
    Notification.shown[0]!.emit('click');
    Notification.shown[1]!.emit('close');
    expect(notifications.waiting).toBe(0);
  });

  it('let go of the oldest once too many are held', () => {
    const { events, notifications } = listen();
    for (let i = 0; i < MAX_HELD_NOTIFICATIONS + 5; i += 1) {
      events.emit('alert:raised', alertRaised('filled'));
    }
    expect(notifications.waiting).toBe(MAX_HELD_NOTIFICATIONS);
  });

  it('stay silent where the desktop has no notifications, and once stopped', () => {
    const { events, notifications } = listen();
    Notification.supported = false;
    events.emit('alert:raised', alertRaised('knocked_out'));
    Notification.supported = true;
    notifications.stop();
    events.emit('alert:raised', alertRaised('knocked_out'));
    expect(Notification.shown).toEqual([]);
  });
});
