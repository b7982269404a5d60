/**
 * The date filter of History and Orders: a named period ("Today", "Last 7 days", "This year") or
 * custom dates, turned into the half-open range [from, to) of ms the bridge takes. Days are the
 * user's own: every bound is a local midnight (the Date constructor finds it, DST included).
 */

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

/** Local midnight `days` days after the day of `ms`. */
export function dayStart(ms: number, days = 0): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days).getTime();
}

/** "2026-03-01" (as a date input gives it) -> that day's local midnight; null when not a date. */
export function localMidnight(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  if (y < 1970) return null;
  const t = new Date(y, mo, d);
  if (t.getFullYear() !== y || t.getMonth() !== mo || t.getDate() !== d) return null;
  return t.getTime();
}

/** The local date of `ms` as a date input shows it: "2026-03-01". */
export function dateInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
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
      const from = customFrom ? localMidnight(customFrom) : undefined;
      const last = customTo ? localMidnight(customTo) : undefined;
      if (from === null) return { problem: 'The start date is not a date; use the date picker.' };
      if (last === null) return { problem: 'The end date is not a date; use the date picker.' };
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
