/**
 * The cost basis of the contracts a position still held when it settled, rebuilt from the
 * account's FILLED orders the way the exchange keeps lots (docs/pnl.md; the sandbox's
 * src/exchange/domain/execution.ts and positions.ts):
 *
 * - a BUY fill adds a lot of its contracts at its `cost` (what was debited, fees included);
 * - a SELL takes contracts from the oldest lots first, pro rata to the contracts inside a lot
 *   (its `cost` is the sell's fee, which the CLOSED row's P&L carries, not the basis);
 * - a knockout removes the boosted lots it reached, highest knockout first, as many contracts
 *   as the position's KNOCKED_OUT row says (the rows do not say when, so after the orders);
 * - what the lots still cost is the basis, rounded to the cent half-even as GET /positions
 *   rounds its costBasis.
 *
 * Oldest first rather than an average cost: only the exchange's own order makes the CLOSED
 * row's P&L plus the SETTLEMENT's realized P&L come to the whole bet.
 *
 * Pure: no store, no clock. Amounts are decimal.js values inside, strings at the edges.
 */
import { dec, usd, type Dec } from '../../shared/money.js';

/** How the basis is worked out, in words: RealizedWorking.method and docs/pnl.md. */
export const REALIZED_METHOD =
  'Oldest contracts first, as the exchange closes them: each buy adds a lot at its cost ' +
  '(fees included); a sell takes contracts from the oldest lots, pro rata within a lot; a ' +
  'knockout takes the boosted lots, highest knockout first. The basis is what the lots still ' +
  'held cost at the result.';

/** A FILLED order on the position's contract and outcome, oldest first. */
export interface ReplayFill {
  side: 'BUY' | 'SELL';
  contracts: number;
  /** BUY: what was debited, fees included. */
  cost: string;
  /** BUY: the lot's knockout price when boosted. */
  knockout?: string;
}

export interface ReplayInput {
  fills: readonly ReplayFill[];
  /** Contracts the position's KNOCKED_OUT row(s) say were knocked out. */
  knockedOut: number;
  /** The SETTLEMENT row's contracts. */
  settled: number;
}

export interface KnownBasis {
  known: true;
  boughtContracts: number;
  /** Cents. */
  boughtCost: string;
  /** Sold or knocked out before the result. */
  soldContracts: number;
  /** boughtCost − costBasis: what those contracts carried away. */
  soldCost: string;
  /** What the settled contracts cost, cents. */
  costBasis: string;
}

export interface UnknownBasis {
  known: false;
  /** Why, in words. */
  reason: string;
}

export type ReplayResult = KnownBasis | UnknownBasis;

interface Lot {
  contracts: number;
  cost: Dec;
  knockout: Dec | undefined;
}

/** The basis of the settled contracts, or why it cannot be known from these fills. */
export function replayBasis(input: ReplayInput): ReplayResult {
  const { fills, knockedOut, settled } = input;
  if (!fills.some((f) => f.side === 'BUY')) {
    return {
      known: false,
      reason: `None of the orders that bought these ${contractsWord(settled)} are in the store.`,
    };
  }
  let lots: Lot[] = [];
  let boughtContracts = 0;
  let boughtCost = dec(0);
  let soldContracts = 0;
  for (const f of fills) {
    if (f.side === 'BUY') {
      lots.push({
        contracts: f.contracts,
        cost: dec(f.cost),
        knockout: f.knockout === undefined ? undefined : dec(f.knockout),
      });
      boughtContracts += f.contracts;
      boughtCost = boughtCost.plus(f.cost);
      continue;
    }
    const short = f.contracts - held(lots);
    if (short > 0) {
      return {
        known: false,
        reason:
          `A sell of ${contractsWord(f.contracts)} found only ${held(lots)} bought by the ` +
          `orders in the store: ${missingWords(short)}`,
      };
    }
    lots = takeOldest(lots, f.contracts);
    soldContracts += f.contracts;
  }
  if (knockedOut > 0) {
    const boosted = lots.filter((l) => l.knockout !== undefined);
    if (held(boosted) < knockedOut) {
      return {
        known: false,
        reason:
          `The exchange knocked out ${contractsWord(knockedOut)}, but the orders in the store ` +
          `hold only ${held(boosted)} boosted: ${missingWords(knockedOut - held(boosted))}`,
      };
    }
    lots = knockOut(lots, knockedOut);
    soldContracts += knockedOut;
  }
  const left = held(lots);
  if (left < settled) {
    return {
      known: false,
      reason:
        `${left === 0 ? 'All' : `${settled - left} of the`} ${contractsWord(settled)} that ` +
        `settled were bought by orders this store does not hold (older than its first sync, or ` +
        `not synced yet).`,
    };
  }
  if (left > settled) {
    return {
      known: false,
      reason:
        `The orders in the store leave ${contractsWord(left)} held, but ${settled} settled: ` +
        `some sells or knockouts of this position are not in the store.`,
    };
  }
  const costBasis = usd(lots.reduce((sum, l) => sum.plus(l.cost), dec(0)));
  return {
    known: true,
    boughtContracts,
    boughtCost: usd(boughtCost),
    soldContracts,
    soldCost: usd(boughtCost.minus(costBasis)),
    costBasis,
  };
}

function held(lots: readonly Lot[]): number {
  return lots.reduce((n, l) => n + l.contracts, 0);
}

/** The lots left after `contracts` are taken oldest first, pro rata inside the last one. */
function takeOldest(lots: readonly Lot[], contracts: number): Lot[] {
  let left = contracts;
  const kept: Lot[] = [];
  for (const lot of lots) {
    const take = Math.min(left, lot.contracts);
    left -= take;
    if (take === lot.contracts) continue;
    kept.push(take === 0 ? lot : shrink(lot, take));
  }
  return kept;
}

/** The lots left after `contracts` are knocked out, highest knockout first (older on a tie). */
function knockOut(lots: readonly Lot[], contracts: number): Lot[] {
  const order = lots
    .map((lot, i) => ({ lot, i }))
    .filter(({ lot }) => lot.knockout !== undefined)
    .sort((a, b) => b.lot.knockout!.comparedTo(a.lot.knockout!) || a.i - b.i);
  const taken = new Map<number, number>();
  let left = contracts;
  for (const { lot, i } of order) {
    if (left === 0) break;
    const take = Math.min(left, lot.contracts);
    taken.set(i, take);
    left -= take;
  }
  const kept: Lot[] = [];
  lots.forEach((lot, i) => {
    const take = taken.get(i) ?? 0;
    if (take < lot.contracts) kept.push(take === 0 ? lot : shrink(lot, take));
  });
  return kept;
}

/** The lot after `take` of its contracts left, with that share of its cost. */
function shrink(lot: Lot, take: number): Lot {
  const share = lot.cost.times(take).dividedBy(lot.contracts);
  return { ...lot, contracts: lot.contracts - take, cost: lot.cost.minus(share) };
}

function contractsWord(n: number): string {
  return `${n} contract${n === 1 ? '' : 's'}`;
}

function missingWords(n: number): string {
  return (
    `${n} were bought by orders this store does not hold (older than its first sync, or not ` +
    `synced yet).`
  );
}
