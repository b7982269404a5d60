/**
 * The positions screen's view of the store: every open position of the account with its
 * fixture, its distance to the knockout on its outcome's index price (the price the exchange
 * knocks out on; alerts/index-price.ts) with when that price was read, the alert level it is
 * inside, and how fresh the figures are. Read from the store, so it works while the exchange is
 * away.
 */
import type { PositionLot, PositionRow, PositionsView } from '../../shared/ipc/contract.js';
import { dec, price } from '../../shared/money.js';
import { knockoutDistance, readIndex, type IndexReading } from '../alerts/index.js';
import type { Store, StoredPosition } from '../store/index.js';
import { fixtureLookup } from './rows.js';
import { STALE_AFTER_POLLS } from '../../shared/rules/freshness.js';
import { heldLots, replayLots } from '../../shared/rules/lots.js';
import { unrealizedPnl } from '../../shared/rules/unrealized.js';

/** Every order up to now and beyond (the local clock may trail the exchange's). */
const MAX_TIME = Number.MAX_SAFE_INTEGER;

export interface PositionsViewOptions {
  /** The account as the bridge names it (null: paper). */
  bridgeId: string | null;
  /** How often positions are read now, ms. */
  pollMs: number;
  /** The account's near-knockout levels, fractions ("0.05"). */
  levels: readonly string[];
}

/** Figures older than this many polling intervals are stale. */
export { STALE_AFTER_POLLS } from '../../shared/rules/freshness.js';

export function positionsView(
  store: Store,
  accountId: number,
  opts: PositionsViewOptions,
): PositionsView {
  const fixture = fixtureLookup(store, accountId);
  const positions = store.positions.list(accountId).map((p) => {
    const { since, lots } = positionLots(store, accountId, p);
    return positionRow(
      p,
      fixture(p.contractId),
      opts.levels,
      p.boosted ? readIndex(store, accountId, p) : undefined,
      since,
      lots,
    );
  });
  return {
    accountId: opts.bridgeId,
    positions,
    snapshotAt: store.cursors.get(accountId, 'positions')?.lastSyncAt ?? null,
    pollMs: opts.pollMs,
    staleAfterMs: opts.pollMs * STALE_AFTER_POLLS,
  };
}

/** What the stored orders say of a position: when it began, and its lots when they add up. */
interface PositionLots {
  since: number | null;
  lots: PositionLot[] | null;
}

/**
 * What the stored orders say of each position, kept per store: the view is built on every index
 * read (about once a second), and reading a position's orders each time would be work for
 * nothing. An entry holds while the position's figures are the same (its exchange time,
 * contracts, cost basis and knockout); any order written to the store (the blotter feed) clears
 * them all.
 */
const lotsCache = new WeakMap<Store, Map<string, PositionLots>>();
/** Entries kept at most: far more than a bettor's open positions. */
const LOTS_ENTRIES = 2_000;

/**
 * When the position open now began, and the lots it holds, rebuilt from its stored orders
 * (src/shared/rules/lots.ts); the lots only when they add up to the position the exchange
 * reports (contracts and cost basis), else null.
 */
function positionLots(store: Store, accountId: number, p: StoredPosition): PositionLots {
  let cache = lotsCache.get(store);
  if (cache === undefined) {
    const created = new Map<string, PositionLots>();
    store.blotterFeed.subscribe(() => created.clear());
    lotsCache.set(store, created);
    cache = created;
  }
  const knockout = p.boosted ? (p.knockout ?? null) : null;
  const key = [accountId, p.contractId, p.outcome, p.updatedAt, p.contracts, p.costBasis, knockout]
    .map((part) => part ?? '')
    .join('|');
  const known = cache.get(key);
  if (known !== undefined) return known;
  const fills = store.orders.listBetween(accountId, p.contractId, p.outcome, null, MAX_TIME);
  const found: PositionLots = {
    since: replayLots(fills, { knockout }).since,
    lots: heldLots(fills, { knockout, contracts: p.contracts, costBasis: p.costBasis }),
  };
  if (cache.size >= LOTS_ENTRIES) cache.clear();
  cache.set(key, found);
  return found;
}

/**
 * `index`: the outcome's index price as last read, for a boosted position. `heldSince`: when
 * the position open now began; `lots`: the lots it holds, oldest first, or null when the stored
 * orders do not rebuild them (shared/rules/lots.ts).
 */
export function positionRow(
  p: StoredPosition,
  fixture: PositionRow['fixture'],
  levels: readonly string[],
  index: IndexReading | undefined,
  heldSince: number | null = null,
  lots: PositionLot[] | null = null,
): PositionRow {
  const knockout = p.boosted && p.knockout !== undefined ? p.knockout : null;
  const known = knockout === null ? undefined : index;
  let knockoutDistance_: PositionRow['knockoutDistance'] = null;
  let nearLevel: string | null = null;
  if (knockout !== null && known !== undefined) {
    const fraction = knockoutDistance(known.price, knockout);
    knockoutDistance_ = {
      price: price(dec(known.price).minus(knockout)),
      fraction: fraction.toFixed(4),
    };
    nearLevel = deepestLevelInside(fraction.toString(), levels);
  }
  return {
    contractId: p.contractId,
    outcome: p.outcome,
    fixture,
    contracts: p.contracts,
    entryPrice: p.entryPrice,
    estimatedClosingPrice: p.estimatedClosingPrice,
    costBasis: p.costBasis,
    value: p.value,
    pnl: unrealizedPnl(p),
    exchangePnl: p.pnl,
    pnlPercent: p.pnlPercent,
    maxPayout: p.maxPayout,
    boosted: p.boosted,
    knockout,
    indexPrice: known?.price ?? null,
    indexReadAt: known?.readAt ?? null,
    indexStaleAfterMs: known?.staleAfterMs ?? null,
    knockoutDistance: knockoutDistance_,
    nearLevel,
    updatedAt: p.updatedAt,
    heldSince,
    lots,
  };
}

/** The narrowest level the distance has fallen to, or null when it is outside them all. */
export function deepestLevelInside(fraction: string, levels: readonly string[]): string | null {
  let deepest: string | null = null;
  for (const level of levels) {
    if (dec(fraction).lte(level) && (deepest === null || dec(level).lt(deepest))) deepest = level;
  }
  return deepest;
}
