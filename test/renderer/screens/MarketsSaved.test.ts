/**
 * Saved markets at start: the rows the store held show at once, while main's other answers
 * (the app's info, the sync status) are still held, and say in words that they are saved until
 * main's fixtures:changed brings the page the exchange confirmed.
 */
import axe from 'axe-core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import '../../../src/renderer/src/app.css';
import MarketsScreen from '../../../src/renderer/src/screens/MarketsScreen.svelte';
import type { Root } from '../../../src/renderer/src/lib/root.js';
import type { FixturePage } from '../../../src/shared/ipc/contract.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { mountWith, testRoot } from '../mount.js';
import { fixture } from '../rows.js';

const SAVED: FixturePage = {
  fixtures: [fixture(), fixture({ contractId: 'EPL-LIVMUN', homeTeam: 'LIV', awayTeam: 'MUN' })],
  total: 2,
  limit: 20,
  offset: 0,
  leagues: ['EPL'],
  syncedAt: new Date(2026, 10, 27, 14, 2).getTime(),
  saved: true,
};

let bridge: FakeBridge;
let root: Root;
let stop: () => void;
let remove: () => void;

beforeEach(async () => {
  bridge = new FakeBridge();
  bridge.answer('fixtures:list', SAVED);
  // What the start gate holds until the services are up: never answered in these tests.
  bridge.hold('app:info');
  bridge.hold('status:get');
  bridge.hold('alerts:list');
  root = testRoot(bridge);
  // The whole boot, as main.ts starts it.
  stop = root.start();
  await settle();
  remove = mountWith(MarketsScreen, root);
});

afterEach(() => {
  remove();
  stop();
});

const marker = () => page.getByRole('status').filter({ hasText: 'Saved markets' });

test('the stored rows show, marked as saved, without waiting for the app’s info', async () => {
  await expect.element(page.getByRole('listitem', { name: 'ARS v CHE' })).toBeVisible();
  await expect
    .element(marker())
    .toHaveTextContent(/^Saved markets from \S+.* — checking with the exchange…$/);
  expect(root.app.info).toBeNull();
});

test('the mark goes once main says the exchange confirmed the markets', async () => {
  await expect.element(marker()).toBeVisible();
  bridge.answer('fixtures:list', { ...SAVED, saved: false });
  bridge.emit('fixtures:changed', { total: 2, syncedAt: Date.now() });
  await expect.element(marker()).not.toBeInTheDocument();
  await expect.element(page.getByRole('listitem', { name: 'LIV v MUN' })).toBeVisible();
});

test('an empty store says nothing of saved markets', async () => {
  bridge.answer('fixtures:list', { ...SAVED, fixtures: [], total: 0, leagues: [] });
  await root.markets.load();
  await expect.element(page.getByText('No fixtures match these filters.')).toBeVisible();
  expect(marker().elements()).toHaveLength(0);
});

test('with saved markets shown, axe finds no WCAG 2.2 A/AA problem', async () => {
  await expect.element(marker()).toBeVisible();
  const result = await axe.run(document.body, {
    runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'],
  });
  const problems = result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} ${v.help}: ${n.target.join(' ')}`),
  );
  expect(problems, problems.join('\n')).toEqual([]);
});
