import { describe, expect, test } from 'vitest';
import type { AlertSettings } from '../../../src/shared/ipc/contract.js';
import { AlertsState, parseLevels } from '../../../src/renderer/src/lib/state/alerts.svelte.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { alertView, summary } from '../rows.js';

const DEFAULTS: AlertSettings = {
  levels: ['0.10', '0.05', '0.02'],
  margin: '0.01',
  notify: { near: true, knocked_out: true, filled: true, rejected: true, guard: true },
};

function setup() {
  const bridge = new FakeBridge();
  bridge.answer('alerts:list', {
    alerts: [alertView({ id: 2, kind: 'filled' }), alertView({ id: 1 })],
    total: 2,
    limit: 100,
    offset: 0,
    summary: summary({ unread: 2, unreadDanger: 1 }),
  });
  bridge.answer('alerts:settings', DEFAULTS);
  bridge.answer('alerts:configure', (s) => s);
  const alerts = new AlertsState(bridge);
  return { bridge, alerts };
}

describe('the alert centre', () => {
  test('lists alerts newest first with the unread count', async () => {
    const { alerts } = setup();
    alerts.start();
    await settle();
    expect(alerts.alerts.map((a) => a.id)).toEqual([2, 1]);
    expect(alerts.unread).toBe(2);
    expect(alerts.unreadDanger).toBe(1);
  });

  test('a raised alert goes on top at once, and the count follows main’s summary', async () => {
    const { bridge, alerts } = setup();
    alerts.start();
    await settle();
    const raised = alertView({ id: 3, kind: 'knocked_out' });
    bridge.emit('alert:raised', { alert: raised, notify: true, summary: summary({ unread: 3 }) });
    bridge.emit('alert:raised', { alert: raised, notify: true, summary: summary({ unread: 3 }) });
    expect(alerts.alerts.map((a) => a.id)).toEqual([3, 2, 1]);
    expect(alerts.total).toBe(3);
    expect(alerts.unread).toBe(3);
    bridge.emit('alerts:changed', summary({ unread: 0 }));
    expect(alerts.unread).toBe(0);
  });

  test('mark read marks the alert and takes main’s count', async () => {
    const { bridge, alerts } = setup();
    bridge.answer('alerts:read', summary({ unread: 1 }));
    await alerts.load();
    await alerts.markRead([1]);
    expect(bridge.inputs('alerts:read')).toEqual([{ ids: [1] }]);
    expect(alerts.alerts.find((a) => a.id === 1)?.read).toBe(true);
    expect(alerts.unread).toBe(1);
  });

  test('mark all read asks for all, and a refusal puts the alerts back and says why', async () => {
    const { bridge, alerts } = setup();
    bridge.fail('alerts:read', { kind: 'internal', message: 'The store could not be written.' });
    await alerts.load();
    await alerts.markAllRead();
    expect(bridge.inputs('alerts:read')).toEqual([{ all: true }]);
    expect(alerts.alerts.length).toBeGreaterThan(0);
    expect(alerts.alerts.every((a) => !a.read)).toBe(true);
    expect(alerts.reads.error).toBe('The store could not be written.');
  });

  test('marking an alert that is already read sends nothing', async () => {
    const { bridge, alerts } = setup();
    bridge.answer('alerts:read', summary());
    await alerts.load();
    await alerts.markRead([1]);
    await alerts.markRead([1]);
    expect(bridge.inputs('alerts:read')).toHaveLength(1);
  });
});

describe('alert settings', () => {
  test('levels read as percentages', async () => {
    const { alerts } = setup();
    await alerts.loadSettings();
    expect(alerts.levelsText).toBe('10, 5, 2');
    expect(alerts.marginText).toBe('1');
  });

  test('new levels are saved at once as fractions, deepest last', async () => {
    const { bridge, alerts } = setup();
    await alerts.loadSettings();
    expect(await alerts.setLevels('3, 15 ,8%')).toBe(true);
    expect(bridge.inputs('alerts:configure')).toEqual([
      { ...DEFAULTS, levels: ['0.15', '0.08', '0.03'] },
    ]);
    expect(alerts.levelsText).toBe('15, 8, 3');
    expect(alerts.settingsNotice).toMatch(/uses these settings now/);
  });

  test('a level that is not one says why and sends nothing', async () => {
    const { bridge, alerts } = setup();
    await alerts.loadSettings();
    expect(await alerts.setLevels('10, 150')).toBe(false);
    expect(alerts.settingsError).toMatch(/“150” is not a level/);
    expect(await alerts.setMargin('0')).toBe(false);
    expect(bridge.inputs('alerts:configure')).toEqual([]);
  });

  test('a notification switch is applied at once, with the rest unchanged', async () => {
    const { bridge, alerts } = setup();
    await alerts.loadSettings();
    await alerts.setNotify('filled', false);
    expect(bridge.inputs('alerts:configure')).toEqual([
      { ...DEFAULTS, notify: { ...DEFAULTS.notify, filled: false } },
    ]);
    expect(alerts.settings?.notify.filled).toBe(false);
  });

  test('main’s refusal keeps the old settings and says why', async () => {
    const { bridge, alerts } = setup();
    bridge.fail('alerts:configure', { kind: 'invalid-input', message: 'Levels must differ.' });
    await alerts.loadSettings();
    await alerts.setMargin('2');
    expect(alerts.settings).toEqual(DEFAULTS);
    expect(alerts.settingsError).toBe('Levels must differ.');
  });

  test('parseLevels drops repeats and refuses more than five', () => {
    expect(parseLevels('5, 5.0, 2')).toEqual({ levels: ['0.05', '0.02'] });
    expect(parseLevels('1 2 3 4 5 6')).toEqual({ problem: 'At most 5 levels.' });
    expect(parseLevels('  ')).toHaveProperty('problem');
  });
});
