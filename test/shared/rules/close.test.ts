/**
 * Issue 28 item 8: the close slip estimates as the exchange closes, oldest lots first (GET /docs
 * "Closing (SELL)"), and after the fill speaks from the exchange's proceeds.
 */
import { describe, expect, test } from 'vitest';
import {
  closeResult,
  estimateClose,
  type ClosablePosition,
  type CloseLot,
} from '../../../src/shared/rules/close.js';

const plain = (contracts: number, cost: string): CloseLot => ({
  contracts,
  cost,
  loanPerContract: '0',
});

/**
 * ARS: 3 bought at 0.6101 (3 × 0.6101 × 1.01 = 1.848603, charged 1.85) and 3 at 0.7101
 * (2.151603, charged 2.16). The position's figures as GET /positions gave them at index 0.7500.
 */
const ars: ClosablePosition = {
  contracts: 6,
  entryPrice: '0.6601',
  costBasis: '4.01',
  value: '4.40',
  exchangePnl: '0.44',
  boosted: false,
  lots: [plain(3, '1.85'), plain(3, '2.16')],
};

describe('estimateClose, oldest lots first', () => {
  test('ARS: closing 3 at 0.7399 takes the first lot: proceeds $2.19, +$0.34 as the CLOSED row says', () => {
    // 3 × 0.7399 = 2.2197, less the fee 0.01 × 3 × 0.7399 = 0.022197: 2.197503, floored 2.19.
    expect(estimateClose(ars, 3, '0.7399')).toEqual({
      contracts: 3,
      proceeds: '2.19',
      fee: '0.022197',
      cost: '1.85',
      pnl: '0.34',
      basis: 'lots',
    });
  });

  test('ARS: the rest then locks in +$0.03, and the two add up to the position’s CLOSED row', () => {
    const after: ClosablePosition = {
      ...ars,
      contracts: 3,
      costBasis: '2.16',
      lots: [plain(3, '2.16')],
    };
    expect(estimateClose(after, 3, '0.7399')?.pnl).toBe('0.03');
    // The CLOSED row: proceeds 2.19 + 2.19 less the cost 1.85 + 2.16 = +0.37.
  });

  test('the average cost would have said otherwise: the lots are what the exchange takes', () => {
    const averaged = estimateClose({ ...ars, lots: null }, 3, '0.7399');
    // Half the cost basis, 2.005: 2.19 − 2.005 = 0.185, half-even to 0.18.
    expect(averaged).toMatchObject({
      proceeds: '2.19',
      cost: '2.00',
      pnl: '0.18',
      basis: 'average',
    });
  });

  test('a lot partly sold gives up its cost pro rata', () => {
    const p = { ...ars, contracts: 5, costBasis: '3.08', lots: [plain(5, '3.08')] };
    // 2 of 5: cost 3.08 × 2/5 = 1.232; 2 × 0.70 = 1.40 less 0.014: 1.386, floored 1.38.
    expect(estimateClose(p, 2, '0.70')).toMatchObject({
      proceeds: '1.38',
      cost: '1.23',
      pnl: '0.15',
    });
  });

  test('a boosted slice pays the sell price less its loan', () => {
    // F2's boosted lot: 10 at 0.6107, boost 50: loan 0.6107 × 0.45 = 0.274815, cost 3.42.
    const boosted: CloseLot = { contracts: 10, cost: '3.42', loanPerContract: '0.274815' };
    const p = {
      ...ars,
      contracts: 13,
      costBasis: '5.27',
      boosted: true,
      lots: [plain(3, '1.85'), boosted],
    };
    // 3 × 0.5399 + 10 × (0.5399 − 0.274815) = 1.6197 + 2.65085 = 4.27055, less the fee
    // 0.01 × 13 × 0.5399 = 0.070187: 4.200363, floored 4.20; cost 1.85 + 3.42 = 5.27.
    expect(estimateClose(p, 13, '0.5399')).toMatchObject({
      proceeds: '4.20',
      fee: '0.070187',
      cost: '5.27',
      pnl: '-1.07',
    });
  });

  test('a slice whose loan is above the sell price pays nothing, and the fee comes off the rest', () => {
    const boosted: CloseLot = { contracts: 2, cost: '0.68', loanPerContract: '0.274815' };
    const p = {
      ...ars,
      contracts: 5,
      costBasis: '2.53',
      boosted: true,
      lots: [boosted, plain(3, '1.85')],
    };
    // 0 + 3 × 0.25 = 0.75, less 0.01 × 5 × 0.25 = 0.0125: 0.7375, floored 0.73.
    expect(estimateClose(p, 5, '0.2500')).toMatchObject({
      proceeds: '0.73',
      cost: '2.53',
      pnl: '-1.80',
    });
    // Only that slice: nothing comes back, and no fee is taken from nothing.
    expect(estimateClose(p, 2, '0.2500')).toMatchObject({
      proceeds: '0.00',
      fee: '0',
      pnl: '-0.68',
    });
  });

  test('a close larger than the position sells the position, as the exchange caps it', () => {
    expect(estimateClose(ars, 25, '0.7399')).toMatchObject({ contracts: 6, cost: '4.01' });
  });

  test('nothing held, or no contracts asked for, has no estimate', () => {
    expect(estimateClose({ ...ars, contracts: 0 }, 5, '0.5')).toBeNull();
    expect(estimateClose(ars, 0, '0.5')).toBeNull();
    expect(estimateClose(ars, 2.5, '0.5')).toBeNull();
  });

  test('the estimate is exact decimal arithmetic, with no float residue', () => {
    const p = { ...ars, contracts: 3, costBasis: '0.3', lots: [plain(3, '0.3')] };
    // 3 × 0.3 = 0.9 less 0.009: 0.891, floored 0.89 (0.1 + 0.2 in floats is 0.30000000000000004).
    expect(estimateClose(p, 3, '0.3')).toMatchObject({ proceeds: '0.89', pnl: '0.59' });
  });
});

