import { describe, expect, test } from 'vitest';
import { estimateClose } from '../../../src/shared/rules/close.js';

// 10 contracts at 0.50: collateral 5.00 (value 6.00 less pnl 1.00), cost basis 5.10 with fees.
const position = {
  contracts: 10,
  entryPrice: '0.50',
  costBasis: '5.10',
  value: '6.00',
  pnl: '1.00',
};

describe('estimateClose', () => {
  test('a full close returns the collateral plus the price gain, and locks in proceeds less cost', () => {
    // 10/10 × 5.00 + 10 × (0.58 − 0.50) = 5.80; P&L 5.80 − 5.10 = 0.70.
    expect(estimateClose(position, 10, '0.58')).toEqual({
      contracts: 10,
      proceeds: '5.80',
      pnl: '0.70',
    });
  });

  test('a partial close takes its share of the collateral and of the cost basis', () => {
    // 4/10 × 5.00 + 4 × 0.08 = 2.32; P&L 2.32 − 0.4 × 5.10 = 0.28.
    expect(estimateClose(position, 4, '0.58')).toEqual({
      contracts: 4,
      proceeds: '2.32',
      pnl: '0.28',
    });
  });

  test('a close larger than the position sells the position, as the exchange caps it', () => {
    expect(estimateClose(position, 25, '0.58')?.contracts).toBe(10);
  });

  test('proceeds never go below zero, so the P&L is at worst the whole cost basis', () => {
    // Collateral 4.00 + 10 × (0.01 − 0.50) = −0.90: nothing comes back.
    const thin = { ...position, value: '4.00', pnl: '0.00' };
    expect(estimateClose(thin, 10, '0.01')).toEqual({
      contracts: 10,
      proceeds: '0.00',
      pnl: '-5.10',
    });
  });

  test('a loss shows as a negative P&L', () => {
    // 5.00 + 10 × (0.40 − 0.50) = 4.00; 4.00 − 5.10 = −1.10.
    expect(estimateClose(position, 10, '0.40')?.pnl).toBe('-1.10');
  });

  test('nothing held, or no contracts asked for, has no estimate', () => {
    expect(estimateClose({ ...position, contracts: 0 }, 5, '0.5')).toBeNull();
    expect(estimateClose(position, 0, '0.5')).toBeNull();
    expect(estimateClose(position, 2.5, '0.5')).toBeNull();
  });

  test('the estimate is exact decimal arithmetic, with no float residue', () => {
    const p = { contracts: 3, entryPrice: '0.1', costBasis: '0.3', value: '0.3', pnl: '0' };
    // 0.3 + 3 × 0.2 = 0.9 exactly (0.1 + 0.2 in floats is 0.30000000000000004).
    expect(estimateClose(p, 3, '0.3')).toEqual({ contracts: 3, proceeds: '0.90', pnl: '0.60' });
  });
});
