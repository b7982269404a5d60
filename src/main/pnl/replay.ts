/**
 * The cost basis of the contracts a position still held when it settled, from the account's
 * FILLED orders on it and the exchange's own rows for the contracts that left it (docs/pnl.md):
 *
 * - The cash: what the buys cost (fees included), less what the sells and knockouts carried
 *   away. The exchange's CLOSED row says what its sells carried away (their proceeds less its
 *   `pnl`) and its KNOCKED_OUT row what its knockouts did (minus its `pnl`: a knocked-out lot
 *   pays nothing). So the position's CLOSED, KNOCKED_OUT and SETTLEMENT rows add up to the cash
 *   that moved, payouts + proceeds − costs, whatever order the sells and knockouts came in.
 * - The lots, where a sell's proceeds or a row's `pnl` is missing: each buy a lot at its cost,
 *   each sell taking the oldest lots first (pro rata within a lot), each knockout the boosted
 *   lots at or above some index price. The rows do not say when a knockout came, so every
 *   moment consistent with them is tried; the basis is known when they all give the same.
 *
 * Pure: no store, no clock. Amounts are decimal.js values inside, strings at the edges.
 */
import { dec, usd, type Dec } from '../../shared/money.js';
import { oldestSlices } from '../../shared/rules/lots.js';

/** How the basis is worked out from the orders, in words: RealizedWorking.method. */
export const REALIZED_METHOD =
  'What the buys cost (fees included), less what the sells and knockouts carried away as the ' +
  'exchange’s CLOSED and KNOCKED_OUT rows say (their proceeds less their P&L), is the basis of ' +
  'the contracts that settled; so the rows of a bet add up to the cash that moved.';

/** The method when a sell's proceeds or a row's P&L is not there. */
export const LOTS_METHOD =
  'Oldest contracts first, as the exchange closes them: each buy adds a lot at its cost ' +
  '(fees included); a sell takes contracts from the oldest lots, pro rata within a lot; a ' +
  'knockout takes the boosted lots its index price reached, at the moment the rows allow. The ' +
  'basis is what the lots still held cost at the result.';

/** A FILLED order on the position's contract and outcome, oldest first. */
export interface ReplayFill {
  side: 'BUY' | 'SELL';
  contracts: number;
  /** BUY: what was debited, fees included. */
  cost: string;
  /** BUY: the lot's knockout price when boosted. */
  knockout?: string;
  /** SELL: paid out, net of fees, when the exchange says. */
  proceeds?: string;
}

/** The position's CLOSED or KNOCKED_OUT rows, summed. */
export interface ExitRows {
  contracts: number;
  /** Σ the rows' `pnl`; null when one of them has none. */
  pnl: string | null;
}

export interface ReplayInput {
  fills: readonly ReplayFill[];
  closed?: ExitRows;
  knocked?: ExitRows;
  /** The SETTLEMENT row's contracts. */
  settled: number;
}

