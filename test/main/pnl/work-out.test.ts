/**
 * Whose cost basis a SETTLEMENT's realized P&L uses (docs/pnl.md, "Whose cost basis"): the
 * exchange's, when a positions read saw exactly the contracts that settled after the last order
 * on the position, with the orders as its check; the orders' otherwise.
 */
import { describe, expect, it } from 'vitest';
import { EXCHANGE_METHOD, workOut, type WorkOutSources } from '../../../src/main/pnl/work-out.js';
import type {
  LastCostBasis,
  OutcomeRow,
  SettlementToWorkOut,
} from '../../../src/main/pnl/types.js';
import type { Order } from '../../../src/shared/api/schemas.js';
import { order } from '../store/support.js';

const T = Date.UTC(2026, 10, 1);
// Issue 28's F2: boosted 10, plain 10, the boosted knocked out, 4 sold, 6 won.
const ORDERS: Order[] = [
  order(1, {
    status: 'FILLED',
    contracts: 10,
    cost: '3.42',
    boost: 50,
    knockout: '0.2749',
    createdAt: T,
    updatedAt: T + 1000,
  }),
  order(2, {
    status: 'FILLED',
    contracts: 10,
    cost: '6.57',
    createdAt: T + 2000,
    updatedAt: T + 3000,
  }),
  order(3, {
    status: 'FILLED',
    side: 'SELL',
    contracts: 4,
    cost: '0.021',
    proceeds: '2.13',
    createdAt: T + 4000,
    updatedAt: T + 5001,
  }),
];
const ROWS: OutcomeRow[] = [
  { id: 1, type: 'KNOCKED_OUT', contracts: 10, settledAt: T + 9000, pnlMicros: -3_420_000 },
  { id: 2, type: 'CLOSED', contracts: 4, settledAt: T + 9000, pnlMicros: -500_000 },
];
const SETTLED: SettlementToWorkOut = {
  id: 3,
  accountId: 1,
  contractId: 'EPL-0',
  outcome: 'ARS',
  contracts: 6,
  payoutMicros: 6_000_000,
  settledAt: T + 9000,
  pnlSource: 'unknown',
  pnlNote: null,
};

function sources(last: LastCostBasis | undefined, rows = ROWS): WorkOutSources {
  return {
    rowsBetween: (_a, _c, _o, from, until) =>
      rows.filter((r) => r.settledAt >= from && r.settledAt <= until),
    lastBefore: () => null,
    ordersUntil: (_a, _c, _o, until) => ORDERS.filter((o) => o.createdAt <= until),
    lastCostBasis: () => last,
  };
}

describe('workOut', () => {
  it('uses the exchange’s costBasis read after the last fill, though the order is stamped later', () => {
    // The position's updatedAt is the sell's fill (T + 5000); the order's own is a ms later.
    const read = { contracts: 6, costBasis: '3.94', updatedAt: T + 5000, seenAt: T + 6000 };
    const { figure, working } = workOut(sources(read), SETTLED);
    expect(figure).toEqual({
      realizedMicros: 2_060_000,
      basisMicros: 3_940_000,
      pnlSource: 'exchange',
      pnlNote: null,
    });
    expect(working).toMatchObject({
      method: EXCHANGE_METHOD,
      basisSource: 'exchange',
      ordersCostBasis: '3.94',
      difference: '0.00',
    });
  });

  it('uses the orders when the read was before the last order, or held other contracts', () => {
    const before = { contracts: 6, costBasis: '9.99', updatedAt: T + 3000, seenAt: T + 3500 };
    expect(workOut(sources(before), SETTLED).figure).toMatchObject({
      pnlSource: 'orders',
      basisMicros: 3_940_000,
    });
    const other = { contracts: 10, costBasis: '6.57', updatedAt: T + 5000, seenAt: T + 6000 };
    expect(workOut(sources(other), SETTLED).figure).toMatchObject({
      pnlSource: 'orders',
      realizedMicros: 2_060_000,
    });
  });

  it('counts the position’s rows stamped after its SETTLEMENT (a ms later, or late on chain)', () => {
    const later = ROWS.map((r) => ({ ...r, settledAt: SETTLED.settledAt + 1 }));
    const { figure, working } = workOut(sources(undefined, later), SETTLED);
    expect(figure).toMatchObject({
      pnlSource: 'orders',
      basisMicros: 3_940_000,
      realizedMicros: 2_060_000,
    });
    expect(working).toMatchObject({ soldContracts: 14, ordersUnknown: null });
  });

  it('keeps the exchange’s figure and says so when the orders disagree beyond a cent', () => {
    const read = { contracts: 6, costBasis: '4.10', updatedAt: T + 5000, seenAt: T + 6000 };
    const { figure } = workOut(sources(read), SETTLED);
    expect(figure).toMatchObject({ pnlSource: 'exchange', basisMicros: 4_100_000 });
    expect(figure.pnlNote).toBe(
      "Your orders give a cost basis of 3.94; the exchange reported 4.10 (a difference of -0.16). The figure uses the exchange's.",
    );
  });
});
