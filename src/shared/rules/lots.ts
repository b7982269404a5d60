/**
 * A position's lots as the exchange keeps them (docs/pnl.md, GET /docs "Positions"): a BUY adds a
 * lot at its cost, a SELL takes contracts from the oldest lots first, each lot giving up its cost
 * pro rata. One definition for everything that rebuilds lots from the stored orders: when the
 * position open now began, what a knockout guard sells, and what a close would fetch.
 *
 * Knockouts: GET /positions says only a position's highest knockout now, so a boosted lot whose
 * knockout is above it (or any, when it shows none) is not held now: knocked out, or sold. The
 * exchange does not say when a knockout happened, and a sale takes the oldest lots, knocked out
 * or not yet. So `replayLots` reads the orders one way (a BUY finding every lot held knocked out
 * starts the position anew; the rest are gone at the end), and `heldLots` tries that and each
 * moment a knockout could have come, keeping the first reading whose lots are the position the
 * exchange reports.
 */
import { BOOST_LOAN_PER_POINT } from '../api/boost.js';
import type { Order } from '../api/schemas.js';
import { dec, usd } from '../money.js';

/** A lot held: what it cost and what was lent on each of its contracts. */
export interface Lot {
  contracts: number;
  /** What its contracts cost, fees included (the BUY's `cost`), exact; shrinks pro rata on sales. */
  cost: string;
  /** Lent per contract, exact: entryPrice × 0.009 × boost; "0" unboosted. */
  loanPerContract: string;
  /** The BUY's knockout (its loan rounded up to 4 places); null unboosted. */
  knockout: string | null;
}

/** A part of a lot a sale takes: its contracts, their share of the lot's cost and their loan. */
export interface Slice {
  contracts: number;
  /** The lot's cost × contracts taken / the lot's contracts (the whole cost when all of it). */
  cost: string;
  loanPerContract: string;
}

/** The lot a FILLED BUY adds. */
export function lotOf(buy: Order): Lot {
  const boosted = buy.boost > 0;
  return {
    contracts: buy.contracts,
    cost: buy.cost,
    loanPerContract: boosted
      ? dec(buy.entryPrice).times(BOOST_LOAN_PER_POINT).times(buy.boost).toFixed()
      : '0',
    knockout: boosted ? (buy.knockout ?? null) : null,
  };
}

/**
 * The slices a sale of `contracts` takes from `lots` (oldest first), as the exchange takes them:
 * the oldest lots first, a lot partly taken giving up its cost pro rata. Fewer than `contracts`
 * when the lots hold fewer.
 */
export function oldestSlices(
  lots: readonly Pick<Lot, 'contracts' | 'cost' | 'loanPerContract'>[],
  contracts: number,
): Slice[] {
  const slices: Slice[] = [];
  let left = contracts;
  for (const lot of lots) {
    if (left <= 0) break;
    const take = Math.min(left, lot.contracts);
    if (take <= 0) continue;
    const cost =
      take === lot.contracts
        ? lot.cost
        : dec(lot.cost).times(take).dividedBy(lot.contracts).toFixed();
    slices.push({ contracts: take, cost, loanPerContract: lot.loanPerContract });
    left -= take;
  }
  return slices;
}

/** Takes `contracts` from the oldest of `lots` (in place), dropping the lots it empties. */
export function sellOldest(lots: Lot[], contracts: number): void {
  const slices = oldestSlices(lots, contracts);
  let emptied = 0;
  slices.forEach((slice, i) => {
    const lot = lots[i]!;
    lot.contracts -= slice.contracts;
    lot.cost = dec(lot.cost).minus(slice.cost).toFixed();
    if (lot.contracts === 0) emptied++;
  });
  lots.splice(0, emptied);
}

/** The position as read: its highest knockout now (null: no boosted contract held). */
export interface KnockoutNow {
  knockout: string | null;
}

/** The position as the exchange reports it, to check rebuilt lots against. */
export interface PositionNow extends KnockoutNow {
  contracts: number;
  /** When given, the lots must cost this to the cent too. */
  costBasis?: string;
}

/** What the stored orders say of the position open now. */
export interface LotsReplay {
  /** The lots held now, oldest first: knocked-out lots left out. */
  lots: Lot[];
  /** The local time (the order's createdAt) the position open now began; null: no BUY stored. */
  since: number | null;
}

/** A boosted lot whose knockout is above the position's highest now is not held now. */
function notHeldNow(position: KnockoutNow): (lot: Lot) => boolean {
  return (lot) =>
    lot.knockout !== null &&
    (position.knockout === null || dec(lot.knockout).gt(position.knockout));
}

/** The FILLED orders, oldest first. */
function filledInOrder(fills: readonly Order[]): Order[] {
  return fills.filter((o) => o.status === 'FILLED').sort((a, b) => a.createdAt - b.createdAt);
}

/**
 * Replays the orders. `knockAt`: the knockouts came just before that order (its index; the
 * length: after the last), or 'anew' when a BUY finding every lot held knocked out starts the
 * position anew. Lots not held now are left out at the end either way.
 */
function replay(ordered: readonly Order[], out: (lot: Lot) => boolean, knockAt: number | 'anew') {
  let lots: Lot[] = [];
  let since: number | null = null;
  ordered.forEach((o, i) => {
    if (i === knockAt) lots = lots.filter((l) => !out(l));
    if (o.side === 'SELL') {
      sellOldest(lots, o.contracts);
      return;
    }
    if (lots.length === 0 || (knockAt === 'anew' && lots.every(out))) {
      lots = [];
      since = o.createdAt;
    }
    lots.push(lotOf(o));
  });
  return { lots: lots.filter((l) => !out(l)), since };
}

/** Replays the FILLED orders on one outcome, oldest first (see the header: 'anew'). */
export function replayLots(fills: readonly Order[], position: KnockoutNow): LotsReplay {
  return replay(filledInOrder(fills), notHeldNow(position), 'anew');
}

/**
 * The lots the position holds now, oldest first, rebuilt from its FILLED orders: the first
 * reading that gives the position the exchange reports (`lotsMatch`): every knockout after the
 * last order, then replayLots' reading, then each earlier moment, latest first. Null when none
 * does (orders not stored, or knockouts at more than one moment that matters).
 */
export function heldLots(fills: readonly Order[], position: PositionNow): Lot[] | null {
  const ordered = filledInOrder(fills);
  const out = notHeldNow(position);
  const moments: (number | 'anew')[] = [ordered.length, 'anew'];
  // A knockout before an order matters only when a boosted lot not held now was held then.
  for (let i = ordered.length - 1; i > 0; i--) moments.push(i);
  const tried = new Set<string>();
  for (const moment of moments) {
    const { lots } = replay(ordered, out, moment);
    const key = JSON.stringify(lots);
    if (tried.has(key)) continue;
    tried.add(key);
    if (lotsMatch(lots, position)) return lots;
  }
  return null;
}

/**
 * The lots add up to the position as the exchange reports it: the same contracts and, when
 * given, the same cost basis to the cent (GET /positions sums its lots' costs the same way).
 * When they do not, some orders are not stored (or a knockout's moment was read wrong).
 */
export function lotsMatch(
  lots: readonly Lot[],
  position: { contracts: number; costBasis?: string },
): boolean {
  const contracts = lots.reduce((n, l) => n + l.contracts, 0);
  if (contracts !== position.contracts) return false;
  if (position.costBasis === undefined) return true;
  const cost = lots.reduce((sum, l) => sum.plus(l.cost), dec(0));
  return usd(cost) === usd(position.costBasis);
}
