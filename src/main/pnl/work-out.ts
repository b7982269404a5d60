/**
 * A SETTLEMENT row's realized P&L from what the store holds (docs/pnl.md): which of the
 * account's orders and settlement rows belong to the position it settled, the replay of those
 * orders (replay.ts), payout − basis, and the check against the exchange's last costBasis.
 *
 * The exchange writes a position's CLOSED and KNOCKED_OUT rows only when it ends, together with
 * its SETTLEMENT row, and one position per outcome is open at a time. So the rows settled at or
 * after the position's last BUY are its own (its sells, its knockouts); a row before that ended
 * an earlier position on the same outcome, and only the orders after it built this one.
 */
import type { Order } from '../../shared/api/schemas.js';
import { toMicros } from '../../shared/money.js';
import type { LastCostBasis, OutcomeRow, RealizedFigure, SettlementToWorkOut } from './types.js';
import { moneyText } from './amounts.js';
import { replayBasis, type ExitRows, type KnownBasis } from './replay.js';

/** A disagreement with the exchange's last costBasis beyond this is kept and shown: a cent. */
export const TOLERANCE_MICROS = 10_000;

/** What the work-out reads. */
export interface WorkOutSources {
  /** The settlement rows on the outcome settled from `fromMs` to `untilMs`, both included. */
  rowsBetween(
    accountId: number,
    contractId: string,
    outcome: string,
    fromMs: number,
    untilMs: number,
  ): OutcomeRow[];
  /** When the last row on the outcome before `beforeMs` settled; null when none. */
  lastBefore(
    accountId: number,
    contractId: string,
    outcome: string,
    beforeMs: number,
  ): number | null;
  /** The account's orders on the outcome created at or before `untilMs`, oldest first. */
  ordersUntil(accountId: number, contractId: string, outcome: string, untilMs: number): Order[];
  lastCostBasis(accountId: number, contractId: string, outcome: string): LastCostBasis | undefined;
}

/** How a known figure was reached: the bridge's RealizedWorking. */
export interface Working {
  method: string;
  /** Whose cost basis the figure uses. */
  basisSource: 'exchange' | 'orders';
  /** The orders' arithmetic; null (all four) when the orders cannot give the basis. */
  boughtContracts: number | null;
  boughtCost: string | null;
  soldContracts: number | null;
  soldCost: string | null;
  ordersCostBasis: string | null;
  /** Why the orders cannot give it; null when they do. */
  ordersUnknown: string | null;
  settledContracts: number;
  /** The basis the figure uses. */
  costBasis: string;
  payout: string;
  realizedPnl: string;
  exchangeCostBasis: string | null;
  exchangeCostBasisAt: number | null;
  /** ordersCostBasis − exchangeCostBasis, when both are known. */
  difference: string | null;
}

export interface WorkedOut {
  figure: RealizedFigure;
  /** Null when the figure is unknown. */
  working: Working | null;
}

/** Said when the exchange's cost basis is the figure (RealizedWorking.method). */
export const EXCHANGE_METHOD =
  'The payout less the cost basis GET /positions reported for exactly the contracts that ' +
  'settled, read after the position’s last trade; the orders are the check.';

