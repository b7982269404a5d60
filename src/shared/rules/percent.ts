/**
 * Alert levels and margins travel as fractions ("0.05"); people read and type them as
 * percentages ("5"). Decimal math only.
 */
import { dec, isDecimalString } from '../money.js';

/** "0.05" -> "5", "0.125" -> "12.5". */
export function fractionToPercent(fraction: string): string {
  return dec(fraction).times(100).toString();
}

/**
 * "5" -> "0.05"; null unless it is a percentage strictly between 0 and 100 with at most two
 * decimal places (the contract takes a fraction of one to four places).
 */
export function percentToFraction(percent: string): string | null {
  const p = percent.trim().replace(/\s*%$/, '');
  if (!isDecimalString(p)) return null;
  const d = dec(p);
  if (d.lte(0) || d.gte(100) || d.decimalPlaces() > 2) return null;
  return d.div(100).toFixed();
}
