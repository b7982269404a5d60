/**
 * The History screen's totals and P&L over time, folded from the store's per-slot sums (SQLite
 * has already reduced a million settlements to at most a few per 15 minutes). Amounts are whole
 * micro-dollars here, so every sum is exact integer arithmetic; they become decimal strings at
 * the end.
 *
 * P&L is realized P&L for every type (docs/pnl.md): the exchange's own for CLOSED and
 * KNOCKED_OUT, payout − cost basis for SETTLEMENT. Rows whose realized P&L is unknown are
 * counted as `unknown` and left out of the sum, the wins, the extremes and the win rate, never
 * guessed. Payouts stay a figure of their own.
 */
import { SETTLEMENT_TYPES, type SettlementType } from '../../shared/api/schemas.js';
import type {
  HistoryBucket,
  HistoryPoint,
  HistorySummary,
  HistoryTotals,
} from '../../shared/ipc/contract.js';
import { dec, fromMicros } from '../../shared/money.js';
import { SLOT_MS, type SlotTotals } from '../store/index.js';
import { DAY_MS, type ZonedCalendar } from './zoned-time.js';

/** Daily buckets up to about a quarter, weekly up to two years, monthly beyond. */
const DAILY_UP_TO_DAYS = 92;
const WEEKLY_UP_TO_DAYS = 731;

export interface SummaryRange {
  /** The filter's range; absent ends follow the data (and now). */
  from?: number;
  to?: number;
  now: number;
  calendar: ZonedCalendar;
}

type Summary = Omit<HistorySummary, 'accountId'>;

/**
 * Totals, totals per type, and the cumulative series of the slots in `range`; `working` is the
 * upgrade's backfill progress, when it runs.
 */
export function summarize(
  slots: readonly SlotTotals[],
  range: SummaryRange,
  working: Summary['working'] = null,
): Summary {
  const all = new Tally();
  const byType = new Map<SettlementType, Tally>(SETTLEMENT_TYPES.map((t) => [t, new Tally()]));
  for (const s of slots) {
    all.add(s);
    byType.get(s.type)?.add(s);
  }
  const { bucket, series } = seriesOf(slots, range);
  return {
    totals: all.totals(),
    byType: SETTLEMENT_TYPES.map((type) => ({
      type,
      totals: (byType.get(type) ?? new Tally()).totals(),
    })),
    bucket,
    series,
    working,
  };
}

/** Sums of slots, in micro-dollars. */
class Tally {
  count = 0;
  unknown = 0;
  wins = 0;
  knockouts = 0;
  pnl = 0;
  payouts = 0;
  max: number | null = null;
  min: number | null = null;

  add(s: SlotTotals): void {
    this.count += s.count;
    this.unknown += s.unknown;
    this.wins += s.wins;
    if (s.type === 'KNOCKED_OUT') this.knockouts += s.count;
    this.pnl += s.pnlMicros;
    this.payouts += s.payoutMicros;
    if (s.maxPnlMicros !== null && (this.max === null || s.maxPnlMicros > this.max)) {
      this.max = s.maxPnlMicros;
    }
    if (s.minPnlMicros !== null && (this.min === null || s.minPnlMicros < this.min)) {
      this.min = s.minPnlMicros;
    }
  }

  totals(): HistoryTotals {
    const known = this.count - this.unknown;
    return {
      count: this.count,
      pnl: money(this.pnl),
      payouts: money(this.payouts),
      unknown: this.unknown,
      wins: this.wins,
      winRate: known === 0 ? null : dec(this.wins).dividedBy(known).toFixed(4),
      largestWin: this.max !== null && this.max > 0 ? money(this.max) : null,
      largestLoss: this.min !== null && this.min < 0 ? money(this.min) : null,
      knockouts: this.knockouts,
    };
  }
}

/** Micro-dollars as a decimal string; a sum too large to be exact is refused, not rounded. */
function money(micros: number): string {
  if (!Number.isSafeInteger(micros)) {
    throw new RangeError('A history total is too large to add up exactly.');
  }
  return fromMicros(micros);
}

function bucketFor(spanMs: number): HistoryBucket {
  if (spanMs <= DAILY_UP_TO_DAYS * DAY_MS) return 'day';
  if (spanMs <= WEEKLY_UP_TO_DAYS * DAY_MS) return 'week';
  return 'month';
}

function seriesOf(
  slots: readonly SlotTotals[],
  range: SummaryRange,
): { bucket: HistoryBucket; series: HistoryPoint[] } {
  const first = slots[0];
  const last = slots.at(-1);
  const start = range.from ?? (first ? first.slot * SLOT_MS : undefined);
  if (start === undefined) return { bucket: 'day', series: [] };
  const dataEnd = last ? (last.slot + 1) * SLOT_MS : start;
  // An open or future end stops at now (or the newest settlement, if the clocks disagree).
  const end = Math.max(start + 1, Math.min(range.to ?? Infinity, Math.max(range.now, dataEnd)));
  const bucket = bucketFor(end - start);
  const { calendar } = range;

  const starts: number[] = [];
  for (let b = calendar.startOf(start, bucket); b < end; b = calendar.next(b, bucket)) {
    starts.push(b);
  }
  const count = new Array<number>(starts.length).fill(0);
  const pnl = new Array<number>(starts.length).fill(0);
  const payouts = new Array<number>(starts.length).fill(0);
  for (const s of slots) {
    const i = lastAtOrBefore(starts, s.slot * SLOT_MS);
    if (i < 0) continue;
    count[i] = (count[i] ?? 0) + s.count;
    pnl[i] = (pnl[i] ?? 0) + s.pnlMicros;
    payouts[i] = (payouts[i] ?? 0) + s.payoutMicros;
  }
  let runningPnl = 0;
  let runningPayouts = 0;
  const series = starts.map((b, i): HistoryPoint => {
    runningPnl += pnl[i] ?? 0;
    runningPayouts += payouts[i] ?? 0;
    return {
      start: b,
      count: count[i] ?? 0,
      pnl: money(pnl[i] ?? 0),
      payouts: money(payouts[i] ?? 0),
      cumulativePnl: money(runningPnl),
      cumulativePayouts: money(runningPayouts),
    };
  });
  return { bucket, series };
}

/** The index of the last start at or before `t`, or -1. */
function lastAtOrBefore(starts: readonly number[], t: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((starts[mid] ?? Infinity) <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
