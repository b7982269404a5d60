import { expect, test } from 'vitest';
import { positionTotals } from '../../../src/shared/rules/totals.js';

test('totals add value, P&L, cost basis (money at risk) and max payout in decimals', () => {
  const totals = positionTotals([
    { value: '10.10', pnl: '0.10', costBasis: '10.00', maxPayout: '20.00' },
    { value: '4.20', pnl: '-0.80', costBasis: '5.00', maxPayout: '9.99' },
    { value: '0.1', pnl: '0.2', costBasis: '0.3', maxPayout: '0.01' },
  ]);
  expect(totals).toEqual({
    count: 3,
    value: '14.40',
    pnl: '-0.50',
    moneyAtRisk: '15.30',
    maxPayout: '30.00',
  });
});

test('no positions total zero', () => {
  expect(positionTotals([])).toEqual({
    count: 0,
    value: '0.00',
    pnl: '0.00',
    moneyAtRisk: '0.00',
    maxPayout: '0.00',
  });
});
