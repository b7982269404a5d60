/**
 * Practice prices around a knockout: where to move an outcome's index price to rehearse a near
 * knockout (just above it) and a knockout (just below it). Index prices stay within the
 * exchange's (0.01, 0.99).
 */
import { dec, price } from '../money.js';

const FLOOR = dec('0.0100');
const CEILING = dec('0.9900');

function clamp(value: ReturnType<typeof dec>): string {
  if (value.lt(FLOOR)) return price(FLOOR);
  if (value.gt(CEILING)) return price(CEILING);
  return price(value);
}

/** `above` as a fraction over the knockout: 0.03 puts the index 3 % above it. */
export function nearKnockoutPrice(knockout: string, above = '0.03'): string {
  return clamp(dec(knockout).times(dec(1).plus(above)));
}

/** One hundredth below the knockout: the position is knocked out at once. */
export function pastKnockoutPrice(knockout: string): string {
  return clamp(dec(knockout).minus('0.01'));
}

/** True for an index price the practice controls accept: a decimal within (0, 1), 4 places. */
export function isIndexPrice(value: string): boolean {
  if (!/^0\.[0-9]{1,4}$/.test(value)) return false;
  return dec(value).gt(0);
}
