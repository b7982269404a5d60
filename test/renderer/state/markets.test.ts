import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { FixturePage } from '../../../src/shared/ipc/contract.js';
import {
  MarketsState,
  SEARCH_DELAY_MS,
} from '../../../src/renderer/src/lib/state/markets.svelte.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { fixture } from '../rows.js';

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
