/**
 * Counting a filter's settlements and locating a deep offset without stepping over a million
 * index entries: both cost one step per row in SQLite, so for the filters a rollup keeps (none,
 * a date range, a type, a league) the total is a sum over days, and a deep offset first finds
 * the day it falls in, then skips only inside that day.
 *
 * The whole history's days are settlement_day_counts; a league's are its slots
 * (settlement_league_slots, 96 to a UTC day). Partial days at a range's edges are counted from
 * the rows; a contract's or a team's rows are always counted themselves (few enough).
 */
import type { StatementCache } from '../connection.js';
import {
  DAY_MS,
  filteredSettlements,
  rollupOf,
  slotSource,
  type Rollup,
  type SettlementFilter,
} from './settlement-filter.js';

const NO_END = Number.MAX_SAFE_INTEGER;
/** Days per step of the first, coarse walk that locates a deep offset. */
const LOCATE_BLOCK_DAYS = 32;
const SLOTS_PER_DAY = 96;

/** Where the row at `offset` is: every row before it is at or after `before`, but `skip`. */
export interface Located {
  before?: number;
  skip: number;
}

/** Index of the first UTC day wholly inside [from, ...) and one past the last inside [..., to). */
function fullDays(from: number, to: number): { first: number; end: number } {
  return { first: Math.ceil(from / DAY_MS), end: Math.floor(to / DAY_MS) };
}

/**
 * A rollup read as rows per day: `FROM ... WHERE ...` of the account (league, type), the
 * expression of a row's day, and the column and factor a day range is given in.
 */
interface DaySource {
  from: string;
  params: unknown[];
  day: string;
  column: string;
  perDay: number;
}

function daySource(accountId: number, rollup: Rollup, f: SettlementFilter): DaySource {
  if (rollup.kind === 'league') {
    const src = slotSource(accountId, rollup, f.type);
    return {
      from: src.sql,
      params: src.params,
      day: `slot / ${SLOTS_PER_DAY}`,
      column: 'slot',
      perDay: SLOTS_PER_DAY,
    };
  }
  const typeTerm = f.type === undefined ? '' : ' AND type = ?';
  return {
    from: `FROM settlement_day_counts WHERE account_id = ?${typeTerm}`,
    params: f.type === undefined ? [accountId] : [accountId, f.type],
    day: 'day',
    column: 'day',
    perDay: 1,
  };
}

export class SettlementCounts {
  readonly #sql: StatementCache;

  constructor(sql: StatementCache) {
    this.#sql = sql;
  }

  /** The number of settlements matching `f` (range already clamped, not empty). */
  count(accountId: number, f: SettlementFilter): number {
    const rollup = rollupOf(f);
    if (rollup === null) return this.countRows(accountId, f);
    const from = f.from ?? 0;
    const days = fullDays(from, f.to ?? NO_END);
    if (days.first >= days.end) return this.countRows(accountId, f); // within two days
    const src = daySource(accountId, rollup, f);
    let n = this.#sumDays(src, days.first, days.end);
    if (f.to !== undefined && f.to > days.end * DAY_MS) {
      n += this.countRows(accountId, { ...f, from: days.end * DAY_MS });
    }
    if (f.from !== undefined && f.from < days.first * DAY_MS) {
      n += this.countRows(accountId, { ...f, to: days.first * DAY_MS });
    }
    return n;
  }

  /** Counts the rows themselves, on the index that reads the filter. */
  countRows(accountId: number, f: SettlementFilter): number {
    const rows = filteredSettlements(accountId, f);
    return this.#sql
      .get(`SELECT count(*) FROM ${rows.sql}`)
      .pluck()
      .get(...rows.params) as number;
  }

  /**
   * Where the row at `offset` (newest first) lies, for a filter a rollup keeps; null for one it
   * does not. Walks the head partial day, then whole days by their counts (a block of days,
   * then its day), then leaves the tail partial day to the page query.
   */
  locate(accountId: number, f: SettlementFilter, offset: number): Located | null {
    const rollup = rollupOf(f);
    if (rollup === null) return null;
    const from = f.from ?? 0;
    const days = fullDays(from, f.to ?? NO_END);
    if (days.first >= days.end) return { before: f.to, skip: offset };

    let skip = offset;
    if (f.to !== undefined && f.to > days.end * DAY_MS) {
      const head = this.countRows(accountId, { ...f, from: days.end * DAY_MS });
      if (skip < head) return { before: f.to, skip };
      skip -= head;
    }
    // Newest first: the block of LOCATE_BLOCK_DAYS days the offset falls in, then its day.
    // A window function over every day (or a walk over them in JS) measured several times this.
    const src = daySource(accountId, rollup, f);
    let seen = 0; // rows on the days newer than the one looked at
    let hit: number | undefined;
    for (const [block, n] of this.#perDay(src, LOCATE_BLOCK_DAYS, days.first, days.end)) {
      if (seen + n > skip) {
        hit = block;
        break;
      }
      seen += n;
    }
    if (hit !== undefined) {
      const first = Math.max(days.first, hit * LOCATE_BLOCK_DAYS);
      const end = Math.min(days.end, (hit + 1) * LOCATE_BLOCK_DAYS);
      for (const [day, n] of this.#perDay(src, 1, first, end)) {
        if (seen + n > skip) return { before: (day + 1) * DAY_MS, skip: skip - seen };
        seen += n;
      }
    }
    return { before: days.first * DAY_MS, skip: skip - seen };
  }

  #sumDays(src: DaySource, first: number, end: number): number {
    return this.#sql
      .get(`SELECT coalesce(sum(n), 0) ${src.from} AND ${src.column} >= ? AND ${src.column} < ?`)
      .pluck()
      .get(...src.params, first * src.perDay, end * src.perDay) as number;
  }

  /** Rows per group of `days` days, newest first, as [group, rows]; read whole (small). */
  #perDay(src: DaySource, days: number, first: number, end: number): [number, number][] {
    return this.#sql
      .get(
        `SELECT ${src.day} / ${days} AS grp, sum(n) ${src.from}
           AND ${src.column} >= ? AND ${src.column} < ?
         GROUP BY grp ORDER BY grp DESC`,
      )
      .raw(true)
      .all(...src.params, first * src.perDay, end * src.perDay) as [number, number][];
  }
}
