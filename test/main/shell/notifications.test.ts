import { beforeEach, describe, expect, it } from 'vitest';
import type { KnockoutAlert } from '../../../src/shared/ipc/contract.js';
import { IpcEventHub } from '../../../src/main/ipc/events.js';
import {
  knockoutNotice,
  notifyKnockouts,
  type NotificationParts,
} from '../../../src/main/shell/notifications.js';
import { Notification } from './fake-electron.js';

const alert: KnockoutAlert = {
  kind: 'knocked_out',
  accountId: null,
  contractId: 'EPL-ARSCHE-0001',
  outcome: 'ARS',
  fixture: 'ARS v CHE',
  contracts: 12,
  knockout: '0.4100',
  message: 'Your boosted bet on ARS (ARS v CHE) was knocked out: 12 contracts lost.',
  at: 1_800_000_000_000,
};

const parts = { Notification } as unknown as NotificationParts;

describe('knockout notifications', () => {
  beforeEach(() => {
    Notification.shown = [];
    Notification.supported = true;
  });

  it('say which bet was knocked out, and at what price', () => {
    expect(knockoutNotice(alert)).toMatchObject({
      title: 'Knocked out: ARS in ARS v CHE',
      body: 'Your boosted bet on ARS (12 contracts) was knocked out at index price 0.4100.',
    });
  });

  it('say how close a bet is to its knockout, in the alert’s own sentence', () => {
    const near: KnockoutAlert = {
      kind: 'near',
      accountId: '3',
      contractId: 'EPL-ARSCHE-0001',
      outcome: 'ARS',
      fixture: 'ARS v CHE',
      knockout: '0.4100',
      level: '0.05',
      distance: '0.0431',
      message: 'Your boosted bet on ARS (ARS v CHE) is 4.31% above its knockout price of 0.4100.',
      at: 1_800_000_000_000,
    };
    expect(knockoutNotice(near)).toEqual({
      title: 'Near knockout: ARS in ARS v CHE',
      body: near.message,
      urgency: 'normal',
    });
  });

  it('show a desktop notification for each alert:knockout, and open the window on click', () => {
    const events = new IpcEventHub();
    let opened = 0;
    notifyKnockouts(events, parts, () => (opened += 1));
    events.emit('alert:knockout', alert);
    events.emit('positions:changed', { accountId: null, at: 1 });
    expect(Notification.shown.map((n) => n.options.title)).toEqual([
      'Knocked out: ARS in ARS v CHE',
    ]);
    Notification.shown[0]!.emit('click');
    expect(opened).toBe(1);
  });

  it('stay silent where the desktop has no notifications, and once stopped', () => {
    const events = new IpcEventHub();
    Notification.supported = false;
    const stop = notifyKnockouts(events, parts, () => {});
    events.emit('alert:knockout', alert);
    Notification.supported = true;
    stop();
    events.emit('alert:knockout', alert);
    expect(Notification.shown).toEqual([]);
  });
});
