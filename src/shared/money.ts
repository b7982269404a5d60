/**
 * The one money module. Amounts in USD, prices and percentages cross every boundary as decimal
 * strings; arithmetic happens here on decimal.js values, never on JavaScript floats.
 */
import Decimal from 'decimal.js';

/** A private Decimal constructor so no other module's global settings can change our rounding. */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
export type Dec = InstanceType<typeof Dec>;

export type DecimalInput = string | number | Dec;

/** A plain decimal string: optional minus, digits, optional fraction. No exponent, no sign "+". */
export const DECIMAL_PATTERN = '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$';
const decimalRe = new RegExp(DECIMAL_PATTERN);

/** True when `s` is a decimal string this API accepts ("12", "0.50", "-3.1"). */
export function isDecimalString(s: string): boolean {
  return decimalRe.test(s);
}

export function dec(value: DecimalInput): Dec {
  return new Dec(value);
}

/** Dollars: 2 places, half-even ("banker's") rounding. */
export const USD_PLACES = 2;
/** Prices and percentages: 4 places. */
export const PRICE_PLACES = 4;

export function usd(value: DecimalInput, rounding: Decimal.Rounding = Dec.ROUND_HALF_EVEN): string {
  return dec(value).toFixed(USD_PLACES, rounding);
}

export function price(
  value: DecimalInput,
  rounding: Decimal.Rounding = Dec.ROUND_HALF_EVEN,
): string {
  return dec(value).toFixed(PRICE_PLACES, rounding);
}

/** Rounds up to the cent: what is debited from the bettor is never rounded in their favour. */
export function usdCeil(value: DecimalInput): string {
  return usd(value, Dec.ROUND_CEIL);
}

/** Rounds down to the cent: what is paid out is never rounded in the bettor's favour either. */
export function usdFloor(value: DecimalInput): string {
  return usd(value, Dec.ROUND_FLOOR);
}

export function add(...values: DecimalInput[]): string {
  return values.reduce<Dec>((sum, v) => sum.plus(v), dec(0)).toString();
}

export function sub(a: DecimalInput, b: DecimalInput): string {
  return dec(a).minus(b).toString();
}

export function cmp(a: DecimalInput, b: DecimalInput): -1 | 0 | 1 {
  return dec(a).comparedTo(b) as -1 | 0 | 1;
}

export function isZero(a: DecimalInput): boolean {
  return dec(a).isZero();
}

/** Formats a decimal string for people: thousands separators, fixed places, no float round trip. */
export function formatUsd(value: DecimalInput): string {
  const d = dec(value);
  const [int = '0', frac = '00'] = d.abs().toFixed(USD_PLACES).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${d.isNegative() && !d.isZero() ? '-' : ''}$${grouped}.${frac}`;
}

/** Millionths of a dollar in one dollar: the USDC unit, the finest amount the exchange settles. */
export const MICROS_PER_USD = 1_000_000;
const MICRO_PLACES = 6;
const plainDecimalRe = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * An amount in whole micro-dollars, by string arithmetic (no float ever holds the amount), for
 * exact integer sums in SQLite. Places beyond the sixth are rounded half-even at the sixth: the
 * USDC unit is the finest the exchange can move, and the stored row keeps its exact string for
 * display and export.
 * @throws RangeError when `s` is not a decimal string or the result is not a safe integer.
 */
export function toMicros(s: string): number {
  const m = plainDecimalRe.exec(s);
  if (m === null) throw new RangeError(`"${s}" is not a decimal amount.`);
  const [, sign = '', int = '0', frac = ''] = m;
  let n = Number(int + frac.slice(0, MICRO_PLACES).padEnd(MICRO_PLACES, '0'));
  if (frac.length > MICRO_PLACES && roundsUp(frac.slice(MICRO_PLACES), n)) n += 1;
  // Number() of a digit string is exact up to 2^53 and lands at 2^53 or above past it.
  if (!Number.isSafeInteger(n)) throw new RangeError(`${s} dollars is too large to sum exactly.`);
  return sign === '-' && n !== 0 ? -n : n;
}

/** Half-even on the digits past the sixth place, given the amount kept so far (`kept`). */
function roundsUp(rest: string, kept: number): boolean {
  const first = rest.charCodeAt(0) - 48;
  if (first !== 5) return first > 5;
  if (/[1-9]/.test(rest.slice(1))) return true;
  return kept % 2 === 1;
}

/**
 * The exact decimal string of an amount in micro-dollars: "12.34", "-0.5", "0" (no trailing
 * zeros, no exponent).
 * @throws RangeError when `n` is not a safe integer.
 */
export function fromMicros(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${n} is not a whole number of micros.`);
  const digits = String(Math.abs(n)).padStart(MICRO_PLACES + 1, '0');
  const int = digits.slice(0, -MICRO_PLACES);
  const frac = digits.slice(-MICRO_PLACES).replace(/0+$/, '');
  return `${n < 0 ? '-' : ''}${int}${frac === '' ? '' : `.${frac}`}`;
}
