import { describe, expect, it } from 'vitest';
import { deepestLevelInside, positionRow } from '../../../src/main/desk/positions.js';
import { position } from '../store/support.js';

const LEVELS = ['0.1', '0.05', '0.02'];

describe('a position as the positions screen shows it', () => {
  it('measures the distance to the knockout in price and as a fraction of the price', () => {
    const row = positionRow(
      {
        ...position('C', 'ARS', { estimatedClosingPrice: '0.3200', knockout: '0.3012' }),
        snapshotAt: 1,
      },
      null,
      LEVELS,
    );
    expect(row.knockoutDistance).toEqual({ price: '0.0188', fraction: '0.0588' });
    expect(row.nearLevel).toBe('0.1');
  });

  it('has no knockout, distance or level when unboosted', () => {
    const row = positionRow(
      { ...position('C', 'ARS', { boosted: false, knockout: undefined }), snapshotAt: 1 },
      null,
      LEVELS,
    );
    expect(row).toMatchObject({ knockout: null, knockoutDistance: null, nearLevel: null });
  });

  it('names the narrowest level the distance has fallen to', () => {
    expect(deepestLevelInside('0.2', LEVELS)).toBeNull();
    expect(deepestLevelInside('0.1', LEVELS)).toBe('0.1');
    expect(deepestLevelInside('0.03', LEVELS)).toBe('0.05');
    expect(deepestLevelInside('-0.01', LEVELS)).toBe('0.02');
  });
});
