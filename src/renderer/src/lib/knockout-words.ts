/**
 * What a position's distance to its knockout says in words. The distance is measured on the
 * outcome's index price, the price the exchange knocks out on; an index price read longer ago
 * than twice its polling interval is stale, raises no alert, and says how old it is in words,
 * never by colour alone.
 */
import type { PositionRow } from '../../../shared/ipc/contract.js';
import { dec } from '../../../shared/money.js';
import { isFreshRead } from '../../../shared/rules/freshness.js';
import { ago, fractionPercent } from './format.js';

export interface DistanceWords {
  /** At or below the knockout on the index. */
  past: boolean;
  /** The index price is stale (or its age unknown): it raises no alert. */
  stale: boolean;
  /** "Index at the knockout", "Near: inside 5.00 %", or null. */
  status: string | null;
  /** "Index 0.0479", or with its age when stale: "Index 0.0479 read 41 s ago: stale, no alerts". */
  index: string | null;
}

/** `now`: the local clock, ms. */
export function distanceWords(p: PositionRow, now: number): DistanceWords {
  const d = p.knockoutDistance;
  if (p.knockout === null || d === null || p.indexPrice === null) {
    return { past: false, stale: false, status: null, index: null };
  }
  const past = dec(d.fraction).lte(0);
  const age = p.indexReadAt === null ? null : Math.max(0, now - p.indexReadAt);
  const stale = !isFreshRead(p.indexReadAt, p.indexStaleAfterMs, now);
  const status = past
    ? 'Index at the knockout'
    : p.nearLevel !== null
      ? `Near: inside ${fractionPercent(p.nearLevel)}`
      : null;
  const index = !stale
    ? `Index ${p.indexPrice}`
    : age === null
      ? `Index ${p.indexPrice}, time read unknown: no alerts`
      : `Index ${p.indexPrice} read ${ago(age)}: stale, no alerts`;
  return { past, stale, status, index };
}
