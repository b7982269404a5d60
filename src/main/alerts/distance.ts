/**
 * How close a boosted position is to its knockout, and the alert levels with hysteresis.
 *
 * Distance = (index − knockout) / index, on the outcome's index price: the share of the index
 * price it can still lose before the knockout. The exchange knocks the position out when the
 * index price falls to the knockout (docs/api.md 1 and 2.4), so 0.05 means "the index can fall
 * 5 % more", 0 is the knockout, and a negative distance is past it. The estimated closing price
 * is not the measure: it sits below the index (far below at low prices: 0.0378 for an index of
 * 0.0479), and would call a live position knocked out. index-price.ts reads the index.
 *
 * Levels (default 10 %, 5 %, 2 %) fire once when the distance falls to them. A level that
 * fired re-arms only when the distance has recovered above level + margin (default 1 point),
 * so a price wobbling around a level does not alert on every poll. When a move crosses several
 * armed levels at once, only the deepest fires (one alert, the one that matters), and all the
 * crossed levels are spent.
 */
import { Dec, dec, type DecimalInput } from '../../shared/money.js';

export const DEFAULT_LEVELS: readonly string[] = ['0.10', '0.05', '0.02'];
export const DEFAULT_MARGIN = '0.01';

export function knockoutDistance(indexPrice: DecimalInput, knockout: DecimalInput): Dec {
  const index = dec(indexPrice);
  if (index.lte(0)) return new Dec(-1);
  return index.minus(knockout).dividedBy(index);
}

/** One level's state for one position: armed to fire, and how many times it fired before. */
export interface LevelState {
  armed: boolean;
  /** Alerts of this level stored so far for this position and knockout. */
  fired: number;
}

export interface Ladder {
  /** The levels, deepest last (e.g. 0.10, 0.05, 0.02). */
  readonly levels: readonly Dec[];
  readonly margin: Dec;
}

export function ladder(
  levels: readonly DecimalInput[] = DEFAULT_LEVELS,
  margin: DecimalInput = DEFAULT_MARGIN,
): Ladder {
  const sorted = [...new Set(levels.map((l) => dec(l).toString()))]
    .map((l) => dec(l))
    .sort((a, b) => b.comparedTo(a));
  if (sorted.length === 0) throw new RangeError('At least one knockout alert level is needed.');
  for (const l of sorted) {
    if (l.lte(0) || l.gte(1)) {
      throw new RangeError(
        `A knockout alert level must be between 0 and 1; ${l.toString()} is not.`,
      );
    }
  }
  const m = dec(margin);
  if (m.lt(0)) throw new RangeError('The knockout alert margin must not be negative.');
  return { levels: sorted, margin: m };
}

/**
 * Feeds one distance to the ladder: re-arms levels the distance has recovered past, and
 * returns the index of the level to alert now (or null), spending every crossed level.
 */
export function step(l: Ladder, states: LevelState[], distance: Dec): number | null {
  l.levels.forEach((level, i) => {
    if (distance.gt(level.plus(l.margin))) states[i]!.armed = true;
  });
  let fire: number | null = null;
  l.levels.forEach((level, i) => {
    if (distance.lte(level) && states[i]!.armed) fire = i;
  });
  if (fire !== null) {
    l.levels.forEach((level, i) => {
      if (distance.lte(level)) states[i]!.armed = false;
    });
  }
  return fire;
}

/**
 * The starting state of a position's levels, from how often each fired before (the alerts
 * in the store): a level that fired, and every shallower one, starts spent, so a restart does
 * not repeat an alert; it re-arms like any other once the distance recovers.
 */
export function initialStates(fired: readonly number[]): LevelState[] {
  let deepestFired = -1;
  fired.forEach((n, i) => {
    if (n > 0) deepestFired = i;
  });
  return fired.map((n, i) => ({ armed: i > deepestFired, fired: n }));
}

/** "5%", "2.5%": a fraction as people read it. */
export function percent(fraction: Dec, places = 1): string {
  const p = fraction.times(100);
  const fixed = p.toFixed(places);
  return `${fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed}%`;
}
