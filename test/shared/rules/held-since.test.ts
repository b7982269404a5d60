/** Issue 27 item 12: a chart and a row speak of the position open now, not an earlier one. */
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src/shared/api/schemas.js';
import { heldSince } from '../../../src/shared/rules/held-since.js';

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
    entryPrice: '0.5000',
    cost: '1.00',
    maxWin: '2.00',
    deadline: 0,
    tx: '0x',
    type: 'MARKET',
    unit: 'BASE',
    qty: String(contracts),
    boost: 0,
    createdAt,
    updatedAt: createdAt,
    ...over,
  } as Order;
}

const plain = { knockout: null };

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
