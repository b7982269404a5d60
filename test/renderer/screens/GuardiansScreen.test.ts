/**
 * The Guardians screen: the pause switch (and the banner every screen shows while paused), the
 * daily limits with today's use, and the guardian log, whose filters go to main as the log's
 * scope and start again from the first page; empty and failed reads are said in words.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../../src/renderer/src/App.svelte';
import GuardiansScreen from '../../../src/renderer/src/screens/GuardiansScreen.svelte';
import type { Root } from '../../../src/renderer/src/lib/root.js';
import type { GuardLogQuery, GuardLogRow } from '../../../src/shared/ipc/contract.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { guardLogRow, guardSettings, guardsView } from '../guard-rows.js';
import { mountWith, testRoot } from '../mount.js';
import { NOW, appInfo, appStatus } from '../rows.js';

let bridge: FakeBridge;
let root: Root;
let remove: (() => void) | null;
let stop: () => void;

/** A log of `n` rows, newest first, answering filters and pages as main would. */
function logOf(rows: GuardLogRow[]) {
  return (q: GuardLogQuery) => {
    const match = rows.filter(
      (r) =>
        (q.event === undefined || r.event === q.event) &&
        (q.kind === undefined || r.kind === q.kind) &&
        (q.contractId === undefined || r.contractId === q.contractId),
    );
    return {
      rows: match.slice(q.offset, q.offset + q.limit),
      total: match.length,
      limit: q.limit,
      offset: q.offset,
    };
  };
}

const ROWS = Array.from({ length: 150 }, (_, i) =>
  guardLogRow({
    id: 150 - i,
    at: NOW - i * 60_000,
    event: i % 3 === 0 ? 'held' : 'filled',
    hold: i % 3 === 0 ? 'stale' : null,
    kind: i % 2 === 0 ? 'knockout' : 'stop_loss',
    message: i % 3 === 0 ? 'Held: waiting for fresh prices.' : 'The close filled.',
  }),
);

beforeEach(async () => {
  bridge = new FakeBridge();
  bridge.answer('guards:list', guardsView());
  bridge.answer('guards:settings', guardSettings());
  bridge.answer('guards:log', logOf(ROWS));
  bridge.answer('guards:pause', ({ paused }) =>
    guardsView([], { paused, pausedAt: paused ? NOW : null }),
  );
  root = testRoot(bridge);
  stop = root.guards.start();
  await settle();
  remove = null;
});

afterEach(() => {
  remove?.();
  stop();
});

test('the log shows its rows with their observation and order, paged', async () => {
  remove = mountWith(GuardiansScreen, root);
  const table = page.getByRole('table', { name: 'Guardian log' });
  await expect.element(table).toBeVisible();
  await expect.element(page.getByText('150 events, newest first')).toBeVisible();
  await expect.element(table.getByText('0.4410').first()).toBeVisible();
  await expect.element(table.getByText('order 0xfeed').first()).toBeVisible();
  expect(bridge.inputs('guards:log')[0]).toEqual({ limit: 100, offset: 0 });
  await userEvent.click(page.getByRole('button', { name: 'Next page' }));
  await expect.poll(() => bridge.inputs('guards:log').at(-1)).toEqual({ limit: 100, offset: 100 });
});

test('each filter narrows the log’s scope and goes back to the first page', async () => {
  remove = mountWith(GuardiansScreen, root);
  await expect.element(page.getByText('150 events, newest first')).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Next page' }));
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Event' }), 'held');
  await expect
    .poll(() => bridge.inputs('guards:log').at(-1))
    .toEqual({ event: 'held', limit: 100, offset: 0 });
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Rule' }), 'knockout');
  await expect
    .poll(() => bridge.inputs('guards:log').at(-1))
    .toEqual({ event: 'held', kind: 'knockout', limit: 100, offset: 0 });
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Fixture' }), 'EPL-ARSCHE');
  await expect
    .poll(() => bridge.inputs('guards:log').at(-1))
    .toMatchObject({ contractId: 'EPL-ARSCHE' });
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Period' }), 'today');
  await expect
    .poll(() => bridge.inputs('guards:log').at(-1))
    .toMatchObject({ event: 'held', kind: 'knockout', from: expect.any(Number) as number });
});