/** The realized P&L of one SETTLEMENT row. */
export function workOut(src: WorkOutSources, row: SettlementToWorkOut): WorkedOut {
  const { accountId, contractId, outcome, settledAt } = row;
  if (row.payoutMicros === null) {
    return unknown('The exchange reported no payout for this settlement.');
  }
  const orders = src
    .ordersUntil(accountId, contractId, outcome, settledAt)
    .filter((o) => o.status === 'FILLED');
  const lastBuy = orders.reduce((t, o) => (o.side === 'BUY' ? Math.max(t, o.createdAt) : t), -1);
  if (lastBuy < 0) {
    return unknown(
      `None of the orders that bought these ${row.contracts} contract${row.contracts === 1 ? '' : 's'} are in the store.`,
    );
  }
  // The latest row before this position's last buy ended an earlier position.
  const since = src.lastBefore(accountId, contractId, outcome, lastBuy) ?? -1;
  // To the end, not to settledAt: nothing trades on an outcome after its result, so a row
  // stamped after the SETTLEMENT (by a millisecond, or on chain later) is still this position's.
  const own = src
    .rowsBetween(accountId, contractId, outcome, lastBuy, Number.MAX_SAFE_INTEGER)
    .filter((r) => r.id !== row.id);
  const mine = orders.filter((o) => o.createdAt > since);
  const result = replayBasis({
    fills: mine.map((o) => ({
      side: o.side,
      contracts: o.contracts,
      cost: o.cost,
      ...(o.knockout === undefined ? {} : { knockout: o.knockout }),
      ...(o.proceeds === undefined ? {} : { proceeds: o.proceeds }),
    })),
    closed: exitRows(own, 'CLOSED'),
    knocked: exitRows(own, 'KNOCKED_OUT'),
    settled: row.contracts,
  });
  // The position's updatedAt is the time of its last fill; an order accepted after it cannot be
  // in the lots read. (Not the order's updatedAt: the exchange stamps it a moment after.)
  const lastPlaced = mine.reduce((t, o) => Math.max(t, o.createdAt), since);
  const last = src.lastCostBasis(accountId, contractId, outcome);
  // The exchange's: read during this position's life, after its last trade, holding what settled.
  const seen =
    last !== undefined &&
    last.contracts === row.contracts &&
    last.updatedAt > since &&
    last.updatedAt >= lastPlaced &&
    last.updatedAt <= settledAt
      ? last
      : undefined;
  if (!result.known && seen === undefined) return unknown(result.reason);

  const ordersBasis = result.known ? result.costBasis : null;
  const costBasis = seen?.costBasis ?? ordersBasis!;
  const basisMicros = toMicros(costBasis);
  const realizedMicros = row.payoutMicros - basisMicros;
  const differenceMicros =
    seen === undefined || ordersBasis === null
      ? null
      : toMicros(ordersBasis) - toMicros(seen.costBasis);
  const disagrees = differenceMicros !== null && Math.abs(differenceMicros) > TOLERANCE_MICROS;
  return {
    figure: {
      realizedMicros,
      basisMicros,
      pnlSource: seen === undefined ? 'orders' : 'exchange',
      pnlNote: disagrees ? disagreementNote(ordersBasis!, costBasis, differenceMicros) : null,
    },
    working: {
      method: seen === undefined ? (result as KnownBasis).method : EXCHANGE_METHOD,
      basisSource: seen === undefined ? 'orders' : 'exchange',
      boughtContracts: result.known ? result.boughtContracts : null,
      boughtCost: result.known ? result.boughtCost : null,
      soldContracts: result.known ? result.soldContracts : null,
      soldCost: result.known ? result.soldCost : null,
      ordersCostBasis: ordersBasis,
      ordersUnknown: result.known ? null : result.reason,
      settledContracts: row.contracts,
      costBasis: moneyText(basisMicros),
      payout: moneyText(row.payoutMicros),
      realizedPnl: moneyText(realizedMicros),
      exchangeCostBasis: seen?.costBasis ?? null,
      exchangeCostBasisAt: seen?.seenAt ?? null,
      difference: differenceMicros === null ? null : moneyText(differenceMicros),
    },
  };
}

/** The position's rows of one type, summed; undefined when it has none. */
function exitRows(rows: readonly OutcomeRow[], type: OutcomeRow['type']): ExitRows | undefined {
  const of = rows.filter((r) => r.type === type);
  if (of.length === 0) return undefined;
  const pnl = of.some((r) => r.pnlMicros === null)
    ? null
    : moneyText(of.reduce((sum, r) => sum + r.pnlMicros!, 0));
  return { contracts: of.reduce((n, r) => n + r.contracts, 0), pnl };
}

function unknown(reason: string): WorkedOut {
  return {
    figure: { realizedMicros: null, basisMicros: null, pnlSource: 'unknown', pnlNote: reason },
    working: null,
  };
}

function disagreementNote(orders: string, exchange: string, differenceMicros: number): string {
  return (
    `Your orders give a cost basis of ${orders}; the exchange reported ${exchange} ` +
    `(a difference of ${moneyText(differenceMicros)}). The figure uses the exchange's.`
  );
}
