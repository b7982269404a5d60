/** How the screens show numbers and times: money through the money module, never through floats. */
import { formatUsd, isDecimalString } from '../../../shared/money.js';

/** "$1,234.50" from a decimal string; a dash when absent. */
export function money(value: string | undefined): string {
  return value !== undefined && isDecimalString(value) ? formatUsd(value) : '—';
}

/** A price or index as the exchange sent it ("0.5123"); a dash when absent. */
export function priceText(value: string | undefined): string {
  return value ?? '—';
}

export function count(value: number | undefined): string {
  return value === undefined ? '—' : new Intl.NumberFormat().format(value);
}

const kickOffFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

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

/** "+120 ms", "−3 ms". */
export function offset(ms: number): string {
  return `${ms >= 0 ? '+' : '−'}${new Intl.NumberFormat().format(Math.abs(ms))} ms`;
}