export interface KnownBasis {
  known: true;
  method: string;
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

/** The basis of the settled contracts, or why it cannot be known from these fills and rows. */
export function replayBasis(input: ReplayInput): ReplayResult {
  const { fills, settled } = input;
  const knockedOut = input.knocked?.contracts ?? 0;
  if (!fills.some((f) => f.side === 'BUY')) {
    return {
      known: false,
      reason: `None of the orders that bought these ${contractsWord(settled)} are in the store.`,
    };
  }
  let bought = 0;
  let boughtCost = dec(0);
  let boosted = 0;
  let sold = 0;
  for (const f of fills) {
    if (f.side === 'BUY') {
      bought += f.contracts;
      boughtCost = boughtCost.plus(f.cost);
      if (f.knockout !== undefined) boosted += f.contracts;
      continue;
    }
    const short = f.contracts - (bought - sold);
    if (short > 0) {
      return {
        known: false,
        reason:
          `A sell of ${contractsWord(f.contracts)} found only ${bought - sold} bought by the ` +
          `orders in the store: ${missingWords(short)}`,
      };
    }
    sold += f.contracts;
  }
  if (boosted < knockedOut) {
    return {
      known: false,
      reason:
        `The exchange knocked out ${contractsWord(knockedOut)}, but the orders in the store ` +
        `hold only ${boosted} boosted: ${missingWords(knockedOut - boosted)}`,
    };
  }
  const left = bought - sold - knockedOut;
  if (left < settled) {
    return {
      known: false,
      reason:
        `${left <= 0 ? 'All' : `${settled - left} of the`} ${contractsWord(settled)} that ` +
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
  const cash = basisFromCash(input, sold, boughtCost);
  const basis = cash ?? basisFromLots(input, knockedOut);
  if (typeof basis !== 'string') return basis;
  return {
    known: true,
    method: cash === undefined ? LOTS_METHOD : REALIZED_METHOD,
    boughtContracts: bought,
    boughtCost: usd(boughtCost),
    soldContracts: sold + knockedOut,
    soldCost: usd(boughtCost.minus(basis)),
    costBasis: usd(basis),
  };
}

/**
 * Σ buy costs − (Σ sell proceeds − CLOSED pnl) + KNOCKED_OUT pnl, when every figure is there
 * and the rows cover the sells; undefined otherwise.
 */
function basisFromCash(input: ReplayInput, sold: number, boughtCost: Dec): string | undefined {
  const { fills, closed, knocked } = input;
  let basis = boughtCost;
  if (sold > 0) {
    if (closed === undefined || closed.pnl === null || closed.contracts !== sold) return undefined;
    for (const f of fills) {
      if (f.side !== 'SELL') continue;
      if (f.proceeds === undefined) return undefined;
      basis = basis.minus(f.proceeds);
    }
    basis = basis.plus(closed.pnl);
  }
  if (knocked !== undefined && knocked.contracts > 0) {
    if (knocked.pnl === null) return undefined;
    basis = basis.plus(knocked.pnl);
  }
  return basis.isNegative() ? undefined : basis.toString();
}

interface Lot {
  contracts: number;
  cost: Dec;
  knockout: Dec | undefined;
}

/** Ways tried before the lots give up: a position has a handful of orders, not hundreds. */
const MAX_STEPS = 50_000;

/**
 * The basis the lots give, trying a knockout (of every boosted lot at or above some knockout)
 * before each fill and after the last; the ways that knock out the reported contracts (at the
 * reported cost, to the cent, when the KNOCKED_OUT row has a pnl) and leave the settled ones.
 */
function basisFromLots(input: ReplayInput, knockedOut: number): string | UnknownBasis {
  const { fills, settled } = input;
  const knockedPnl = input.knocked?.pnl ?? null;
  const bases = new Set<string>();
  let steps = 0;
  const visit = (i: number, lots: readonly Lot[], knocked: number, knockedCost: Dec): void => {
    if (++steps > MAX_STEPS) return;
    const choices: (readonly Lot[])[] = [lots];
    if (knocked < knockedOut) {
      const thresholds = [
        ...new Set(lots.flatMap((l) => (l.knockout ? [l.knockout.toString()] : []))),
      ];
      for (const t of thresholds) choices.push(lots.filter((l) => !l.knockout?.gte(t)));
    }
    for (const kept of choices) {
      const out = lots.filter((l) => !kept.includes(l));
      const n = knocked + held(out);
      if (n > knockedOut) continue;
      const cost = out.reduce((sum, l) => sum.plus(l.cost), knockedCost);
      if (i === fills.length) {
        if (n === knockedOut && held(kept) === settled && costFits(cost, knockedPnl)) {
          bases.add(usd(kept.reduce((sum, l) => sum.plus(l.cost), dec(0))));
        }
        continue;
      }
      const f = fills[i]!;
      if (f.side === 'BUY') {
        const lot = {
          contracts: f.contracts,
          cost: dec(f.cost),
          knockout: f.knockout ? dec(f.knockout) : undefined,
        };
        visit(i + 1, [...kept, lot], n, cost);
      } else if (held(kept) >= f.contracts) {
        visit(i + 1, takeOldest(kept, f.contracts), n, cost);
      }
    }
  };
  visit(0, [], 0, dec(0));
  if (steps > MAX_STEPS) {
    return { known: false, reason: 'The orders of this position are too many to replay.' };
  }
  if (bases.size === 1) return [...bases][0]!;
  if (bases.size === 0) {
    return {
      known: false,
      reason:
        `No order of the stored sells and the knockout of ${contractsWord(knockedOut)} the ` +
        `exchange reported leaves the ${contractsWord(settled)} that settled: some orders of ` +
        `this position are not in the store.`,
    };
  }
  const list = [...bases].sort((a, b) => dec(a).comparedTo(b));
  return {
    known: false,
    reason:
      `The exchange does not say whether its knockout came before or after the sells, and the ` +
      `basis depends on it (${list.join(' or ')}); a sell's proceeds would settle it.`,
  };
}

/** The knocked-out lots' cost matches the KNOCKED_OUT row's pnl (−cost) to the cent. */
function costFits(cost: Dec, pnl: string | null): boolean {
  return pnl === null || cost.plus(pnl).abs().lte('0.01');
}

function held(lots: readonly Lot[]): number {
  return lots.reduce((n, l) => n + l.contracts, 0);
}

/** The lots left after `contracts` are taken as the exchange takes them (lots.ts). */
function takeOldest(lots: readonly Lot[], contracts: number): Lot[] {
  const slices = oldestSlices(
    lots.map((l) => ({ contracts: l.contracts, cost: l.cost.toString(), loanPerContract: '0' })),
    contracts,
  );
  return lots.flatMap((lot, i) => {
    const taken = slices[i];
    if (taken === undefined) return [lot];
    const left = lot.contracts - taken.contracts;
    return left === 0 ? [] : [{ ...lot, contracts: left, cost: lot.cost.minus(taken.cost) }];
  });
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
