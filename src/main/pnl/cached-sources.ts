/**
 * The work-out's sources (work-out.ts) read once per outcome for a batch of SETTLEMENT rows:
 * the backfill (backfill.ts) works out hundreds of rows a turn, a dozen or so on each outcome,
 * and asking the store four questions per row cost most of its time. Here each outcome's
 * orders, settlement rows and last costBasis are read on first use, in one ordered query each,
 * and every later question about the outcome is answered from them in JS.
 *
 * Only for the length of one transaction: the answers hold while nothing but the derived
 * columns is written, which is all the backfill writes.
 */
import type { Order } from '../../shared/api/schemas.js';
import type { LastCostBasis, OutcomeRow } from './types.js';
import type { WorkOutSources } from './work-out.js';

/** Later than any stored time, and an exact integer when bound. */
const END_OF_TIME = Number.MAX_SAFE_INTEGER;

interface Outcome {
  orders: Order[];
  /** Oldest first. */
  rows: OutcomeRow[];
  lastCostBasis: LastCostBasis | undefined;
}

export function cachedSources(src: WorkOutSources): WorkOutSources {
  const outcomes = new Map<string, Outcome>();
  const outcomeOf = (accountId: number, contractId: string, outcome: string): Outcome => {
    const key = `${accountId}\u0000${contractId}\u0000${outcome}`;
    let o = outcomes.get(key);
    if (o === undefined) {
      o = {
        orders: src.ordersUntil(accountId, contractId, outcome, END_OF_TIME),
        rows: src
          .rowsBetween(accountId, contractId, outcome, 0, END_OF_TIME)
          .sort((a, b) => a.settledAt - b.settledAt || a.id - b.id),
        lastCostBasis: src.lastCostBasis(accountId, contractId, outcome),
      };
      outcomes.set(key, o);
    }
    return o;
  };
  return {
    rowsBetween: (accountId, contractId, outcome, fromMs, untilMs) =>
      outcomeOf(accountId, contractId, outcome).rows.filter(
        (r) => r.settledAt >= fromMs && r.settledAt <= untilMs,
      ),
    lastBefore: (accountId, contractId, outcome, beforeMs) => {
      let last: number | null = null;
      for (const r of outcomeOf(accountId, contractId, outcome).rows) {
        if (r.settledAt >= beforeMs) break;
        last = r.settledAt;
      }
      return last;
    },
    ordersUntil: (accountId, contractId, outcome, untilMs) =>
      outcomeOf(accountId, contractId, outcome).orders.filter((o) => o.createdAt <= untilMs),
    lastCostBasis: (accountId, contractId, outcome) =>
      outcomeOf(accountId, contractId, outcome).lastCostBasis,
  };
}
