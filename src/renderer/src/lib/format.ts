/** How the screens show numbers and times: money through the money module, never through floats. */
import { cmp, dec, formatUsd, isDecimalString, type Dec } from '../../../shared/money.js';

/** "$1,234.50" from a decimal string; a dash when absent. */
export function money(value: string | null | undefined): string {
  return value !== undefined && value !== null && isDecimalString(value) ? formatUsd(value) : '—';
}

/** "+$12.00", "−$3.40", "$0.00": the sign always written, with a real minus sign. */
export function signedMoney(value: string): string {
  const sign = cmp(value, 0);
  const text = formatUsd(dec(value).abs());
  return sign > 0 ? `+${text}` : sign < 0 ? `−${text}` : text;
}

/** What a P&L means in words, so it never rests on colour: "profit", "loss", "even". */
export function pnlWord(value: string): 'profit' | 'loss' | 'even' {
  const sign = cmp(value, 0);
  return sign > 0 ? 'profit' : sign < 0 ? 'loss' : 'even';
}

/** "1234567" -> "1,234,567", from the decimal string itself (no float on the way). */
export function digits(value: string): string {
  const [int = '', frac] = value.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** A price or index as the exchange sent it ("0.5123"); a dash when absent. */
export function priceText(value: string | null | undefined): string {
  return value ?? '—';
}

const countFormat = new Intl.NumberFormat();

export function count(value: number | null | undefined): string {
  return value === undefined || value === null ? '—' : countFormat.format(value);
}

/** "1 contract", "12,000 contracts"; a count past the safe integers in plain digits. */
export function contractCount(n: Dec | number): string {
  const d = dec(n);
  const figure = d.lte(Number.MAX_SAFE_INTEGER) ? count(d.toNumber()) : d.toFixed(0);
  return `${figure} contract${d.eq(1) ? '' : 's'}`;
}

/** A fraction as a percentage: "0.0431" -> "4.31 %"; with `signed`, "+4.31 %". */
export function fractionPercent(fraction: string, signed = false): string {
  const p = dec(fraction).times(100);
  const text = `${p.abs().toFixed(2)} %`;
  if (p.isNegative() && !p.isZero()) return `−${text}`;
  return signed && !p.isZero() ? `+${text}` : text;
}

/** A percentage the exchange sends as a number of percent ("12.5") -> "+12.50 %". */
export function percentText(percent: string): string {
  const p = dec(percent);
  const text = `${p.abs().toFixed(2)} %`;
  return p.isNegative() && !p.isZero() ? `−${text}` : p.isZero() ? text : `+${text}`;
}

const kickOffFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

const shortKickOffFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/** Kick-off in the user's own time zone, short, for dense tables (the full one is its title). */
export function shortKickOff(ms: number): string {
  return shortKickOffFormat.format(new Date(ms));
}

/** Kick-off in the user's own time zone. */
export function kickOff(ms: number): string {
  return kickOffFormat.format(new Date(ms));
}

const clockFormat = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

export function clockTime(ms: number): string {
  return clockFormat.format(new Date(ms));
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** "26 Nov, 14:03:09": a time on the blotter or the alert list. */
export function dateTime(ms: number): string {
  return dateTimeFormat.format(new Date(ms));
}

const settledFormat = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** "30 Dec 2024, 22:57:52": a time in the history, which spans years. */
export function settledTime(ms: number): string {
  return settledFormat.format(new Date(ms));
}

/** "+120 ms", "−3 ms". */
export function offset(ms: number): string {
  return `${ms >= 0 ? '+' : '−'}${new Intl.NumberFormat().format(Math.abs(ms))} ms`;
}

/** "just now", "3 s ago", "2 min ago", "1 h ago". */
export function ago(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 1) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}

/** "ARS v CHE". */
export function fixtureName(f: { homeTeam: string; awayTeam: string }): string {
  return `${f.homeTeam} v ${f.awayTeam}`;
}
