/**
 * Equity over time (docs/portfolio.md): a point per account at every positions read, summing the
 * open positions of that snapshot, thinned as it ages; and the realized P&L the equity curve adds
 * to it, read from the settlement slots (migration 004) so a year of history is a few thousand
 * integer sums, never a million rows.
 *
 * Thinning keeps every read for 2 days, the last of each 15 minutes to 90 days and the last of
 * each UTC day beyond. It runs on each record over only the buckets that crossed an age line
 * since the account's previous point, so its work is bounded by the time between two reads (or
 * the time the app was closed), and the table by ~2 days of reads + 8,448 + a point a day.
 */
import type { Position } from '../../../shared/api/schemas.js';
import { toMicros } from '../../../shared/money.js';
import { unrealizedMicros } from '../../../shared/rules/unrealized.js';
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';
import { SLOT_MS } from './settlement-slots.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Every read is kept this long. */
export const EQUITY_RAW_MS = 2 * DAY_MS;
/** Then the last point of each EQUITY_FINE_STEP_MS, up to this age. */
export const EQUITY_FINE_MS = 90 * DAY_MS;
export const EQUITY_FINE_STEP_MS = 15 * MINUTE_MS;
/** Older points: the last of each UTC day. */
export const EQUITY_COARSE_STEP_MS = DAY_MS;

/** One snapshot's open positions added up; amounts in whole micro-dollars. */
export interface EquitySums {
  positions: number;
  unrealizedMicros: number;
  costBasisMicros: number;
  maxPayoutMicros: number;
  valueMicros: number;
}

export interface EquityPointRecord extends EquitySums {
  at: number;
}

/** Realized P&L per step (see realizedSteps), micros. */
export interface RealizedSteps {
  /** Realized before the series starts: every slot that ended by `from`. */
  beforeMicros: number;
  /** Sums of the slots that end in each step (k ≥ 1), ascending by k. */
  steps: { k: number; micros: number }[];
}

export function sumPositions(positions: readonly Position[]): EquitySums {
  const sums: EquitySums = {
    positions: positions.length,
    unrealizedMicros: 0,
    costBasisMicros: 0,
    maxPayoutMicros: 0,
    valueMicros: 0,
  };
  for (const p of positions) {
    sums.unrealizedMicros += unrealizedMicros(p);
    sums.costBasisMicros += toMicros(p.costBasis);
    sums.maxPayoutMicros += toMicros(p.maxPayout);
    sums.valueMicros += toMicros(p.value);
  }
  return sums;
}

type PointRow = [number, number, number, number, number, number];

function toPoint(r: PointRow): EquityPointRecord {
  return {
    at: r[0],
    positions: r[1],
    unrealizedMicros: r[2],
    costBasisMicros: r[3],
    maxPayoutMicros: r[4],
    valueMicros: r[5],
  };
}

const POINT_COLUMNS = 'at, positions, unrealized, cost_basis, max_payout, value';
// better-sqlite3 binds JS numbers as REAL: every bound value used in integer arithmetic is cast.
const int = (name: string) => `CAST(@${name} AS INTEGER)`;

