/**
 * A boosted position's distance to its knockout now, measured on its outcome's index price as
 * the sync last read it. The exchange knocks the position out when that index price falls to
 * the knockout (docs/api.md 1 and 2.4), so the index is what the knockout watch, the positions
 * screen and the tray judge on; the estimated closing price sits below the index, far below it
 * at low prices, and would call a live bet knocked out.
 *
 * GET /positions carries no index price: it is the outcome's price on the stored fixture, kept
 * current by the fixtures stream and the price watch, which record when they read it
 * (sync/streams/index-reads.ts). A reading older than twice its polling interval is stale: it is
 * shown with its age, and raises no alert.
 */
import type { Dec } from '../../shared/money.js';
import type { Store } from '../store/index.js';
import { lastIndexRead } from '../sync/streams/index-reads.js';
import { indexPrice } from '../sync/streams/prices.js';
import { knockoutDistance } from './distance.js';
import { isFreshRead } from '../../shared/rules/freshness.js';

/** An outcome's index price as last read. */
export interface IndexReading {
  price: string;
  /** Local time it was read; null when no read is recorded (not read since the position opened). */
  readAt: number | null;
  /** Stale once older than this (twice its polling interval); null with readAt. */
  staleAfterMs: number | null;
}

/** A boosted position's distance to its knockout on the index, with the reading it rests on. */
export interface IndexDistance {
  index: IndexReading;
  /** (index − knockout) / index: 0 at the knockout, negative below it. */
  distance: Dec;
  /** The reading is recent enough to judge the position on now. */
  fresh: boolean;
}

/** The outcome's index price as the store holds it, or undefined when its fixture is unknown. */
export function readIndex(
  store: Pick<Store, 'fixtures' | 'cursors'>,
  accountId: number,
  position: { contractId: string; outcome: string },
): IndexReading | undefined {
  // The one place the knockout judgement reads a stored index price.
  const fixture = store.fixtures.get(accountId, position.contractId);
  if (fixture === undefined) return undefined;
  const price = indexPrice(fixture, position.outcome);
  if (price === undefined) return undefined;
  const read = lastIndexRead(store, accountId, position.contractId);
  return { price, readAt: read?.readAt ?? null, staleAfterMs: read?.staleAfterMs ?? null };
}

/** True when the reading is recent enough to raise an alert on at `now`. */
export function isFresh(index: IndexReading, now: number): boolean {
  return isFreshRead(index.readAt, index.staleAfterMs, now);
}

/** The position's distance to `knockout` on its index now; undefined when no index is known. */
export function indexDistance(
  store: Store,
  accountId: number,
  position: { contractId: string; outcome: string },
  knockout: string,
  now: number,
): IndexDistance | undefined {
  const index = readIndex(store, accountId, position);
  if (index === undefined) return undefined;
  return {
    index,
    distance: knockoutDistance(index.price, knockout),
    fresh: isFresh(index, now),
  };
}

/**
 * One of `fixtures` (just changed) is a held boosted position's: its index price, so its distance
 * to the knockout, may have moved.
 */
export function movesBoosted(
  positions: readonly { boosted: boolean; contractId: string }[],
  fixtures: readonly { contractId: string }[],
): boolean {
  const moved = new Set(fixtures.map((f) => f.contractId));
  return positions.some((p) => p.boosted && moved.has(p.contractId));
}