test('a filter change reads the log once; a change of the guardians reads it again', async () => {
  remove = mountWith(GuardiansScreen, root);
  await expect.element(page.getByText('150 events, newest first')).toBeVisible();
  const before = bridge.inputs('guards:log').length;
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Event' }), 'held');
  await expect.element(page.getByText('50 events, newest first')).toBeVisible();
  await settle();
  expect(bridge.inputs('guards:log').length).toBe(before + 1);
  bridge.emit('guards:changed', guardsView());
  await expect.poll(() => bridge.inputs('guards:log').length).toBe(before + 2);
  expect(bridge.inputs('guards:log').at(-1)).toEqual({ event: 'held', limit: 100, offset: 0 });
});

test('a filter that matches nothing says so, and Clear filters reads every row again', async () => {
  remove = mountWith(GuardiansScreen, root);
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Event' }), 'failed');
  await expect.element(page.getByText('No guardian events match these filters.')).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Clear filters' }));
  await expect.poll(() => bridge.inputs('guards:log').at(-1)).toEqual({ limit: 100, offset: 0 });
});

test('an empty log and a log that cannot be read are said in words', async () => {
  bridge.answer('guards:log', logOf([]));
  remove = mountWith(GuardiansScreen, root);
  await expect.element(page.getByText(/^No guardian events yet/)).toBeVisible();
  remove();
  bridge.fail('guards:log', { kind: 'disk-full', message: 'The disk is full.' });
  remove = mountWith(GuardiansScreen, root);
  await expect
    .element(page.getByRole('alert'))
    .toHaveTextContent('The guardian log could not be read: The disk is full.');
});

test('Export CSV asks for the guardian log with the filters shown', async () => {
  remove = mountWith(GuardiansScreen, root);
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Rule' }), 'stop_loss');
  await expect.element(page.getByText('75 events, newest first')).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Export CSV…' }));
  expect(root.csvExport.asking).toMatchObject({
    kind: 'guards',
    filter: { kind: 'stop_loss' },
  });
  expect(root.csvExport.asking?.about).toMatch(/^The 75 guardian log rows these filters show/);
});

test('the limits show today’s use beside each limit', async () => {
  remove = mountWith(GuardiansScreen, root);
  const limits = page.getByRole('region', { name: 'Daily limits on automatic closes' });
  await expect.element(limits.getByRole('row', { name: 'Closes 1 10' })).toBeVisible();
  await expect.element(limits.getByRole('row', { name: 'Stake $2.04 no limit' })).toBeVisible();
});

test('Pause guardians pauses every rule, and every screen says so until Resume', async () => {
  bridge.answer('app:info', appInfo());
  bridge.answer('status:get', appStatus());
  await root.app.refresh();
  remove = mountWith(App, root);
  const banner = page.getByRole('region', { name: 'Guardians paused' });
  await expect.element(banner).not.toBeInTheDocument();
  root.nav.screen = 'guardians';
  const pause = page.getByRole('checkbox', { name: 'Pause guardians' });
  await userEvent.click(pause);
  await expect.poll(() => bridge.inputs('guards:pause')).toEqual([{ paused: true }]);
  await expect
    .element(banner)
    .toHaveTextContent('Guardians paused — no rule will close a position');
  await expect.element(pause).toBeChecked();
  // Another screen: the banner stays.
  root.nav.screen = 'positions';
  await expect.element(banner).toBeVisible();
  await userEvent.click(banner.getByRole('button', { name: 'Resume guardians' }));
  await expect.poll(() => bridge.inputs('guards:pause').at(-1)).toEqual({ paused: false });
  await expect.element(banner).not.toBeInTheDocument();
});
