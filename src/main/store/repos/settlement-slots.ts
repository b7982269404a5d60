/**
 * Totals of the history per 15-minute slot and settlement type: what the History screen's
 * totals and its P&L over time are folded from (in the time zone of whoever looks).
 *
 * settlement_slots and settlement_league_slots (migrations 004 and 006, kept by triggers) hold every
 * slot already summed, so the whole history, a type, a league or a date range is read as at most
 * a few rows per quarter hour. A slot cut by the range's edge, and the filters the slots do not
 * keep (a contract, a team), are summed from the rows themselves in the same shape.
 */
import type { SettlementType } from '../../../shared/api/schemas.js';
import type { StatementCache } from '../connection.js';
import {
  clampRange,
  filteredSettlements,
  isEmptyRange,
  rollupOf,
  slotSource,
  type Rollup,
  type SettlementFilter,
} from './settlement-filter.js';

/** 15 minutes: every real time zone's offset from UTC is a whole number of these. */
export const SLOT_MS = 900_000;

/** The settlements of one slot and type. Amounts are whole micro-dollars (toMicros). */
export interface SlotTotals {
  /** timestamp_ms / SLOT_MS, rounded down: the slot starts at slot * SLOT_MS. */
  slot: number;
  type: SettlementType;
  count: number;
  /** Rows with a realized P&L above zero. */
  wins: number;
  /** Sum of realized P&L over the rows where it is known (0 when none). */
  pnlMicros: number;
  payoutMicros: number;
  /** The largest and smallest realized P&L; null when no row of the slot has one. */
  maxPnlMicros: number | null;
  minPnlMicros: number | null;
  /** Rows whose realized P&L is unknown (left out of the sums, wins and extremes). */
  unknown: number;
}

type SlotRow = [
  number,
  SettlementType,
  number,
  number,
  number,
  number,
  number | null,
  number | null,
  number,
];

const ROW_SUMS = `count(*), count(*) FILTER (WHERE realized_micros > 0),
  coalesce(sum(realized_micros), 0), coalesce(sum(payout_micros), 0),
  max(realized_micros), min(realized_micros), count(*) FILTER (WHERE realized_micros IS NULL)`;

/** Ascending by slot, then type. Exact: integer sums throughout. */
export function slotTotals(
  sql: StatementCache,
  accountId: number,
  filter: SettlementFilter,
): SlotTotals[] {
  const f = clampRange(filter);
  if (isEmptyRange(f)) return [];
  const rollup = rollupOf(f);
  if (rollup === null) return fromRows(sql, accountId, f).map(toTotals);

  const from = f.from ?? 0;
  const firstWhole = Math.ceil(from / SLOT_MS);
  const endWhole = f.to === undefined ? null : Math.floor(f.to / SLOT_MS);
  if (endWhole !== null && firstWhole >= endWhole) {
    return fromRows(sql, accountId, f).map(toTotals); // within one or two slots' edges
  }
  const rows: SlotRow[] = [];
  if (from < firstWhole * SLOT_MS) {
    rows.push(...fromRows(sql, accountId, { ...f, to: firstWhole * SLOT_MS }));
  }
  rows.push(...fromSlots(sql, accountId, rollup, f, firstWhole, endWhole));
  if (endWhole !== null && f.to !== undefined && f.to > endWhole * SLOT_MS) {
    rows.push(...fromRows(sql, accountId, { ...f, from: endWhole * SLOT_MS }));
  }
  return rows.map(toTotals);
}

function fromSlots(
  sql: StatementCache,
  accountId: number,
  rollup: Rollup,
  f: SettlementFilter,
  first: number,
  end: number | null,
): SlotRow[] {
  const src = slotSource(accountId, rollup, f.type);
  const range = end === null ? 'slot >= ?' : 'slot >= ? AND slot < ?';
  return sql
    .get(
      `SELECT slot, type, n, wins, pnl_sum, payout_sum, pnl_max, pnl_min, unknown ${src.sql}
       AND ${range} ORDER BY slot, type`,
    )
    .raw(true)
    .all(...src.params, first, ...(end === null ? [] : [end])) as SlotRow[];
}

function fromRows(sql: StatementCache, accountId: number, f: SettlementFilter): SlotRow[] {
  const rows = filteredSettlements(accountId, f);
  return sql
    .get(
      `SELECT timestamp_ms / ${SLOT_MS} AS slot, type, ${ROW_SUMS}
       FROM ${rows.sql}
       GROUP BY slot, type ORDER BY slot, type`,
    )
    .raw(true)
    .all(...rows.params) as SlotRow[];
}

function toTotals(r: SlotRow): SlotTotals {
  return {
    slot: r[0],
    type: r[1],
    count: r[2],
    wins: r[3],
    pnlMicros: r[4],
    payoutMicros: r[5],
    maxPnlMicros: r[6],
    minPnlMicros: r[7],
    unknown: r[8],
  };
}
