/**
 * The positions screen's view of the store: every open position of the account with its
 * fixture, its distance to the knockout on its outcome's index price (the price the exchange
 * knocks out on; alerts/index-price.ts) with when that price was read, the alert level it is
 * inside, and how fresh the figures are. Read from the store, so it works while the exchange is
 * away.
 */
import type { PositionRow, PositionsView } from '../../shared/ipc/contract.js';
import { dec, price } from '../../shared/money.js';
import { knockoutDistance, readIndex, type IndexReading } from '../alerts/index.js';
import type { Store, StoredPosition } from '../store/index.js';
import { fixtureLookup } from './rows.js';
import { STALE_AFTER_POLLS } from '../../shared/rules/freshness.js';
import { heldSince } from '../../shared/rules/held-since.js';

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
  const positions = store.positions
    .list(accountId)
    .map((p) =>
      positionRow(
        p,
        fixture(p.contractId),
        opts.levels,
        p.boosted ? readIndex(store, accountId, p) : undefined,
        positionHeldSince(store, accountId, p),
      ),
    );
  return {
    accountId: opts.bridgeId,
    positions,
    snapshotAt: store.cursors.get(accountId, 'positions')?.lastSyncAt ?? null,
    pollMs: opts.pollMs,
    staleAfterMs: opts.pollMs * STALE_AFTER_POLLS,
  };
}

/**
 * When each position open now began, kept per store: the view is built on every index read (about
 * once a second), and reading a position's orders each time would be work for nothing. An entry
 * holds while the position's figures are the same (its exchange time and knockout); any order
 * written to the store (the blotter feed) clears them all.
 */
const heldSinceCache = new WeakMap<Store, Map<string, number | null>>();
/** Entries kept at most: far more than a bettor's open positions. */
const HELD_SINCE_ENTRIES = 2_000;

function positionHeldSince(store: Store, accountId: number, p: StoredPosition): number | null {
  let cache = heldSinceCache.get(store);
  if (cache === undefined) {
    const created = new Map<string, number | null>();
    store.blotterFeed.subscribe(() => created.clear());
    heldSinceCache.set(store, created);
    cache = created;
  }
  const knockout = p.boosted ? (p.knockout ?? null) : null;
  const key = `${accountId}|${p.contractId}|${p.outcome}|${p.updatedAt}|${knockout ?? ''}`;
  const known = cache.get(key);
  if (known !== undefined || cache.has(key)) return known ?? null;
  const since = heldSince(
    store.orders.listBetween(accountId, p.contractId, p.outcome, null, MAX_TIME),
    { knockout },
  );
  if (cache.size >= HELD_SINCE_ENTRIES) cache.clear();
  cache.set(key, since);
  return since;
}

/**
 * `index`: the outcome's index price as last read, for a boosted position. `heldSince`: when
 * the position open now began (shared/rules/held-since.ts).
 */
export function positionRow(
  p: StoredPosition,
  fixture: PositionRow['fixture'],
  levels: readonly string[],
  index: IndexReading | undefined,
  heldSince: number | null = null,
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
    pnl: p.pnl,
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
