/**
 * The days a date filter (History, Orders) may name: any a date picker offers, from 1 January
 * of year 1 to 31 December 9999 (a four-digit year, as `<input type="date">` shows it). Their
 * local midnights are negative ms before 1970: the bridge takes them as they are, and a store
 * that holds nothing so old simply matches nothing before its first row.
 */

export const EARLIEST_DAY = '0001-01-01';
export const LATEST_DAY = '9999-12-31';

const DAY_MS = 86_400_000;

/**
 * The ms the bridge accepts for a filter's bounds: UTC midnight of the first day and of the day
 * after the last, a day's margin either side for the zone of whoever filters (local mean time
 * before 1900 strays past UTC's ±14 h in a few zones).
 */
export const EARLIEST_FILTER_MS = -62_135_596_800_000 - DAY_MS; // 0001-01-01T00:00Z - 1 day
export const LATEST_FILTER_MS = 253_402_300_800_000 + DAY_MS; // 10000-01-01T00:00Z + 1 day
