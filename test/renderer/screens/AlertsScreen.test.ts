/**
 * The Alerts screen names what a guardian did "Guardian", in its list and in the alert
 * settings' switch for it.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import AlertsScreen from '../../../src/renderer/src/screens/AlertsScreen.svelte';
import { FakeBridge, settle } from '../fake-bridge.js';
import { mountWith, testRoot } from '../mount.js';
import { alertView, summary } from '../rows.js';

let remove: () => void;
let stop: () => void;

beforeEach(async () => {
  const bridge = new FakeBridge();
  bridge.answer('alerts:list', (q) => ({
    alerts: [
      alertView({
        id: 2,
        kind: 'guard',
        message: 'Guardian: your knockout guard on ARS (ARS v CHE) closed 10 contracts at 0.4410.',
      }),
    ],
    total: 1,
    limit: q.limit,
    offset: q.offset,
    summary: summary({ unread: 1 }),
  }));
  bridge.answer('alerts:settings', {
    levels: ['0.1', '0.05', '0.02'],
    margin: '0.01',
    notify: { near: true, knocked_out: true, filled: true, rejected: true, guard: true },
  });
  const root = testRoot(bridge);
  stop = root.alerts.start();
  await settle();
  remove = mountWith(AlertsScreen, root);
});

afterEach(() => {
  remove();
  stop();
});

test('a guardian’s alert reads "Guardian", and so does its notification switch', async () => {
  const list = page.getByRole('list', { name: 'Alerts' });
  await expect.element(list.getByText('Guardian', { exact: true })).toBeVisible();
  await expect.element(list.getByText(/closed 10 contracts at 0\.4410/)).toBeVisible();
  await expect.element(page.getByRole('checkbox', { name: 'Guardian' })).toBeChecked();
});
