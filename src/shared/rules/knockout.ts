/**
 * Practice prices around a knockout: where to move an outcome's index price to rehearse a near
 * knockout and a knockout. The exchange knocks a boosted position out when the outcome's index
 * price falls to the knockout (docs/api.md 1), and Betdesk measures the distance on that index:
 * (index − knockout) / index. So "near" puts the index above the knockout at a distance inside
 * the deepest alert level (a near alert fires), and "past" puts it below the knockout, or at it
 * where below would leave the range. Index prices stay within the exchange's (0.01, 0.99) where
 * the knockout allows it (docs/sandbox.md, pricing in short).
 */
import { Dec, dec, price } from '../money.js';

const FLOOR = dec('0.0100');
const CEILING = dec('0.9900');
const TICK = dec('0.0001');

/** The deepest default near-knockout alert level (10 %, 5 %, 2 %). */
export const DEEPEST_DEFAULT_LEVEL = '0.02';

/** Near puts the distance at this share of the deepest level: well inside it, not at its edge. */
const NEAR_SHARE = dec('0.75');

/**
 * An index price above the knockout whose distance, (index − knockout) / index, is inside
 * `deepestLevel` (a fraction, "0.02"): three quarters of it, rounded down to the 4-place price
 * grid, so a near-knockout alert fires. At knockouts so small that one tick above is already
 * farther, one tick above.
 */
export function nearKnockoutPrice(knockout: string, deepestLevel = DEEPEST_DEFAULT_LEVEL): string {
  const k = dec(knockout);
  const target = dec(deepestLevel).times(NEAR_SHARE);
  let index = k.dividedBy(dec(1).minus(target)).toDecimalPlaces(4, Dec.ROUND_DOWN);
  if (index.gt(CEILING)) index = CEILING;
  if (index.lte(k)) index = k.plus(TICK);
  return price(index);
}

/** One hundredth below the knockout, not under 0.01; the knockout itself when that is lower. */
export function pastKnockoutPrice(knockout: string): string {
  const k = dec(knockout);
  const below = Dec.max(k.minus('0.01'), FLOOR);
  return price(below.lte(k) ? below : k);
}

/** True for an index price the practice controls accept: a decimal within (0, 1), 4 places. */
export function isIndexPrice(value: string): boolean {
  if (!/^0\.[0-9]{1,4}$/.test(value)) return false;
  return dec(value).gt(0);
}
