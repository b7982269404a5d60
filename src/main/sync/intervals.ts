/**
 * How often each stream polls, and why these numbers fit the exchange's rate limits
 * (docs/api.md 8.1). One engine runs per account (wallet); the per-wallet buckets are its
 * own, the per-IP ones (fixtures, the 100/s cap) are shared with every account and the UI.
 *
 * reads group, 60/min burst 10, shared by GET /order, /orders, /orders/updates, /settlements:
 *   orders/updates  every 2 s while an order of ours is not final, every 5 s otherwise (30 or 12/min)
 *   settlements     every 20 s (3/min), plus a pass when a position shrinks, vanishes or is
 *                   about to be knocked out (rare)
 *   -> at most about 33/min, so at least 27/min (45 %) stay free for the trading service's
 *      GET /order status polls, which the governor also serves first (higher priority).
 *   A history sweep (first sync, resync; streams/history.ts) is the settlements stream's pass
 *   and takes the rest of the bucket: one page as soon as the governor has a token, while the
 *   orders stream skips its idle polls (the sweep reads the orders). So a history of n
 *   settlements takes about (1 + n/100 - burst) seconds, the limit's own bound.
 * positions group, 20/min burst 5, price-feed cost 28 each:
 *   every 3.5 s while a boosted position is open (about 17/min), every 30 s otherwise (2/min);
 *   the rest of the bucket serves the polls triggered by a fill or a suspected knockout.
 * fixtures group, 120/min burst 20, per IP:
 *   the whole list (every page, betting open or not) every 60 s, and while boosted positions
 *   are open one request per second for the price watch (60/min): a boosted fixture looked up
 *   by team, or a page of the whole list when that takes fewer requests (streams/prices.ts).
 *   Half the IP's bucket stays for the markets screen.
 *
 * Intervals are measured from the end of one poll to the start of the next; the governor may
 * hold a request longer when the bucket is empty, so the engine never causes a 429 itself.
 */
import type { BackoffOptions } from '../../shared/backoff.js';
export interface SyncIntervals {
  /** GET /orders/updates while an order of ours may still change (not final), ms. */
  ordersPendingMs: number;
  /** GET /orders/updates otherwise, ms. */
  ordersIdleMs: number;
  /** GET /settlements (newest pages until one is all known), ms. */
  settlementsMs: number;
  /** GET /positions while a boosted position is open, ms. */
  positionsBoostedMs: number;
  /** GET /positions otherwise, ms. */
  positionsIdleMs: number;
  /** GET /fixtures, every page, ms. */
  fixturesMs: number;
  /** The knockout price watch: one fixture of a boosted position per tick, ms. */
  pricesMs: number;
  /** The shortest gap between two starts of the same stream when a poll is triggered, ms. */
  minSpacingMs: number;
}

export const DEFAULT_INTERVALS: Readonly<SyncIntervals> = {
  ordersPendingMs: 2000,
  ordersIdleMs: 5000,
  settlementsMs: 20_000,
  positionsBoostedMs: 3500,
  positionsIdleMs: 30_000,
  fixturesMs: 60_000,
  pricesMs: 1000,
  minSpacingMs: 250,
};

/**
 * Retry waits of the engine (shared/backoff.ts): the probe's while the exchange cannot be
 * reached, and a stream's after a refused poll (never shorter than a Retry-After).
 */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 30_000 };