export class EquityRepo {
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  /**
   * Records the account's snapshot at `at` (a second one at the same ms replaces it) and thins
   * what aged past a line since the previous point. Call inside the snapshot's transaction.
   */
  record(accountId: number, at: number, sums: EquitySums): void {
    const prev = this.#sql
      .get('SELECT max(at) FROM equity_points WHERE account_id = ?')
      .pluck()
      .get(accountId) as number | null;
    this.#sql
      .get(
        `INSERT OR REPLACE INTO equity_points (account_id, ${POINT_COLUMNS})
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        accountId,
        at,
        sums.positions,
        sums.unrealizedMicros,
        sums.costBasisMicros,
        sums.maxPayoutMicros,
        sums.valueMicros,
      );
    if (prev === null || at <= prev) return;
    this.#thin(accountId, prev - EQUITY_RAW_MS, at - EQUITY_RAW_MS, EQUITY_FINE_STEP_MS);
    this.#thin(accountId, prev - EQUITY_FINE_MS, at - EQUITY_FINE_MS, EQUITY_COARSE_STEP_MS);
  }

  /** Keeps the last point of each whole `step` bucket in [fromAge, toAge), rounded down to steps. */
  #thin(accountId: number, fromAge: number, toAge: number, step: number): void {
    const start = Math.floor(fromAge / step) * step;
    const end = Math.floor(toAge / step) * step;
    if (end <= start) return;
    const inRange = `account_id = @account AND at >= ${int('start')} AND at < ${int('end')}`;
    this.#sql
      .get(
        `DELETE FROM equity_points WHERE ${inRange} AND at NOT IN (
           SELECT max(at) FROM equity_points WHERE ${inRange} GROUP BY at / ${int('step')})`,
      )
      .run({ account: accountId, start, end, step });
  }

  /** The account's points in [from, to], oldest first (tests, diagnostics). */
  list(accountId: number, from = 0, to = Number.MAX_SAFE_INTEGER): EquityPointRecord[] {
    const rows = this.#sql
      .get(
        `SELECT ${POINT_COLUMNS} FROM equity_points
         WHERE account_id = ? AND at >= ? AND at <= ? ORDER BY at`,
      )
      .raw(true)
      .all(accountId, from, to) as PointRow[];
    return rows.map(toPoint);
  }

  /** The account's point in force at `at` (the last one at or before it). */
  inForce(accountId: number, at: number): EquityPointRecord | undefined {
    const row = this.#sql
      .get(
        `SELECT ${POINT_COLUMNS} FROM equity_points WHERE account_id = ? AND at <= ?
         ORDER BY at DESC LIMIT 1`,
      )
      .raw(true)
      .get(accountId, at) as PointRow | undefined;
    return row === undefined ? undefined : toPoint(row);
  }

  /** The account's first point's time; null when it has none. */
  firstAt(accountId: number): number | null {
    return this.#sql
      .get('SELECT min(at) FROM equity_points WHERE account_id = ?')
      .pluck()
      .get(accountId) as number | null;
  }

  /**
   * The unrealized P&L in force at `from + k·step` for k = 0..count−1: that of the last point at
   * or before it, 0 before the first. One seek on the key per step, so the cost follows the
   * points asked for, not the points stored (a grouped pass over a year of points measured
   * 50-70 ms; this is a few).
   */
  unrealizedAt(accountId: number, from: number, step: number, count: number): number[] {
    if (count <= 0) return [];
    return this.#sql
      .get(
        `WITH RECURSIVE steps (at) AS (
           SELECT ${int('from')}
           UNION ALL SELECT at + ${int('step')} FROM steps LIMIT ${int('count')})
         SELECT coalesce((SELECT e.unrealized FROM equity_points e
           WHERE e.account_id = @account AND e.at <= steps.at ORDER BY e.at DESC LIMIT 1), 0)
         FROM steps`,
      )
      .pluck()
      .all({ account: accountId, from, step, count }) as number[];
  }

  /** When the account's first settlement's slot starts; null when it has none. */
  firstSettledAt(accountId: number): number | null {
    const slot = this.#sql
      .get('SELECT min(slot) FROM settlement_slots WHERE account_id = ?')
      .pluck()
      .get(accountId) as number | null;
    return slot === null ? null : slot * SLOT_MS;
  }

  /** The account's realized P&L to date: every settlement slot's P&L added up, micros. */
  realizedMicros(accountId: number): number {
    return this.#sql
      .get('SELECT coalesce(sum(pnl_sum), 0) FROM settlement_slots WHERE account_id = ?')
      .pluck()
      .get(accountId) as number;
  }

  /**
   * Realized P&L along a series of steps from `from`: a slot counts at the first step end at or
   * after its own end ((slot + 1)·SLOT_MS), so a point never counts a settlement from after it;
   * a settlement shows at most one slot (15 minutes) late.
   */
  realizedSteps(accountId: number, from: number, step: number): RealizedSteps {
    // A slot ends by `from` when it starts before from's own slot.
    const fromSlot = Math.floor(from / SLOT_MS);
    const beforeMicros = this.#sql
      .get(
        `SELECT coalesce(sum(pnl_sum), 0) FROM settlement_slots
         WHERE account_id = ? AND slot < ?`,
      )
      .pluck()
      .get(accountId, fromSlot) as number;
    // Read in key order (no sort) and bucketed here: a GROUP BY on the step measured 20-30 ms
    // over a year's 20,000 slots.
    const rows = this.#sql
      .get(
        `SELECT slot, sum(pnl_sum) FROM settlement_slots WHERE account_id = ? AND slot >= ?
         GROUP BY slot ORDER BY slot`,
      )
      .raw(true)
      .all(accountId, fromSlot) as [number, number][];
    const steps: RealizedSteps['steps'] = [];
    for (const [slot, micros] of rows) {
      const k = Math.ceil(((slot + 1) * SLOT_MS - from) / step);
      const last = steps.at(-1);
      if (last !== undefined && last.k === k) last.micros += micros;
      else steps.push({ k, micros });
    }
    return { beforeMicros, steps };
  }

  /**
   * The account's settlements whose realized P&L is unknown (left out of realizedMicros). Once
   * realized P&L is stored (`realized_micros`, migration 006): the rows without it. Before: the
   * SETTLEMENT rows, read from their slots (they carry a payout and no P&L, docs/api.md 2.7;
   * counting their NULL pnl_micros on the index measured 40-50 ms over 350,000 of them).
   */
  unknownCount(accountId: number): number {
    this.#realizedColumn ??= this.#hasRealizedColumn();
    const sql = this.#realizedColumn
      ? 'SELECT count(*) FROM settlements WHERE account_id = ? AND realized_micros IS NULL'
      : `SELECT coalesce(sum(n), 0) FROM settlement_slots WHERE account_id = ?
         AND type = 'SETTLEMENT'`;
    return this.#sql.get(sql).pluck().get(accountId) as number;
  }

  #realizedColumn: boolean | undefined;

  #hasRealizedColumn(): boolean {
    const columns = this.#sql
      .get('SELECT name FROM pragma_table_info(?)')
      .pluck()
      .all('settlements');
    return columns.includes('realized_micros');
  }
}