describe('estimateClose from the average cost (the orders are not all stored)', () => {
  // 10 contracts at 0.50: collateral 5.00 (value 6.00 less the exchange's pnl 1.00), cost 5.10.
  const position: ClosablePosition = {
    contracts: 10,
    entryPrice: '0.50',
    costBasis: '5.10',
    value: '6.00',
    exchangePnl: '1.00',
    boosted: false,
    lots: null,
  };

  test('a partial close takes its share of the cost basis, and the fee off the proceeds', () => {
    // 4 × 0.58 = 2.32 less 0.0232: 2.2968, floored 2.29; P&L 2.29 − 0.4 × 5.10 = 0.25.
    expect(estimateClose(position, 4, '0.58')).toMatchObject({
      contracts: 4,
      proceeds: '2.29',
      pnl: '0.25',
      basis: 'average',
    });
  });

  test('a boosted position’s loan is what its collateral leaves of the entry price', () => {
    // Collateral 3.00 over 10: the exchange lent 0.50 − 0.30 = 0.20 a contract.
    const boosted = {
      ...position,
      boosted: true,
      value: '3.50',
      exchangePnl: '0.50',
      costBasis: '3.05',
    };
    // 10 × (0.58 − 0.20) = 3.80 less 0.058: 3.742, floored 3.74; 3.74 − 3.05 = 0.69.
    expect(estimateClose(boosted, 10, '0.58')).toMatchObject({ proceeds: '3.74', pnl: '0.69' });
    // Below the loan nothing comes back: the P&L is at worst the whole cost basis.
    expect(estimateClose(boosted, 10, '0.15')).toMatchObject({ proceeds: '0.00', pnl: '-3.05' });
  });
});

describe('closeResult: after the fill, the exchange’s proceeds', () => {
  test('ARS: the proceeds less the cost of the lots sold, from the position before the sale', () => {
    expect(closeResult(ars, 3, '2.19')).toEqual({
      contracts: 3,
      proceeds: '2.19',
      cost: '1.85',
      pnl: '0.34',
      basis: 'lots',
    });
  });

  test('a MARKET close that filled fewer contracts carries the cost of those alone', () => {
    expect(closeResult(ars, 2, '1.46')).toMatchObject({ cost: '1.23', pnl: '0.23' });
  });

  test('says when the cost is the average, and has nothing for an empty fill', () => {
    expect(closeResult({ ...ars, lots: null }, 3, '2.19')?.basis).toBe('average');
    expect(closeResult(ars, 0, '0.00')).toBeNull();
  });
});
