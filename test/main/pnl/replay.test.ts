/**
 * The replay of a position's orders (docs/pnl.md): the basis of the contracts that settled is
 * what the lots still hold, taken oldest first as the exchange takes them.
 */
import { describe, expect, it } from 'vitest';
import { replayBasis, type ReplayFill } from '../../../src/main/pnl/replay.js';

const buy = (contracts: number, cost: string, knockout?: string): ReplayFill => ({
  side: 'BUY',
  contracts,
  cost,
  ...(knockout === undefined ? {} : { knockout }),
});
const sell = (contracts: number, fee = '0.05'): ReplayFill => ({
  side: 'SELL',
  contracts,
  cost: fee,
});

describe('replayBasis', () => {
  it('takes a partial sell from the oldest lot, pro rata, and leaves the rest as the basis', () => {
    // 6 at 3.00 (0.50 each) and 4 at 2.60 (0.65 each); a sell of 4 takes 4 of the first lot.
    const r = replayBasis({
      fills: [buy(6, '3.00'), buy(4, '2.60'), sell(4)],
      knockedOut: 0,
      settled: 6,
    });
    expect(r).toEqual({
      known: true,
      boughtContracts: 10,
      boughtCost: '5.60',
      soldContracts: 4,
      soldCost: '2.00',
      costBasis: '3.60', // 2 × 0.50 + 2.60: the sell's fee is not basis
    });
  });

  it('differs from an average cost where the lots were bought at different prices', () => {
    const r = replayBasis({
      fills: [buy(5, '2.00'), buy(5, '4.00'), sell(5)],
      knockedOut: 0,
      settled: 5,
    });
    expect(r).toMatchObject({ known: true, costBasis: '4.00' }); // an average would say 3.00
  });

  it('rounds a share of a lot to the cent half-even, as GET /positions rounds costBasis', () => {
    const r = replayBasis({ fills: [buy(3, '1.00'), sell(1)], knockedOut: 0, settled: 2 });
    expect(r).toMatchObject({ known: true, costBasis: '0.67', soldCost: '0.33' });
  });

  it('knocks out the boosted lots, highest knockout first, as many contracts as reported', () => {
    const fills = [buy(4, '2.00'), buy(3, '1.20', '0.3000'), buy(2, '0.90', '0.4000')];
    expect(replayBasis({ fills, knockedOut: 2, settled: 7 })).toEqual({
      known: true,
      boughtContracts: 9,
      boughtCost: '4.10',
      soldContracts: 2,
      soldCost: '0.90', // the lot with the 0.40 knockout went first
      costBasis: '3.20',
    });
    expect(replayBasis({ fills, knockedOut: 5, settled: 4 })).toMatchObject({
      known: true,
      costBasis: '2.00', // only the unboosted lot is left
    });
  });

  it('starts fresh lots after a position went flat and was opened again', () => {
    const r = replayBasis({
      fills: [buy(2, '1.00'), sell(2), buy(3, '2.10')],
      knockedOut: 0,
      settled: 3,
    });
    expect(r).toMatchObject({ known: true, costBasis: '2.10', soldContracts: 2 });
  });

  it('is unknown, with the reason, when buys that built the position are missing', () => {
    expect(replayBasis({ fills: [buy(7, '3.50')], knockedOut: 0, settled: 10 })).toEqual({
      known: false,
      reason:
        '3 of the 10 contracts that settled were bought by orders this store does not hold ' +
        '(older than its first sync, or not synced yet).',
    });
    expect(replayBasis({ fills: [], knockedOut: 0, settled: 10 })).toEqual({
      known: false,
      reason: 'None of the orders that bought these 10 contracts are in the store.',
    });
    expect(replayBasis({ fills: [sell(2)], knockedOut: 0, settled: 4 })).toMatchObject({
      known: false,
    });
  });

  it('is unknown when a sell or a knockout needs contracts no stored buy holds', () => {
    const oversold = replayBasis({ fills: [buy(2, '1.00'), sell(5)], knockedOut: 0, settled: 1 });
    expect(oversold).toMatchObject({ known: false });
    expect(!oversold.known && oversold.reason).toMatch(/found only 2/);
    const knocked = replayBasis({ fills: [buy(4, '2.00')], knockedOut: 2, settled: 2 });
    expect(!knocked.known && knocked.reason).toMatch(/knocked out 2 contracts/);
  });

  it('is unknown when the stored orders leave more held than settled', () => {
    const r = replayBasis({ fills: [buy(12, '6.00')], knockedOut: 0, settled: 10 });
    expect(!r.known && r.reason).toMatch(/leave 12 contracts held, but 10 settled/);
  });
});
