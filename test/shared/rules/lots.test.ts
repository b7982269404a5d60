/** The lots of a position rebuilt from its stored orders, as the exchange keeps them. */
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src/shared/api/schemas.js';
import { heldLots, lotOf, lotsMatch, replayLots } from '../../../src/shared/rules/lots.js';

let n = 0;
function fill(
  side: 'BUY' | 'SELL',
  contracts: number,
  createdAt: number,
  over: Partial<Order> = {},
): Order {
  n++;
  return {
    clientOrderId: `c${n}`,
    orderId: `o${n}`,
    contractId: 'EPL-1',
    outcome: 'ARS',
    side,
    status: 'FILLED',
    contracts,
    entryPrice: '0.6101',
    cost: '1.85',
    maxWin: '3.00',
    deadline: 0,
    tx: '0x',
    orderType: 'MARKET',
    marketUnit: 'BASE',
    qty: String(contracts),
    boost: 0,
    createdAt,
    updatedAt: createdAt,
    ...over,
  };
}

const plain = { knockout: null };

describe('the lots a position holds', () => {
  it('keeps each buy as a lot at its cost, oldest first, and a sale takes the oldest', () => {
    const fills = [
      fill('SELL', 3, 30, { cost: '0.022197', proceeds: '2.19' }),
      fill('BUY', 3, 10),
      fill('BUY', 3, 20, { entryPrice: '0.7101', cost: '2.16' }),
    ];
    expect(replayLots(fills, plain).lots).toEqual([
      { contracts: 3, cost: '2.16', loanPerContract: '0', knockout: null },
    ]);
  });

  it('shrinks a lot partly sold pro rata, exactly as the exchange keeps it', () => {
    const { lots } = replayLots([fill('BUY', 3, 10), fill('SELL', 1, 20)], plain);
    // 1.85 − 1.85 × 1/3: the exchange's cost is the same decimal, to 40 digits.
    expect(lots).toHaveLength(1);
    expect(lots[0]!.contracts).toBe(2);
    expect(lots[0]!.cost).toMatch(/^1\.2333333333333333333333333333333333333333?3?$/);
    expect(lotsMatch(lots, { contracts: 2, costBasis: '1.23' })).toBe(true);
  });

  it('works out a boosted lot’s loan from its entry price and boost (GET /docs)', () => {
    const boosted = fill('BUY', 10, 10, {
      entryPrice: '0.6107',
      boost: 50,
      cost: '3.42',
      knockout: '0.2749',
    });
    // c = 0.6107 × (1 − 0.009 × 50) = 0.335885; lent 0.274815, the knockout 0.2749 rounded up.
    expect(lotOf(boosted)).toEqual({
      contracts: 10,
      cost: '3.42',
      loanPerContract: '0.274815',
      knockout: '0.2749',
    });
  });

  it('leaves out the boosted lots knocked out by now, and starts anew when every lot was', () => {
    const boosted = { boost: 50, entryPrice: '0.6107', cost: '3.42', knockout: '0.2749' };
    const fills = [fill('BUY', 10, 10, boosted), fill('BUY', 3, 20), fill('SELL', 1, 30)];
    // Unboosted now: the boosted 10 were knocked out, at the latest by the buy at 20 (the
    // position began anew there), so the sale took one of the 3.
    expect(replayLots(fills, plain)).toMatchObject({ since: 20 });
    expect(replayLots(fills, plain).lots.map((l) => l.contracts)).toEqual([2]);
    // Still boosted at 0.2749: nothing was knocked out, and the sale took the oldest.
    expect(replayLots(fills, { knockout: '0.2749' }).lots.map((l) => l.contracts)).toEqual([9, 3]);
  });

  it('adds up only when the contracts, and the cost basis when given, are the exchange’s', () => {
    const { lots } = replayLots([fill('BUY', 3, 10), fill('BUY', 3, 20, { cost: '2.16' })], plain);
    expect(lotsMatch(lots, { contracts: 6, costBasis: '4.01' })).toBe(true);
    expect(lotsMatch(lots, { contracts: 6 })).toBe(true);
    expect(lotsMatch(lots, { contracts: 9, costBasis: '4.01' })).toBe(false);
    expect(lotsMatch(lots, { contracts: 6, costBasis: '4.02' })).toBe(false);
  });
});

