import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, dec, price, usdFloor } from '../../../src/shared/money.js';
import {
  closeReturn,
  closeTerms,
  complementPrice,
  contractsForBudget,
  contractsForBudgetExact,
  fillPrice,
  fillPriceExact,
  moreLotsThan,
  openCost,
  openCostExact,
  openTerms,
  openTermsAt,
  openTermsExact,
  roundDownToLot,
  roundDownToLotExact,
  roundToNearestLot,
  roundToNearestLotExact,
} from '../../../src/exchange/domain/pricing.js';

/** Index prices as the sandbox seeds them: 4 places in [0.05, 0.95]. */
const indexPrice = fc
  .integer({ min: 500, max: 9500 })
  .map((n) => dec(n).dividedBy(10_000).toFixed(4));
const contracts = fc.integer({ min: 1, max: 200_000 });
const boost = fc.integer({ min: 0, max: 100 });
const lotSize = fc.constantFrom(1, 5, 10);
const budget = fc
  .integer({ min: 1, max: 5_000_000 })
  .map((cents) => dec(cents).dividedBy(100).toFixed(2));

describe('pricing model', () => {
  it('fills a BUY at or above the index and a SELL at or below it, inside (0.01, 0.99)', () => {
    fc.assert(
      fc.property(indexPrice, contracts, (index, n) => {
        const buy = dec(fillPrice('BUY', index, n));
        const sell = dec(fillPrice('SELL', index, n));
        expect(buy.gte(index)).toBe(true);
        expect(sell.lte(index)).toBe(true);
        for (const p of [buy, sell]) {
          expect(p.gt('0.01') && p.lt('0.99')).toBe(true);
        }
      }),
    );
  });

  it('computes the same fill price on its fast path as by the decimal definition', () => {
    const anyIndex = fc
      .integer({ min: 1, max: 9999 })
      .map((n) => dec(n).dividedBy(10_000).toString());
    fc.assert(
      fc.property(
        anyIndex,
        fc.integer({ min: 0, max: 50_000_000 }),
        fc.constantFrom('BUY', 'SELL'),
        (index, n, side) => {
          expect(fillPrice(side, index, n)).toBe(fillPriceExact(side, index, n));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("never moves a price in the bettor's favour as size grows", () => {
    fc.assert(
      fc.property(indexPrice, contracts, contracts, (index, a, b) => {
        const [small, large] = a <= b ? [a, b] : [b, a];
        expect(dec(fillPrice('BUY', index, large)).gte(fillPrice('BUY', index, small))).toBe(true);
        expect(dec(fillPrice('SELL', index, large)).lte(fillPrice('SELL', index, small))).toBe(
          true,
        );
      }),
    );
  });

  it('keeps exitValue below cost for every open', () => {
    fc.assert(
      fc.property(indexPrice, contracts, boost, (index, n, b) => {
        const t = openTerms(index, n, b);
        expect(dec(t.exitValue).lt(t.cost)).toBe(true);
        expect(dec(t.exitValue).gte(0)).toBe(true);
      }),
    );
  });

  it('gives a knockout exactly when the boost is above 0, equal to entry price minus collateral', () => {
    fc.assert(
      fc.property(indexPrice, contracts, boost, (index, n, b) => {
        const t = openTerms(index, n, b);
        expect(t.knockout !== undefined).toBe(b > 0);
        if (t.knockout !== undefined) {
          const exact = dec(t.entryPrice).minus(t.collateralPerContract);
          // Rounded up to 4 places: at most one tick above the exact level.
          expect(dec(t.knockout).gte(exact)).toBe(true);
          expect(dec(t.knockout).minus(exact).lt('0.0001')).toBe(true);
        }
      }),
    );
  });

  it('applies the boost formulas: collateral, cost and maxWin', () => {
    fc.assert(
      fc.property(indexPrice, contracts, boost, (index, n, b) => {
        const t = openTerms(index, n, b);
        const c = dec(t.entryPrice).times(dec(1).minus(dec('0.009').times(b)));
        expect(dec(t.collateralPerContract).eq(c)).toBe(true);
        const exactCost = c.times(n).plus(dec(t.entryPrice).times(n).times('0.01'));
        expect(dec(t.cost).gte(exactCost)).toBe(true);
        expect(dec(t.cost).minus(exactCost).lt('0.01')).toBe(true);
        const exactMaxWin = dec(1).minus(t.entryPrice).plus(c).times(n);
        expect(dec(t.maxWin).lte(exactMaxWin)).toBe(true);
        expect(exactMaxWin.minus(t.maxWin).lt('0.01')).toBe(true);
      }),
    );
  });

  it('keeps a dollar-sized open within its budget and buys the most whole lots that fit', () => {
    fc.assert(
      fc.property(indexPrice, budget, boost, lotSize, (index, qty, b, lot) => {
        const n = contractsForBudget(index, qty, b, lot, 10_000_000);
        expect(n % lot).toBe(0);
        if (n > 0)
          expect(openTerms(index, n, b).cost).toSatisfy((cost: string) => dec(cost).lte(qty));
        expect(openCost(index, n + lot, b).gt(qty)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never looks past the contract limit it is given', () => {
    fc.assert(
      fc.property(
        indexPrice,
        budget,
        lotSize,
        fc.integer({ min: 0, max: 500 }),
        (index, qty, lot, max) => {
          expect(contractsForBudget(index, qty, 0, lot, max)).toBeLessThanOrEqual(max);
        },
      ),
    );
  });

  it('rounds a contract-sized open to the nearest lot and a close down to a lot', () => {
    const qty = fc.integer({ min: 1, max: 1_000_000 }).map((n) => dec(n).dividedBy(100).toString());
    fc.assert(
      fc.property(qty, lotSize, (q, lot) => {
        const nearest = roundToNearestLot(q, lot);
        const down = roundDownToLot(q, lot);
        expect(nearest % lot).toBe(0);
        expect(down % lot).toBe(0);
        expect(dec(q).minus(nearest).abs().lte(dec(lot).dividedBy(2))).toBe(true);
        expect(dec(down).lte(q)).toBe(true);
        expect(dec(q).minus(down).lt(lot)).toBe(true);
      }),
    );
    expect(roundToNearestLot('12.5', 5)).toBe(15);
    expect(roundToNearestLot('12.4', 5)).toBe(10);
    expect(roundDownToLot('14.9', 5)).toBe(10);
    expect(roundToNearestLot('2.5', 1)).toBe(3);
    expect(roundDownToLot('2.99', 1)).toBe(2);
  });

  it('pays a close of an unboosted lot its sale minus the fee, and nothing below zero', () => {
    const t = closeTerms('0.5000', [{ contracts: 100, loanPerContract: '0' }]);
    // 100 × (0.5 − 0.01 − impact(100)) rounded down, fee 1 %.
    expect(t.price).toBe('0.4895');
    // The fee exactly as deducted (100 × 0.4895 × 1 %), not rounded up to 0.49.
    expect(t.fee).toBe('0.4895');
    expect(t.proceeds).toBe('48.46');
    const deep = closeTerms('0.1000', [{ contracts: 10, loanPerContract: '0.5' }]);
    expect(deep.proceeds).toBe('0.00');
    // Nothing came back, so no fee was taken from it.
    expect(deep.fee).toBe('0');
  });

  it('shows a close its fee exactly as deducted: fee + proceeds is what the lots returned', () => {
    fc.assert(
      fc.property(
        indexPrice,
        fc.array(fc.record({ contracts: fc.integer({ min: 1, max: 5_000 }), boost }), {
          minLength: 1,
          maxLength: 4,
        }),
        (index, lots) => {
          const slices = lots.map((l) => ({
            contracts: l.contracts,
            loanPerContract: openTerms(index, l.contracts, l.boost).loanPerContract,
          }));
          const t = closeTerms(index, slices);
          const gross = closeReturn(t.price, slices);
          const fee = dec(t.price).times(t.contracts).times('0.01');
          expect(dec(t.fee).eq(Dec.min(fee, gross))).toBe(true);
          expect(dec(t.fee).decimalPlaces()).toBeLessThanOrEqual(gross.gte(fee) ? 6 : 7);
          expect(t.proceeds).toBe(usdFloor(gross.minus(t.fee)));
        },
      ),
      { seed: 42, numRuns: 500 },
    );
  });
});

/** Any price the exchange can hold: 1 to 4 places, written with or without trailing zeros. */
const anyPrice = fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.boolean()).map(([n, padded]) => {
  const d = dec(n).dividedBy(10_000);
  return padded ? d.toFixed(4) : d.toString();
});
/** Sizes across the whole fast path (up to 10^8) and just beyond it, small ones weighted up. */
const anySize = fc.oneof(
  fc.integer({ min: 0, max: 2_000 }),
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.integer({ min: 99_999_000, max: 100_001_000 }),
);
/** Quantities as clients send them: whole numbers (the fast path) or with decimals. */
const anyQty = fc.oneof(
  fc.integer({ min: 0, max: 10_000_000 }).map(String),
  fc.constantFrom('999999999999999', '1000000000000000', '5000000000'),
  fc.integer({ min: 0, max: 100_000_000 }).map((n) => dec(n).dividedBy(1000).toString()),
);

describe('pricing fast paths (whole ticks and cents) against the decimal definitions', () => {
  it('opens on exactly the decimal terms', () => {
    fc.assert(
      fc.property(anyPrice, anyPrice, anySize, boost, (entry, index, n, b) => {
        expect(openTermsAt(entry, index, n, b)).toStrictEqual(openTermsExact(entry, index, n, b));
      }),
      { numRuns: 5000 },
    );
  });

  it('costs an open exactly as the decimal definition', () => {
    fc.assert(
      fc.property(anyPrice, anySize, boost, (index, n, b) => {
        expect(openCost(index, n, b).toFixed()).toBe(openCostExact(index, n, b).toFixed());
      }),
      { numRuns: 3000 },
    );
  });

  it('buys, for any budget, the most whole lots whose decimal cost fits', () => {
    const anyBudget = fc
      .integer({ min: 1, max: 500_000_000 })
      .map((n) => dec(n).dividedBy(1000).toString());
    fc.assert(
      fc.property(indexPrice, anyBudget, boost, lotSize, (index, qty, b, lot) => {
        const max = 10_000_000;
        const n = contractsForBudget(index, qty, b, lot, max);
        if (n > 0) expect(openCostExact(index, n, b).lte(qty)).toBe(true);
        if (n + lot <= max) expect(openCostExact(index, n + lot, b).gt(qty)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('sizes a dollar-sized open exactly as the decimal definition', () => {
    const anyBudget = fc.oneof(
      fc.integer({ min: 0, max: 5_000_000 }).map((n) => dec(n).dividedBy(100).toString()),
      fc.integer({ min: 1, max: 10 ** 9 }).map((n) => dec(n).dividedBy(10_000).toString()),
      fc.constantFrom('1e-9', '900000000000', '0.009'),
    );
    fc.assert(
      fc.property(
        anyPrice,
        anyBudget,
        boost,
        fc.constantFrom(1, 5, 10, 100),
        fc.integer({ min: 0, max: 2_000_000 }),
        (index, qty, b, lot, max) => {
          expect(contractsForBudget(index, qty, b, lot, max)).toBe(
            contractsForBudgetExact(index, qty, b, lot, max),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('rounds quantities to lots exactly as the decimal definition', () => {
    fc.assert(
      fc.property(anyQty, fc.constantFrom(1, 2, 5, 10, 1000), (q, lot) => {
        expect(roundToNearestLot(q, lot)).toBe(roundToNearestLotExact(q, lot));
        expect(roundDownToLot(q, lot)).toBe(roundDownToLotExact(q, lot));
        expect(moreLotsThan(q, lot, 1_000_000)).toBe(dec(q).dividedBy(lot).gt(1_000_000));
      }),
      { numRuns: 3000 },
    );
  });

  it('prices the away side at 1 minus the home price, to four places', () => {
    fc.assert(
      fc.property(anyPrice, (home) => {
        expect(complementPrice(home)).toBe(price(dec(1).minus(home)));
      }),
    );
  });
});
