import { describe, expect, test } from 'vitest';
import type { PositionsView } from '../../../src/shared/ipc/contract.js';
import { ManualClock } from '../../../src/renderer/src/lib/state/clock.svelte.js';
import {
  PositionsState,
  positionKey,
} from '../../../src/renderer/src/lib/state/positions.svelte.js';
import { deferred, FakeBridge, settle } from '../fake-bridge.js';
import { fixtureRef, NOW, position, positionsView } from '../rows.js';

const ars = position({
  contractId: 'EPL-1',
  outcome: 'ARS',
  fixture: fixtureRef({ league: 'EPL', homeTeam: 'ARS', awayTeam: 'CHE', startsAt: NOW + 2000 }),
  value: '6.00',
  pnl: '1.00',
  costBasis: '5.10',
  maxPayout: '10.00',
  boosted: true,
  knockout: '0.25',
  knockoutDistance: { price: '0.05', fraction: '0.1667' },
});
const liv = position({
  contractId: 'EPL-2',
  outcome: 'LIV',
  fixture: fixtureRef({ league: 'EPL', homeTeam: 'LIV', awayTeam: 'MUN', startsAt: NOW + 1000 }),
  value: '3.00',
  pnl: '-2.00',
  costBasis: '5.00',
  maxPayout: '9.00',
});
const bay = position({
  contractId: 'BUN-1',
  outcome: 'FCB',
  fixture: fixtureRef({ league: 'BUN', homeTeam: 'FCB', awayTeam: 'BVB', startsAt: NOW + 3000 }),
  value: '12.00',
  pnl: '0.50',
  costBasis: '11.50',
  maxPayout: '20.00',
  boosted: true,
  knockout: '0.40',
  knockoutDistance: { price: '0.01', fraction: '0.0244' },
  nearLevel: '0.05',
});

function setup(view: PositionsView = positionsView([ars, liv, bay])) {
  const bridge = new FakeBridge();
  const clock = new ManualClock(NOW);
  bridge.answer('positions:list', view);
  const positions = new PositionsState(bridge, clock);
  return { bridge, clock, positions };
}

const keys = (p: PositionsState) => p.rows.map((r) => r.outcome);

describe('positions', () => {
  test('a push repaints from the whole view, without asking main again', async () => {
    const { bridge, positions } = setup();
    positions.start();
    await settle();
    expect(keys(positions)).toEqual(['LIV', 'ARS', 'FCB']);
    bridge.emit('positions:changed', {
      accountId: null,
      at: NOW + 1,
      view: positionsView([{ ...ars, pnl: '2.50', value: '7.50' }]),
    });
    expect(positions.rows).toHaveLength(1);
    expect(positions.rows[0]?.pnl).toBe('2.50');
    expect(bridge.inputs('positions:list')).toHaveLength(1);
  });

  test('a read that answers after a push does not paint over it', async () => {
    const bridge = new FakeBridge();
    const late = deferred<PositionsView>();
    bridge.answer('positions:list', () => late.promise);
    const positions = new PositionsState(bridge, new ManualClock(NOW));
    positions.start();
    bridge.emit('positions:changed', { accountId: null, at: NOW, view: positionsView([bay]) });
    late.resolve(positionsView([ars, liv]));
    await settle();
    expect(keys(positions)).toEqual(['FCB']);
  });

  test('sorts by a column, the same column again the other way', async () => {
    const { positions } = setup();
    await positions.load();
    positions.sortBy('pnl');
    expect(keys(positions)).toEqual(['LIV', 'FCB', 'ARS']);
    expect(positions.direction).toBe('ascending');
    positions.sortBy('pnl');
    expect(keys(positions)).toEqual(['ARS', 'FCB', 'LIV']);
    expect(positions.direction).toBe('descending');
  });

  test('by distance to the knockout, positions without one come last either way', async () => {
    const { positions } = setup();
    await positions.load();
    positions.sortBy('distance');
    expect(keys(positions)).toEqual(['FCB', 'ARS', 'LIV']);
    positions.sortBy('distance');
    expect(keys(positions)).toEqual(['ARS', 'FCB', 'LIV']);
  });

  test('filters by league or team, any case', async () => {
    const { positions } = setup();
    await positions.load();
    positions.search = 'bun';
    expect(keys(positions)).toEqual(['FCB']);
    positions.search = 'che';
    expect(keys(positions)).toEqual(['ARS']);
    positions.search = '';
    expect(positions.rows).toHaveLength(3);
  });

  test('totals are those of the rows shown: value, P&L and money at risk', async () => {
    const { positions } = setup();
    await positions.load();
    expect(positions.totals).toEqual({
      count: 3,
      value: '21.00',
      pnl: '-0.50',
      moneyAtRisk: '21.60',
      maxPayout: '39.00',
    });
    positions.search = 'EPL';
    expect(positions.totals.moneyAtRisk).toBe('10.10');
  });

  test('says how old the figures are, and flags them stale past staleAfterMs', async () => {
    const { clock, positions } = setup();
    await positions.load();
    clock.now = NOW + 3400;
    expect(positions.ageText).toBe('updated 3 s ago');
    expect(positions.stale).toBe(false);
    expect(positions.staleWords).toBeNull();
    clock.now = NOW + 10_001;
    expect(positions.stale).toBe(true);
    expect(positions.staleWords).toBe(
      'Stale: no report from the exchange for 10 s; values may be out of date.',
    );
  });

  test('figures the exchange never reported are stale', async () => {
    const { positions } = setup(positionsView([ars], { snapshotAt: null }));
    await positions.load();
    expect(positions.stale).toBe(true);
    expect(positions.ageText).toBe('not updated from the exchange yet');
    expect(positions.staleWords).toBe(
      'Stale: the exchange has not reported positions yet; values may be out of date.',
    );
  });

  test('a failed read says why', async () => {
    const { bridge, positions } = setup();
    bridge.fail('positions:list', { kind: 'internal', message: 'The store could not be read.' });
    await positions.load();
    expect(positions.reads.error).toBe('The store could not be read.');
  });

  test('revealing a row clears a filter that hides it, selects it and flags it', async () => {
    const { positions } = setup();
    await positions.load();
    positions.search = 'BUN';
    positions.reveal('EPL-1', 'ARS');
    expect(positions.search).toBe('');
    expect(positions.selected).toBe(positionKey(ars));
    expect(positions.selectedRow).toBe(ars);
    const first = positions.highlight?.seq ?? 0;
    positions.reveal('EPL-1', 'ARS');
    expect(positions.highlight?.seq).toBe(first + 1);
  });
});
