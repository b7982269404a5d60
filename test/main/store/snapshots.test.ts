import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Position } from '../../../src/shared/api/schemas.js';
import type { Store } from '../../../src/main/store/index.js';
import { fixture, position, tempStore } from './support.js';

let store: Store;
let accountId: number;
let done = () => {};
beforeEach(() => {
  ({ store, accountId, done } = tempStore());
});
afterEach(() => done());

describe('positions', () => {
  it('replace the whole set, so a position missing from a snapshot is gone', () => {
    store.replacePositions(accountId, [position('EPL-1', 'ARS'), position('EPL-2', 'LIV')], 100);
    store.replacePositions(accountId, [position('EPL-2', 'LIV', { contracts: 50 })], 200);
    const now = store.positions.list(accountId);
    expect(now).toHaveLength(1);
    expect(now[0]).toMatchObject({ contractId: 'EPL-2', contracts: 50, snapshotAt: 200 });
    expect(store.cursors.get(accountId, 'positions')?.cursor).toBe(200);
  });

  it('round-trip every field, with knockout only when present', () => {
    const boosted = position('EPL-1', 'ARS');
    const plain = position('EPL-3', 'CHE', { boosted: false, knockout: undefined });
    delete plain.knockout;
    store.replacePositions(accountId, [boosted, plain], 100);
    expect(store.positions.list(accountId)).toEqual([
      { ...boosted, snapshotAt: 100 },
      { ...plain, snapshotAt: 100 },
    ]);
    expect(store.positions.list(accountId, { team: 'che' })).toHaveLength(1);
    expect(store.positions.list(accountId, { contractId: 'epl-1' })).toHaveLength(1);
  });

  it('keep the previous set when a snapshot fails half way', () => {
    store.replacePositions(accountId, [position('EPL-1', 'ARS')], 100);
    const bad = { ...position('EPL-2', 'LIV'), contracts: null } as unknown as Position;
    expect(() => store.replacePositions(accountId, [position('EPL-9', 'TOT'), bad], 200)).toThrow();
    expect(store.positions.list(accountId).map((p) => p.contractId)).toEqual(['EPL-1']);
    expect(store.cursors.get(accountId, 'positions')?.cursor).toBe(100);
  });
});

describe('fixtures', () => {
  beforeEach(() => {
    store.fixtures.upsertMany(
      accountId,
      [
        fixture('EPL-1', { startsAt: 3 }),
        fixture('EPL-2', {
          startsAt: 1,
          homeTeam: 'LIV',
          awayTeam: 'ARS',
          bettingOpen: false,
          status: 'CLOSED',
        }),
        fixture('LAL-1', { startsAt: 2, league: 'La Liga', homeTeam: 'RMA', awayTeam: 'FCB' }),
      ],
      10,
    );
  });

  it('list by kick-off with filters for open, league and team (home or away)', () => {
    expect(store.fixtures.list(accountId).fixtures.map((f) => f.contractId)).toEqual([
      'EPL-2',
      'LAL-1',
      'EPL-1',
    ]);
    expect(store.fixtures.list(accountId, { bettingOpen: true }).total).toBe(2);
    expect(store.fixtures.list(accountId, { league: 'premier LEAGUE' }).total).toBe(2);
    expect(
      store.fixtures.list(accountId, { team: 'ars' }).fixtures.map((f) => f.contractId),
    ).toEqual(['EPL-2', 'EPL-1']);
    expect(store.fixtures.list(accountId, { limit: 1, offset: 1 })).toMatchObject({
      total: 3,
      limit: 1,
      offset: 1,
    });
  });

  it('replace a fixture with its newer version', () => {
    store.fixtures.upsertMany(
      accountId,
      [fixture('EPL-1', { status: 'RESOLVED', winner: 'ARS', homePrice: '1.0000' })],
      20,
    );
    expect(store.fixtures.get(accountId, 'epl-1')).toMatchObject({
      status: 'RESOLVED',
      winner: 'ARS',
      homePrice: '1.0000',
    });
    expect(store.fixtures.list(accountId).total).toBe(3);
  });
});

describe('cursors', () => {
  it('store, replace and reset a stream cursor per account', () => {
    expect(store.cursors.get(accountId, 'orders')).toBeUndefined();
    store.cursors.set(accountId, 'orders', 5, 100);
    store.cursors.set(accountId, 'orders', 3, 200);
    expect(store.cursors.get(accountId, 'orders')).toEqual({ cursor: 3, lastSyncAt: 200 });
    store.cursors.reset(accountId, 'orders');
    expect(store.cursors.get(accountId, 'orders')).toBeUndefined();
  });
});

describe('alerts', () => {
  const near = {
    kind: 'near' as const,
    contractId: 'EPL-1',
    outcome: 'ARS',
    level: '0.3200',
    threshold: '0.3012',
    message: 'ARS is 0.0188 from its knockout',
    createdAt: 1,
  };

  it('are stored once per dedup key', () => {
    const first = store.alerts.insertOnce({ accountId, ...near });
    expect(first).toMatchObject({ kind: 'near', level: '0.3200' });
    expect(typeof first?.id).toBe('number');
    expect(
      store.alerts.insertOnce({ accountId, ...near, level: '0.3100', createdAt: 2 }),
    ).toBeUndefined();
    const ko = store.alerts.insertOnce({ accountId, ...near, kind: 'knocked_out', createdAt: 3 });
    expect(ko).toBeDefined();
    expect(
      store.alerts.insertOnce({ accountId, ...near, dedupKey: 'epoch-2', createdAt: 4 }),
    ).toBeDefined();
  });

  it('list newest first, filtered by kind', () => {
    store.alerts.insertOnce({ accountId, ...near });
    store.alerts.insertOnce({ accountId, ...near, kind: 'knocked_out', createdAt: 5 });
    const all = store.alerts.list(accountId);
    expect(all.total).toBe(2);
    expect(all.alerts.map((a) => a.kind)).toEqual(['knocked_out', 'near']);
    expect(store.alerts.list(accountId, { kind: 'near' }).total).toBe(1);
  });
});

describe('transactions', () => {
  it('commit everything a function wrote, or nothing when it throws', () => {
    expect(() =>
      store.transaction(() => {
        store.cursors.set(accountId, 'orders', 1, 1);
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(store.cursors.get(accountId, 'orders')).toBeUndefined();
    store.transaction(() => store.cursors.set(accountId, 'orders', 2, 2));
    expect(store.cursors.get(accountId, 'orders')?.cursor).toBe(2);
  });
});