describe('the lots held now, read so they are the position the exchange reports', () => {
  const boosted = { boost: 50, entryPrice: '0.6107', cost: '3.42', knockout: '0.2749' };
  const counts = (lots: { contracts: number }[] | null) => lots?.map((l) => l.contracts) ?? null;

  it('a boosted lot sold, not knocked out, leaves the plain lot bought after it', () => {
    const fills = [fill('BUY', 10, 10, boosted), fill('BUY', 10, 20), fill('SELL', 15, 30)];
    // Unboosted now: the boosted lot is not held, but the sale took it.
    expect(counts(heldLots(fills, { knockout: null, contracts: 5 }))).toEqual([5]);
  });

  it('a boosted lot knocked out before the sale leaves the sale to the plain lot', () => {
    // F2: boosted 10, plain 10, the boosted knocked out, 4 sold: 6 plain held.
    const fills = [fill('BUY', 10, 10, boosted), fill('BUY', 10, 20), fill('SELL', 4, 30)];
    expect(counts(heldLots(fills, { knockout: null, contracts: 6 }))).toEqual([6]);
  });

  it('tries each moment the knockout could have come, when only one gives the position', () => {
    // Plain 4, boosted 10, plain 10, the boosted knocked out, 8 sold: the sale took the first 4
    // and 4 of the last lot, whose 6 left cost 5.05 × 6/10 = 3.03.
    const fills = [
      fill('BUY', 4, 10, { cost: '2.02' }),
      fill('BUY', 10, 20, boosted),
      fill('BUY', 10, 30, { cost: '5.05' }),
      fill('SELL', 8, 40),
    ];
    const lots = heldLots(fills, { knockout: null, contracts: 6, costBasis: '3.03' });
    expect(lots).toEqual([{ contracts: 6, cost: '3.03', loanPerContract: '0', knockout: null }]);
  });

  it('is null when no reading gives the position: its orders are not all stored', () => {
    const fills = [fill('BUY', 3, 10), fill('BUY', 3, 20, { cost: '2.16' })];
    expect(heldLots(fills, { knockout: null, contracts: 9 })).toBeNull();
    expect(heldLots(fills, { knockout: null, contracts: 6, costBasis: '4.50' })).toBeNull();
  });
});

/** Issue 27 item 12: a chart and a row speak of the position open now, not an earlier one. */
const heldSince = (fills: Order[], position: { knockout: string | null }) =>
  replayLots(fills, position).since;

describe('when the position open now began', () => {
  it('is its first buy when nothing came before', () => {
    expect(heldSince([fill('BUY', 5, 10), fill('BUY', 5, 20), fill('SELL', 3, 30)], plain)).toBe(
      10,
    );
  });

  it('starts again after the outcome was sold to nothing', () => {
    const fills = [
      fill('BUY', 5, 10),
      fill('SELL', 5, 20),
      fill('BUY', 3, 30),
      fill('SELL', 1, 40),
    ];
    expect(heldSince(fills, plain)).toBe(30);
  });

  it('keeps a partly sold position whole', () => {
    const fills = [fill('BUY', 5, 10), fill('SELL', 4, 20), fill('BUY', 3, 30)];
    expect(heldSince(fills, plain)).toBe(10);
  });

  it('starts again after a knockout took every boosted contract held', () => {
    const boosted = { boost: 50, knockout: '0.4000' };
    const fills = [fill('BUY', 5, 10, boosted), fill('BUY', 5, 30)];
    // Unboosted now: the boosted 5 were knocked out before the buy at 30.
    expect(heldSince(fills, plain)).toBe(30);
    // Still boosted at 0.4000: the first lot is held, the position began at 10.
    expect(heldSince(fills, { knockout: '0.4000' })).toBe(10);
  });

  it('ignores what did not fill, and is null without a stored buy', () => {
    expect(heldSince([fill('BUY', 5, 10, { status: 'FAILED' })], plain)).toBeNull();
    expect(heldSince([], plain)).toBeNull();
    expect(heldSince([fill('BUY', 5, 10, { status: 'FAILED' }), fill('BUY', 2, 20)], plain)).toBe(
      20,
    );
  });
});
