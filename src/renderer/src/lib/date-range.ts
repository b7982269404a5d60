/**
 * The date filter of History and Orders: a named period ("Today", "Last 7 days", "This year") or
 * custom dates, turned into the half-open range [from, to) of ms the bridge takes. Days are the
 * user's own: every bound is a local midnight (the Date constructor finds it, DST included).
 * Custom days run from EARLIEST_DAY to LATEST_DAY (src/shared/rules/date-filter.ts), the range
 * the bridge accepts too.
 */
import { LATEST_DAY } from '../../../shared/rules/date-filter.js';

export const RANGE_PRESETS = ['all', 'today', '7d', '30d', 'year', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const RANGE_WORDS: Record<RangePreset, string> = {
  all: 'All time',
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  year: 'This year',
  custom: 'Custom dates',
};

/** from inclusive, to exclusive; an absent bound is open. */
export interface Bounds {
  from?: number;
  to?: number;
}

/** Local midnight `days` days after the day of `ms` (any year: see localMidnight). */
export function dayStart(ms: number, days = 0): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() + days);
  return d.getTime();
}

/**
 * "2026-03-01" (as a date input gives it) -> that day's local midnight; null when not a date.
 * Any year a date picker offers, 0001 on (negative ms before 1970); `setFullYear`, because the
 * Date constructor reads years 0–99 as 1900–1999.
 */
export function localMidnight(date: string): number | null {
  const m = /^(\d{4,})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  if (y < 1) return null;
  const t = new Date(2000, 0, 1);
  t.setFullYear(y, mo, d);
  if (t.getFullYear() !== y || t.getMonth() !== mo || t.getDate() !== d) return null;
  return t.getTime();
}

/** The local date of `ms` as a date input shows it: "2026-03-01", "0900-01-01". */
export function dateInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A custom day's local midnight (undefined when none is given), or why it cannot be one. */
function customDay(which: 'start' | 'end', date: string): { ms?: number } | { problem: string } {
  if (!date) return {};
  const ms = localMidnight(date);
  if (ms === null) return { problem: `The ${which} date is not a date; use the date picker.` };
  if (ms > (localMidnight(LATEST_DAY) ?? Infinity)) {
    return { problem: `The ${which} date is after 31 Dec 9999, the latest allowed.` };
  }
  return { ms };
}

/**
 * The bounds of a period at `now`. The named periods end at tomorrow's midnight, so today's
 * settlements are always in; custom dates include both days given.
 */
export function rangeBounds(
  preset: RangePreset,
  customFrom: string,
  customTo: string,
  now: number,
): { bounds: Bounds } | { problem: string } {
  switch (preset) {
    case 'all':
      return { bounds: {} };
    case 'today':
      return { bounds: { from: dayStart(now), to: dayStart(now, 1) } };
    case '7d':
      return { bounds: { from: dayStart(now, -6), to: dayStart(now, 1) } };
    case '30d':
      return { bounds: { from: dayStart(now, -29), to: dayStart(now, 1) } };
    case 'year': {
      const y = new Date(now).getFullYear();
      return { bounds: { from: new Date(y, 0, 1).getTime(), to: new Date(y + 1, 0, 1).getTime() } };
    }
    case 'custom': {
      const start = customDay('start', customFrom);
      if ('problem' in start) return start;
      const end = customDay('end', customTo);
      if ('problem' in end) return end;
      const [from, last] = [start.ms, end.ms];
      if (from !== undefined && last !== undefined && from > last) {
        return { problem: 'The start date is after the end date.' };
      }
      return {
        bounds: {
          ...(from !== undefined ? { from } : {}),
          ...(last !== undefined ? { to: dayStart(last, 1) } : {}),
        },
      };
    }
  }
}
