/**
 * Markets with price lines: each outcome's 24 h line drawn beside its button and named in words,
 * "no history" where none is recorded, and the rows shown before the lines arrive.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import MarketsScreen from '../../../src/renderer/src/screens/MarketsScreen.svelte';
import type { FixturePage, PriceLines } from '../../../src/shared/ipc/contract.js';
import type { Root } from '../../../src/renderer/src/lib/root.js';
import { FakeBridge, settle, type Deferred } from '../fake-bridge.js';
import { mountWith, testRoot } from '../mount.js';
import { fixture } from '../rows.js';
import { priceLine, WINDOW } from '../price-rows.js';

const PAGE: FixturePage = {
  fixtures: [fixture(), fixture({ contractId: 'EPL-LIVMUN', homeTeam: 'LIV', awayTeam: 'MUN' })],
  total: 2,
  limit: 20,
  offset: 0,
  leagues: ['EPL'],
  syncedAt: null,
};
const LINES: PriceLines = {
  ...WINDOW,
  lines: [
    priceLine(['0.512', '0.530', '0.543']),
    priceLine(['0.488', '0.457'], { outcome: 'CHE' }),
    priceLine(['0.6000', '0.6000'], { contractId: 'EPL-LIVMUN', outcome: 'LIV' }),
  ],
};

let bridge: FakeBridge;
let root: Root;
let held: Deferred<PriceLines>[];
let stop: () => void;
let remove: () => void;

beforeEach(async () => {
  bridge = new FakeBridge();
  bridge.answer('fixtures:list', PAGE);
  held = bridge.hold('prices:lines');
  root = testRoot(bridge);
  stop = root.markets.start();
  await settle();
  remove = mountWith(MarketsScreen, root);
});

afterEach(() => {
  remove();
  stop();
});

test('the rows show before their lines, which then follow, one call for the page', async () => {
  await expect.element(page.getByRole('listitem', { name: 'ARS v CHE' })).toBeVisible();
  expect(page.getByRole('img').elements()).toHaveLength(0);
  expect(bridge.inputs('prices:lines')).toEqual([{ contractIds: ['EPL-ARSCHE', 'EPL-LIVMUN'] }]);
  held[0]?.resolve(LINES);
  const up = page.getByRole('img', { name: 'ARS up 3.1 cents in 24 hours, from 0.512 to 0.543' });
  await expect.element(up).toBeVisible();
  expect(up.element().querySelector('path')?.getAttribute('d')).toMatch(/^M1\.5 16\.5L.+H54\.5$/);
  await expect
    .element(page.getByRole('img', { name: 'CHE down 3.1 cents in 24 hours, from 0.488 to 0.457' }))
    .toBeVisible();
  await expect
    .element(page.getByRole('img', { name: 'LIV unchanged in 24 hours, at 0.6000' }))
    .toBeVisible();
  const none = page.getByRole('img', { name: 'MUN: no price history yet' });
  await expect.element(none).toHaveTextContent('no history');
  expect(none.element().querySelector('svg')).toBeNull();
  expect(bridge.inputs('prices:lines')).toHaveLength(1);
});

test('the buttons keep their names: the line is beside them, not inside', async () => {
  held[0]?.resolve(LINES);
  await expect
    .element(page.getByRole('button', { name: 'Bet on ARS 0.5500 in ARS v CHE' }))
    .toBeVisible();
  const button = page.getByRole('button', { name: 'Bet on ARS 0.5500 in ARS v CHE' }).element();
  expect(button.querySelector('svg')).toBeNull();
});

test('a failed read of the lines says so, and the rows stay', async () => {
  held[0]?.reject(new Error('The store is busy.'));
  await expect.element(page.getByText(/Price lines could not be read/)).toBeVisible();
  await expect.element(page.getByRole('listitem', { name: 'ARS v CHE' })).toBeVisible();
});
