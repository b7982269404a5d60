/**
 * A bet's size as a person types it, read into the plain decimal string the API takes
 * (docs/api.md 2.2), or the sentence that says what to change. The API's own strict reading
 * (`readSizing` in src/shared/api/leg.ts) stays as it is: this is the slip's reading of a person.
 *
 * Taken, because it can mean one thing only: leading zeros (`00012`), a lone decimal point at
 * either end (`.5`, `5.`), digit groups in the user's locale (`12,000` in English, `12.000` in
 * German, `1 000` anywhere), and digits of any script (full-width `１２`, Arabic-Indic `١٢`).
 * Refused, each with its own sentence: an exponent (`1e9`), a fraction of a contract, a dollar
 * amount beyond the cent (`5.555`: shown as $5.56, it would not be what was sent), groups that
 * could mean two numbers (`1,5` where `,` groups digits), zero or less, and more digits than the
 * API takes. Nothing is cut: a size too long is named, not shortened.
 */
import { LEG_LIMITS } from '../../../shared/api/leg.js';
import { dec, Dec } from '../../../shared/money.js';

export type SizeUnit = 'BASE' | 'QUOTE';

export type SizeReading =
  | {
      ok: true;
      /** The size as the API takes it: digits, and a fraction only for dollars. */
      qty: string;
      /** True when `qty` is written differently from what was typed (so the slip says so). */
      rewritten: boolean;
    }
  | { ok: false; problem: string };

/** The user's decimal point and digit-group mark (`Intl`), e.g. `.` and `,` in English. */
export interface Separators {
  decimal: string;
  group: string;
}

export function separatorsOf(locale?: string): Separators {
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(12345.6);
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  const group = parts.find((p) => p.type === 'group')?.value ?? ',';
  return { decimal: plain(decimal), group: plain(group) };
}

/** The user's own separators, read once. */
let userSeparators: Separators | undefined;

/** Spaces of every kind are one space; other marks as NFKC makes them. */
function plain(mark: string): string {
  const m = mark.normalize('NFKC');
  return /^\s$/u.test(m) ? ' ' : m;
}

const DIGIT = /\p{Nd}/u;

/**
 * Digits of every script as ASCII. Unicode's decimal digits come in runs of ten from zero, so a
 * digit's value is its distance from the start of its run, modulo ten.
 */
function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (d) => {
    const cp = d.codePointAt(0) ?? 0;
    if (cp < 0x80) return d;
    let start = cp;
    while (DIGIT.test(String.fromCodePoint(start - 1))) start--;
    return String((cp - start) % 10);
  });
}

function normalised(text: string): string {
  return asciiDigits(text.normalize('NFKC'))
    .replace(/\u066B/g, '.') // Arabic decimal separator
    .replace(/\u066C/g, ',') // Arabic thousands separator
    .replace(/[\u2212\u2012\u2013\uFE63]/g, '-')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/gu, ' ')
    .trim();
}

function fail(problem: string): SizeReading {
  return { ok: false, problem };
}

function escape(mark: string): string {
  return mark.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text` as a size in `unit` (BASE: contracts, QUOTE: dollars), or null when nothing is typed.
 * `seps` are the user's separators (the browser's locale unless a test says otherwise).
 */
export function readSize(
  text: string,
  unit: SizeUnit,
  seps: Separators = (userSeparators ??= separatorsOf()),
): SizeReading | null {
  let t = normalised(text);
  if (t === '') return null;
  const dollars = unit === 'QUOTE';
  const example = dollars ? `25 or 12${seps.decimal}50` : '25';
  if (dollars) t = t.replace(/^\$\s?|\s?\$$/g, '');
  if (t.startsWith('-')) return fail('A size cannot be negative: enter more than zero.');
  if (t.startsWith('+')) t = t.slice(1);
  if (/^[\d.,]*\d[.,]?\d*e[+-]?\d+$/i.test(t)) {
    return fail(`Write the number out in full, without an exponent (“e”): like ${example}.`);
  }
  if (!/^[\d.,' ]+$/.test(t) || !/\d/.test(t)) return fail(`Enter a number, like ${example}.`);

  // The decimal point is the locale's; every other mark may only group digits in threes.
  const point = t.lastIndexOf(seps.decimal);
  const whole = point < 0 ? t : t.slice(0, point);
  const fraction = point < 0 ? '' : t.slice(point + 1);
  if (!/^\d*$/.test(fraction)) return fail(unclear(seps, example));
  let digits = whole;
  if (!/^\d*$/.test(whole)) {
    const marks = [...new Set(whole.replace(/\d/g, ''))];
    const mark = marks.length === 1 ? (marks[0] ?? '') : '';
    const grouped =
      [seps.group, ' ', "'"].includes(mark) &&
      mark !== seps.decimal &&
      new RegExp(`^\\d{1,3}(${escape(mark)}\\d{3})+$`).test(whole);
    if (!grouped) return fail(unclear(seps, example));
    digits = whole.replace(/\D/g, '');
  }
  if (digits === '' && fraction === '') return fail(`Enter a number, like ${example}.`);

  const int = digits.replace(/^0+(?=\d)/, '') || '0';
  const frac = fraction.replace(/0+$/, '');
  const qty = frac === '' ? int : `${int}.${frac}`;
  if (!/[1-9]/.test(qty)) return fail('Enter more than zero.');
  if (qty.length > LEG_LIMITS.qty) {
    return fail(`Too large: the most is ${LEG_LIMITS.qty} digits.`);
  }
  if (!dollars && frac !== '') {
    const below = dec(qty).floor();
    const options = below.isZero() ? '1' : `${below.toFixed(0)} or ${below.plus(1).toFixed(0)}`;
    return fail(`Whole contracts only: enter ${options}.`);
  }
  if (dollars && frac.length > 2) {
    const down = dec(qty).toDecimalPlaces(2, Dec.ROUND_DOWN).toFixed(2);
    const up = dec(qty).toDecimalPlaces(2, Dec.ROUND_UP).toFixed(2);
    const options = dec(down).isZero() ? up : `${down} or ${up}`;
    return fail(`Dollars go to the cent: enter ${options}.`);
  }
  return { ok: true, qty, rewritten: qty !== text.trim() };
}

function unclear(seps: Separators, example: string): string {
  const group = seps.group === ' ' ? 'a space' : `“${seps.group}”`;
  return `Unclear number: use “${seps.decimal}” for the decimal point and ${group} (or nothing) between groups of three digits, like ${example}.`;
}
