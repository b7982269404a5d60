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
import { REALIZED_METHOD, replayBasis, type KnownBasis } from './replay.js';

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
  boughtContracts: number;
  boughtCost: string;
  soldContracts: number;
  soldCost: string;
  settledContracts: number;
  costBasis: string;
  payout: string;
  realizedPnl: string;
  exchangeCostBasis: string | null;
  exchangeCostBasisAt: number | null;
  difference: string | null;
}

export interface WorkedOut {
  figure: RealizedFigure;
  /** Null when the figure is unknown. */
  working: Working | null;
}

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
  const own = src
    .rowsBetween(accountId, contractId, outcome, lastBuy, settledAt)
    .filter((r) => r.id !== row.id);
  const result = replayBasis({
    fills: orders
      .filter((o) => o.createdAt > since)
      .map((o) => ({
        side: o.side,
        contracts: o.contracts,
        cost: o.cost,
        ...(o.knockout === undefined ? {} : { knockout: o.knockout }),
      })),
    knockedOut: own.reduce((n, r) => (r.type === 'KNOCKED_OUT' ? n + r.contracts : n), 0),
    settled: row.contracts,
  });
  if (!result.known) return unknown(result.reason);

  const basisMicros = toMicros(result.costBasis);
  const realizedMicros = row.payoutMicros - basisMicros;
  const last = src.lastCostBasis(accountId, contractId, outcome);
  // Comparable only when it was read during this position's life, holding what settled.
  const seen =
    last !== undefined &&
    last.contracts === row.contracts &&
    last.updatedAt > since &&
    last.updatedAt <= settledAt
      ? last
      : undefined;
  const differenceMicros = seen === undefined ? null : basisMicros - toMicros(seen.costBasis);
  const disagrees = differenceMicros !== null && Math.abs(differenceMicros) > TOLERANCE_MICROS;
  return {
    figure: {
      realizedMicros,
      basisMicros,
      pnlSource: 'orders',
      pnlNote:
        disagrees && seen !== undefined
          ? disagreementNote(result.costBasis, seen.costBasis, differenceMicros)
          : null,
    },
    working: working(result, row, realizedMicros, seen, differenceMicros),
  };
}

function unknown(reason: string): WorkedOut {
  return {
    figure: { realizedMicros: null, basisMicros: null, pnlSource: 'unknown', pnlNote: reason },
    working: null,
  };
}

function working(
  r: KnownBasis,
  row: SettlementToWorkOut,
  realizedMicros: number,
  seen: LastCostBasis | undefined,
  differenceMicros: number | null,
): Working {
  return {
    method: REALIZED_METHOD,
    boughtContracts: r.boughtContracts,
    boughtCost: r.boughtCost,
    soldContracts: r.soldContracts,
    soldCost: r.soldCost,
    settledContracts: row.contracts,
    costBasis: r.costBasis,
    payout: moneyText(row.payoutMicros ?? 0),
    realizedPnl: moneyText(realizedMicros),
    exchangeCostBasis: seen?.costBasis ?? null,
    exchangeCostBasisAt: seen?.seenAt ?? null,
    difference: differenceMicros === null ? null : moneyText(differenceMicros),
  };
}

function disagreementNote(basis: string, exchange: string, differenceMicros: number): string {
  return (
    `Your orders give a cost basis of ${basis}; the exchange last reported ${exchange} ` +
    `(a difference of ${moneyText(differenceMicros)}). The figure uses your orders.`
  );
}
