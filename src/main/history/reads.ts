/**
 * History's heavy reads, run on the store's read worker (src/main/store/read-worker.ts) so a
 * big account never holds the main thread: the totals and P&L over time of a filter, and what
 * the filter menus offer (0.2–0.8 s on the main thread for 14,600 fixtures, issue 18).
 * Inputs and outputs are plain data: they cross between threads as structured clones.
 */
import type { HistoryChoices, HistorySummary, OrderTotals } from '../../shared/ipc/contract.js';
import { fromMicros } from '../../shared/money.js';
import type { OrderFilter, ReadableStore, SettlementFilter } from '../store/index.js';
import { summarize } from './summary.js';
import { ZonedCalendar } from './zoned-time.js';

export interface HistorySummaryInput {
  accountId: number;
  filter: SettlementFilter;
  /** IANA zone the buckets follow. */
  timeZone: string;
  /** Local time, ms (the series runs up to it). */
  now: number;
}

/** Totals, totals per type and the P&L series of the account's settlements matching `filter`. */
export function historySummary(
  store: ReadableStore,
  { accountId, filter, timeZone, now }: HistorySummaryInput,
): Omit<HistorySummary, 'accountId'> {
  const calendar = new ZonedCalendar(timeZone);
  const slots = store.settlements.slotTotals(accountId, filter);
  // Nothing stored is older than 1970: a start before it follows the data, as no start
  // does (else the chart would run month by month from year 1).
  const from = filter.from !== undefined && filter.from >= 0 ? filter.from : undefined;
  return summarize(slots, { now, calendar, from, to: filter.to });
}

/** The leagues, teams and fixtures the account's settlements hold, newest fixture first. */
export function historyChoices(
  store: ReadableStore,
  { accountId }: { accountId: number },
): HistoryChoices {
  const c = store.settlements.choices(accountId);
  const fixtures = c.contracts
    .map((f) => ({
      contractId: f.contractId,
      name:
        f.homeTeam !== null && f.awayTeam !== null ? `${f.homeTeam} v ${f.awayTeam}` : f.contractId,
      league: f.league,
      startsAt: f.startsAt,
    }))
    .sort((a, b) => (b.startsAt ?? 0) - (a.startsAt ?? 0) || a.name.localeCompare(b.name));
  return { leagues: c.leagues, teams: c.teams, fixtures, first: c.first, last: c.last };
}

/**
 * The Orders screen's totals for a filter: exchange orders only (an intent never placed cost
 * nothing). One pass over the account's orders: 0.1–0.2 s on 100,000 of them.
 */
export function ordersTotals(
  store: ReadableStore,
  { accountId, filter }: { accountId: number; filter: OrderFilter },
): OrderTotals {
  const t = store.orders.totals(accountId, filter);
  return {
    count: t.count,
    filled: t.filled,
    staked: fromMicros(t.stakedMicros),
    proceeds: fromMicros(t.proceedsMicros),
  };
}
