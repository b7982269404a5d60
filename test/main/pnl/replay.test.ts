/**
 * The replay of a position's orders (docs/pnl.md): the basis of the contracts that settled is
 * what the lots still hold, taken oldest first as the exchange takes them.
 */
import { describe, expect, it } from 'vitest';
import {
  LOTS_METHOD,
  REALIZED_METHOD,
  replayBasis,
  type ReplayFill,
} from '../../../src/main/pnl/replay.js';

const buy = (contracts: number, cost: string, knockout?: string): ReplayFill => ({
  side: 'BUY',
  contracts,
  cost,
  ...(knockout === undefined ? {} : { knockout }),
});
const sell = (contracts: number, proceeds?: string): ReplayFill => ({
  side: 'SELL',
  contracts,
  cost: '0.05',
  ...(proceeds === undefined ? {} : { proceeds }),
});

// Issue 28's F2 and F3, as the sandbox fills them (test/main/app/realized-adds-up.test.ts).
const F2 = [buy(10, '3.42', '0.2749'), buy(10, '6.57'), sell(4, '2.13')];
const F3 = [
  buy(10, '1.77', '0.4393'),
  buy(10, '6.37'),
  buy(10, '5.40', '0.1171'),
  sell(10, '5.34'),
];
const withoutProceeds = (fills: ReplayFill[]) =>
  fills.map(({ proceeds: _, ...f }) => f as ReplayFill);

describe('replayBasis', () => {
  it('works F2 out from the cash: the basis is what the buys cost less what the rows carried away', () => {
    const r = replayBasis({
      fills: F2,
      closed: { contracts: 4, pnl: '-0.50' },
      knocked: { contracts: 10, pnl: '-3.42' },
      settled: 6,
    });
    // 9.99 − (2.13 + 0.50) − 3.42: the exchange's own costBasis.
    expect(r).toEqual({
      known: true,
      method: REALIZED_METHOD,
      boughtContracts: 20,
      boughtCost: '9.99',
      soldContracts: 14,
      soldCost: '6.05',
      costBasis: '3.94',
    });
  });

  it('works F3 out to the exchange’s basis, from the cash or from the lots and the knockout’s cost', () => {
    const rows = {
      closed: { contracts: 10, pnl: '-1.03' },
      knocked: { contracts: 10, pnl: '-1.77' },
    };
    expect(replayBasis({ fills: F3, ...rows, settled: 10 })).toMatchObject({
      known: true,
      method: REALIZED_METHOD,
      costBasis: '5.40',
    });
    // Without the proceeds, only a knockout before the sell knocks out $1.77 of lots.
    expect(replayBasis({ fills: withoutProceeds(F3), ...rows, settled: 10 })).toMatchObject({
      known: true,
      method: LOTS_METHOD,
      costBasis: '5.40',
    });
  });

  it('is unknown, saying both figures, when the rows cannot tell when a knockout came', () => {
    const r = replayBasis({
      fills: withoutProceeds(F3),
      closed: { contracts: 10, pnl: null },
      knocked: { contracts: 10, pnl: null },
      settled: 10,
    });
    expect(r).toMatchObject({ known: false });
    expect(!r.known && r.reason).toMatch(/before or after the sells.*\(5\.40 or 6\.37\)/);
  });

  it('puts F2’s knockout before its sell: the only moment that leaves 6 contracts', () => {
    const r = replayBasis({
      fills: withoutProceeds(F2),
      knocked: { contracts: 10, pnl: null },
      settled: 6,
    });
    expect(r).toMatchObject({ known: true, method: LOTS_METHOD, costBasis: '3.94' });
  });

  it('takes a partial sell from the oldest lot, pro rata, and leaves the rest as the basis', () => {
    // 6 at 3.00 (0.50 each) and 4 at 2.60 (0.65 each); a sell of 4 takes 4 of the first lot.
    const r = replayBasis({
      fills: [buy(6, '3.00'), buy(4, '2.60'), sell(4)],
      settled: 6,
    });
    expect(r).toEqual({
      known: true,
      method: LOTS_METHOD,
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
      settled: 5,
    });
    expect(r).toMatchObject({ known: true, costBasis: '4.00' }); // an average would say 3.00
  });

  it('rounds a share of a lot to the cent half-even, as GET /positions rounds costBasis', () => {
    const r = replayBasis({ fills: [buy(3, '1.00'), sell(1)], settled: 2 });
    expect(r).toMatchObject({ known: true, costBasis: '0.67', soldCost: '0.33' });
  });

  it('knocks out the boosted lots, highest knockout first, as many contracts as reported', () => {
    const fills = [buy(4, '2.00'), buy(3, '1.20', '0.3000'), buy(2, '0.90', '0.4000')];
    expect(replayBasis({ fills, knocked: { contracts: 2, pnl: null }, settled: 7 })).toEqual({
      known: true,
      method: LOTS_METHOD,
      boughtContracts: 9,
      boughtCost: '4.10',
      soldContracts: 2,
      soldCost: '0.90', // the lot with the 0.40 knockout went first
      costBasis: '3.20',
    });
    expect(replayBasis({ fills, knocked: { contracts: 5, pnl: null }, settled: 4 })).toMatchObject({
      known: true,
      costBasis: '2.00', // only the unboosted lot is left
    });
  });

  it('starts fresh lots after a position went flat and was opened again', () => {
    const r = replayBasis({
      fills: [buy(2, '1.00'), sell(2), buy(3, '2.10')],
      settled: 3,
    });
    expect(r).toMatchObject({ known: true, costBasis: '2.10', soldContracts: 2 });
  });

  it('is unknown, with the reason, when buys that built the position are missing', () => {
    expect(replayBasis({ fills: [buy(7, '3.50')], settled: 10 })).toEqual({
      known: false,
      reason:
        '3 of the 10 contracts that settled were bought by orders this store does not hold ' +
        '(older than its first sync, or not synced yet).',
    });
    expect(replayBasis({ fills: [], settled: 10 })).toEqual({
      known: false,
      reason: 'None of the orders that bought these 10 contracts are in the store.',
    });
    expect(replayBasis({ fills: [sell(2)], settled: 4 })).toMatchObject({
      known: false,
    });
  });

  it('is unknown when a sell or a knockout needs contracts no stored buy holds', () => {
    const oversold = replayBasis({ fills: [buy(2, '1.00'), sell(5)], settled: 1 });
    expect(oversold).toMatchObject({ known: false });
    expect(!oversold.known && oversold.reason).toMatch(/found only 2/);
    const knocked = replayBasis({
      fills: [buy(4, '2.00')],
      knocked: { contracts: 2, pnl: null },
      settled: 2,
    });
    expect(!knocked.known && knocked.reason).toMatch(/knocked out 2 contracts/);
  });

  it('is unknown when the stored orders leave more held than settled', () => {
    const r = replayBasis({ fills: [buy(12, '6.00')], settled: 10 });
    expect(!r.known && r.reason).toMatch(/leave 12 contracts held, but 10 settled/);
  });
});
