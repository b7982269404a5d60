/**
 * What the history's filters mean in SQL, and which index reads each one. Shared by the page,
 * the count, the slot totals and the export, so the four always agree on what a filter matches.
 */
import type { SettlementType } from '../../../shared/api/schemas.js';

export const DAY_MS = 86_400_000;

export interface SettlementFilter {
  /** Settled at or after this time (ms since epoch). */
  from?: number;
  /** Settled before this time (ms since epoch, exclusive). */
  to?: number;
  type?: SettlementType;
  contractId?: string;
  /** The team the bet was on (its outcome). */
  team?: string;
  /**
   * The league of the fixture as the account's store has it, any letter case (fixtures the
   * store does not know never match).
   */
  league?: string;
}

/**
 * time: newest first. pnl: largest realized P&L first, rows whose realized P&L is unknown last,
 * then newest first.
 */
export type SettlementSort = 'time' | 'pnl';

export const TIME_ORDER = 'timestamp_ms DESC, id DESC';
export const PNL_ORDER = 'realized_micros DESC, timestamp_ms DESC, id DESC';
/** PNL_ORDER backwards (SQLite puts NULLs first ascending, last descending). */
export const PNL_ORDER_REVERSED = 'realized_micros, timestamp_ms, id';

export interface Where {
  sql: string;
  params: unknown[];
}

/**
 * The WHERE clause of a filter; `t` prefixes the columns when the query joins (`'s.'`).
 * `time` is how the time range names its column: '+timestamp_ms' keeps SQLite from seeking the
 * range through a skip-scan of an index that is meant to be read in order (the P&L indexes).
 */
export function settlementWhere(
  accountId: number,
  f: SettlementFilter,
  t = '',
  time = `${t}timestamp_ms`,
): Where {
  const terms = [`${t}account_id = ?`];
  const params: unknown[] = [accountId];
  if (f.contractId !== undefined) {
    terms.push(`${t}contract_id = ?`);
    params.push(f.contractId.toUpperCase());
  }
  if (f.league !== undefined) {
    terms.push(
      `${t}contract_id IN (SELECT contract_id FROM fixtures
        WHERE account_id = ? AND league = ? COLLATE NOCASE)`,
    );
    params.push(accountId, f.league);
  }
  if (f.team !== undefined) {
    terms.push(`${t}outcome = ?`);
    params.push(f.team.toUpperCase());
  }
  if (f.type !== undefined) {
    terms.push(`${t}type = ?`);
    params.push(f.type);
  }
  if (f.from !== undefined) {
    terms.push(`${time} >= ?`);
    params.push(f.from);
  }
  if (f.to !== undefined) {
    terms.push(`${time} < ?`);
    params.push(f.to);
  }
  return { sql: terms.join(' AND '), params };
}

/**
 * The rollup that counts and sums a filter's rows (migration 004): the account's day counts
 * and slots, a league's slots, or none for a contract or a team, which narrow the history to a
 * few thousand rows that are read themselves through their own indexes.
 */
export type Rollup = { kind: 'all' } | { kind: 'league'; league: string };

export function rollupOf(f: SettlementFilter): Rollup | null {
  if (f.contractId !== undefined || f.team !== undefined) return null;
  return f.league === undefined ? { kind: 'all' } : { kind: 'league', league: f.league };
}

/**
 * `FROM <slots table> WHERE ...` for the rollup's slots of the account (and type); callers add
 * a slot range. settlement_slots and settlement_league_slots have the same slot columns.
 */
export function slotSource(accountId: number, rollup: Rollup, type?: SettlementType): Where {
  const params: unknown[] = [accountId];
  let sql = 'FROM settlement_slots WHERE account_id = ?';
  if (rollup.kind === 'league') {
    sql = 'FROM settlement_league_slots WHERE account_id = ? AND league = ?';
    params.push(rollup.league);
  }
  if (type !== undefined) {
    sql += ' AND type = ?';
    params.push(type);
  }
  return { sql, params };
}

/**
 * The settlements a filter matches, for after FROM: the table read on the index that yields them
 * newest first (timeIndex), and the filter's WHERE.
 */
export function filteredSettlements(accountId: number, f: SettlementFilter): Where {
  const w = settlementWhere(accountId, f);
  return { sql: `settlements INDEXED BY ${timeIndex(f)} WHERE ${w.sql}`, params: w.params };
}

/**
 * The index that yields the filter's rows newest first. A league walks the time index and looks
 * each row's contract up: a page needs a few hundred rows, and a deep one is located first
 * through the league's slots.
 */
export function timeIndex(f: SettlementFilter): string {
  if (f.contractId !== undefined) return 'settlements_by_contract';
  if (f.team !== undefined) {
    return f.type === undefined ? 'settlements_by_outcome' : 'settlements_by_outcome_type';
  }
  return f.type === undefined ? 'settlements_by_time' : 'settlements_by_type';
}

/**
 * The index that yields the filter's rows largest P&L first (a league's contract included);
 * null when the filter's rows are few (a contract, a team) and are better sorted than walked.
 */
export function pnlIndex(f: SettlementFilter): string | null {
  if (f.contractId !== undefined || f.team !== undefined) return null;
  return f.type === undefined ? 'settlements_by_pnl' : 'settlements_by_type_pnl';
}

/** Times before 1970 match nothing stored; dropping them keeps the day arithmetic simple. */
export function clampRange<F extends SettlementFilter>(f: F): F {
  if (f.from === undefined || f.from >= 0) return f;
  return { ...f, from: 0 };
}

/** True when the range cannot hold a row. */
export function isEmptyRange(f: SettlementFilter): boolean {
  return f.from !== undefined && f.to !== undefined && f.to <= f.from;
}
