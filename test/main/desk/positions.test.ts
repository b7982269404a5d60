import { describe, expect, it } from 'vitest';
import {
  deepestLevelInside,
  positionRow,
  positionsView,
} from '../../../src/main/desk/positions.js';
import { order, position, tempStore } from '../store/support.js';

const LEVELS = ['0.1', '0.05', '0.02'];

const READ = { readAt: 1_000, staleAfterMs: 2_000 };

describe('a position as the positions screen shows it', () => {
  it('measures the distance to the knockout on the index price, in price and as a fraction of it', () => {
    const row = positionRow(
      {
        ...position('C', 'ARS', { estimatedClosingPrice: '0.3000', knockout: '0.3012' }),
        snapshotAt: 1,
      },
      null,
      LEVELS,
      { price: '0.3200', ...READ },
    );
    expect(row.knockoutDistance).toEqual({ price: '0.0188', fraction: '0.0588' });
    expect(row.nearLevel).toBe('0.1');
    expect(row).toMatchObject({
      indexPrice: '0.3200',
      indexReadAt: 1_000,
      indexStaleAfterMs: 2_000,
    });
  });

  it('calls a low-priced bet an index cent above its knockout alive, whatever the closing estimate', () => {
    // The issue: boost 60 at 0.06, knockout 0.0379, index 0.0479, closing estimate 0.0378.
    const row = positionRow(
      {
        ...position('C', 'NEW', { estimatedClosingPrice: '0.0378', knockout: '0.0379' }),
        snapshotAt: 1,
      },
      null,
      LEVELS,
      { price: '0.0479', ...READ },
    );
    expect(row.knockoutDistance).toEqual({ price: '0.0100', fraction: '0.2088' });
    expect(row.nearLevel).toBeNull();
  });

  it('shows no distance for a knockout whose index price was not read yet', () => {
    const row = positionRow({ ...position('C', 'ARS'), snapshotAt: 1 }, null, LEVELS, undefined);
    expect(row).toMatchObject({
      knockout: '0.3012',
      knockoutDistance: null,
      nearLevel: null,
      indexPrice: null,
      indexReadAt: null,
    });
  });

  it('has no knockout, distance or level when unboosted', () => {
    const row = positionRow(
      { ...position('C', 'ARS', { boosted: false, knockout: undefined }), snapshotAt: 1 },
      null,
      LEVELS,
      { price: '0.5000', ...READ },
    );
    expect(row).toMatchObject({
      knockout: null,
      knockoutDistance: null,
      nearLevel: null,
      indexPrice: null,
    });
  });

  it('names the narrowest level the distance has fallen to', () => {
    expect(deepestLevelInside('0.2', LEVELS)).toBeNull();
    expect(deepestLevelInside('0.1', LEVELS)).toBe('0.1');
    expect(deepestLevelInside('0.03', LEVELS)).toBe('0.05');
    expect(deepestLevelInside('-0.01', LEVELS)).toBe('0.02');
  });
});

describe('the position open now, from the stored orders (issue 27 item 12)', () => {
  it('begins after the outcome was last sold to nothing', () => {
    const t = tempStore();
    try {
      const base = { contractId: 'EPL-1', outcome: 'ARS', status: 'FILLED' as const };
      t.store.applyOrderUpdates(
        t.accountId,
        [
          order(1, { ...base, side: 'BUY', contracts: 5, createdAt: 1_000, updatedAt: 1_000 }),
          order(2, { ...base, side: 'SELL', contracts: 5, createdAt: 2_000, updatedAt: 2_000 }),
          order(3, { ...base, side: 'BUY', contracts: 3, createdAt: 3_000, updatedAt: 3_000 }),
        ],
        1,
      );
      t.store.positions.replace(t.accountId, [position('EPL-1', 'ARS', { contracts: 3 })], 4_000);
      const view = positionsView(t.store, t.accountId, {
        bridgeId: null,
        pollMs: 1_000,
        levels: [],
      });
      expect(view.positions.map((p) => p.heldSince)).toEqual([3_000]);
      // Orders that arrive after the positions read are counted at the next view.
      t.store.applyOrderUpdates(
        t.accountId,
        [
          order(4, { ...base, side: 'SELL', contracts: 3, createdAt: 3_500, updatedAt: 3_500 }),
          order(5, { ...base, side: 'BUY', contracts: 3, createdAt: 3_600, updatedAt: 3_600 }),
        ],
        2,
      );
      const again = positionsView(t.store, t.accountId, {
        bridgeId: null,
        pollMs: 1_000,
        levels: [],
      });
      expect(again.positions.map((p) => p.heldSince)).toEqual([3_600]);
    } finally {
      t.done();
    }
  });
});

describe('the lots a close takes, from the stored orders (issue 28 item 8)', () => {
  const base = { contractId: 'EPL-1', outcome: 'ARS', status: 'FILLED' as const };
  const arsBuys = [
    order(1, { ...base, contracts: 3, entryPrice: '0.6101', cost: '1.85', createdAt: 1_000 }),
    order(2, { ...base, contracts: 3, entryPrice: '0.7101', cost: '2.16', createdAt: 2_000 }),
  ];
  const arsHeld = { contracts: 6, costBasis: '4.01', boosted: false, knockout: undefined };
  const view = (t: ReturnType<typeof tempStore>) =>
    positionsView(t.store, t.accountId, { bridgeId: null, pollMs: 1_000, levels: [] });

  it('carries the lots held, oldest first, when they add up to the position', () => {
    const t = tempStore();
    try {
      t.store.applyOrderUpdates(t.accountId, arsBuys, 1);
      t.store.positions.replace(t.accountId, [position('EPL-1', 'ARS', arsHeld)], 3_000);
      expect(view(t).positions[0]!.lots).toEqual([
        { contracts: 3, cost: '1.85', loanPerContract: '0', knockout: null },
        { contracts: 3, cost: '2.16', loanPerContract: '0', knockout: null },
      ]);
    } finally {
      t.done();
    }
  });

  it('has none when the stored orders do not make the position the exchange reports', () => {
    const t = tempStore();
    try {
      // The first buy is not stored: 3 contracts where the exchange reports 6.
      t.store.applyOrderUpdates(t.accountId, [arsBuys[1]!], 1);
      t.store.positions.replace(t.accountId, [position('EPL-1', 'ARS', arsHeld)], 3_000);
      expect(view(t).positions[0]!.lots).toBeNull();
      // Stored now; a cost basis the lots do not make is not proven either.
      t.store.applyOrderUpdates(t.accountId, [arsBuys[0]!], 2);
      expect(view(t).positions[0]!.lots).toHaveLength(2);
      const other = { ...arsHeld, costBasis: '4.50', updatedAt: 1_700_000_000_001 };
      t.store.positions.replace(t.accountId, [position('EPL-1', 'ARS', other)], 4_000);
      expect(view(t).positions[0]!.lots).toBeNull();
    } finally {
      t.done();
    }
  });
});
