import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { FixturePage, PriceLines } from '../../../src/shared/ipc/contract.js';
import {
  MarketsState,
  SEARCH_DELAY_MS,
} from '../../../src/renderer/src/lib/state/markets.svelte.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { fixture, NOW } from '../rows.js';
import { priceLine, WINDOW } from '../price-rows.js';

const page = (total: number): FixturePage => ({
  fixtures: [fixture(), fixture({ contractId: 'BUN-1', league: 'BUN' })],
  total,
  limit: 20,
  offset: 0,
  leagues: ['BUN', 'EPL'],
  syncedAt: null,
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test('typing a team searches once the typing pauses, from the first page', async () => {
  const bridge = new FakeBridge();
  bridge.answer('fixtures:list', page(45));
  const markets = new MarketsState(bridge);
  await markets.load();
  await markets.next();
  markets.team = 'A';
  markets.team = 'AR';
  markets.team = 'ARS';
  vi.advanceTimersByTime(SEARCH_DELAY_MS);
  await settle();
  const asked = bridge.inputs('fixtures:list');
  expect(asked).toHaveLength(3);
  expect(asked.at(-1)).toEqual({ openOnly: true, team: 'ARS', limit: 20, offset: 0 });
});

test('the page groups fixtures by league, and finds a fixture by its contract', async () => {
  const bridge = new FakeBridge();
  bridge.answer('fixtures:list', page(2));
  const markets = new MarketsState(bridge);
  await markets.load();
  expect(markets.groups.map((g) => g.league)).toEqual(['EPL', 'BUN']);
  expect(markets.fixture('BUN-1')?.league).toBe('BUN');
  expect(markets.fixture('nope')).toBeNull();
});

describe('price lines', () => {
  const lines = (contractIds: string[]): PriceLines => ({
    ...WINDOW,
    lines: contractIds.includes('EPL-ARSCHE') ? [priceLine(['0.512', '0.543'])] : [],
  });

  test('one prices:lines call per page, for the fixtures shown, after the rows are up', async () => {
    const bridge = new FakeBridge();
    bridge.answer('fixtures:list', page(2));
    const held = bridge.hold('prices:lines');
    const markets = new MarketsState(bridge);
    await markets.load();
    // The rows are shown while the lines are still on their way.
    expect(markets.page?.fixtures).toHaveLength(2);
    expect(markets.lineOf('EPL-ARSCHE', 'ARS')).toBeUndefined();
    expect(bridge.inputs('prices:lines')).toEqual([{ contractIds: ['EPL-ARSCHE', 'BUN-1'] }]);
    held[0]?.resolve(lines(['EPL-ARSCHE', 'BUN-1']));
    await settle();
    expect(markets.lineOf('EPL-ARSCHE', 'ARS')?.last).toBe('0.543');
    // Asked and answered without a line: no history, not "still loading".
    expect(markets.lineOf('EPL-ARSCHE', 'CHE')).toBeNull();
    expect(markets.lineOf('BUN-1', 'FCB')).toBeNull();
    expect(markets.priceLines.from).toBe(WINDOW.from);
  });

  test('fixtures:changed reads the page and its lines again, once each', async () => {
    const bridge = new FakeBridge();
    bridge.answer('fixtures:list', page(2));
    bridge.answer('prices:lines', (q) => lines(q.contractIds));
    const markets = new MarketsState(bridge);
    const stop = markets.start();
    await settle();
    bridge.emit('fixtures:changed', { total: 2, syncedAt: NOW });
    await settle();
    expect(bridge.inputs('fixtures:list')).toHaveLength(2);
    expect(bridge.inputs('prices:lines')).toHaveLength(2);
    stop();
  });

  test('a failed read of the lines leaves the rows, and says why', async () => {
    const bridge = new FakeBridge();
    bridge.answer('fixtures:list', page(2));
    bridge.fail('prices:lines', { kind: 'internal', message: 'The store is busy.' });
    const markets = new MarketsState(bridge);
    await markets.load();
    await settle();
    expect(markets.page?.fixtures).toHaveLength(2);
    expect(markets.reads.error).toBeNull();
    expect(markets.lineReads.error).toBe('The store is busy.');
    expect(markets.lineOf('EPL-ARSCHE', 'ARS')).toBeUndefined();
  });

  test('another filter shows none of the last lines while its own are read', async () => {
    const bridge = new FakeBridge();
    bridge.answer('fixtures:list', page(2));
    bridge.answer('prices:lines', (q) => lines(q.contractIds));
    const markets = new MarketsState(bridge);
    await markets.load();
    await settle();
    expect(markets.lineOf('EPL-ARSCHE', 'ARS')).not.toBeUndefined();
    const held = bridge.hold('prices:lines');
    markets.league = 'EPL';
    await settle();
    expect(markets.lineOf('EPL-ARSCHE', 'ARS')).toBeUndefined();
    held[0]?.resolve(lines(['EPL-ARSCHE']));
    await settle();
    expect(markets.lineOf('EPL-ARSCHE', 'ARS')?.first).toBe('0.512');
  });
});
