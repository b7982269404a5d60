import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/main/history/summary.js';
import { ZonedCalendar } from '../../../src/main/history/zoned-time.js';
import { SLOT_MS, type SlotTotals } from '../../../src/main/store/repos/settlements.js';

const utc = new ZonedCalendar('UTC');
const at = (isoTime: string) => Date.parse(isoTime);
const slotOf = (isoTime: string) => Math.floor(at(isoTime) / SLOT_MS);

function slot(isoTime: string, s: Partial<SlotTotals> & Pick<SlotTotals, 'type'>): SlotTotals {
  return {
    slot: slotOf(isoTime),
    count: 1,
    wins: 0,
    pnlMicros: 0,
    payoutMicros: 0,
    maxPnlMicros: null,
    minPnlMicros: null,
    unknown: 0,
    ...s,
  };
}

const SLOTS: SlotTotals[] = [
  // Day 1: a closed win of 12.50 and a closed loss of 2.25 in one slot.
  slot('2026-11-01T10:00:00Z', {
    type: 'CLOSED',
    count: 2,
    wins: 1,
    pnlMicros: 10_250_000,
    maxPnlMicros: 12_500_000,
    minPnlMicros: -2_250_000,
  }),
  // Day 2: a knockout losing 7.10.
  slot('2026-11-02T18:30:00Z', {
    type: 'KNOCKED_OUT',
    pnlMicros: -7_100_000,
    maxPnlMicros: -7_100_000,
    minPnlMicros: -7_100_000,
  }),
  // Day 4: a settled game paying 20.00 (no P&L from the exchange).
  slot('2026-11-04T21:00:00Z', { type: 'SETTLEMENT', wins: 1, payoutMicros: 20_000_000 }),
];

describe('summarize', () => {
  it('totals P&L and payouts apart, exactly, with wins, largest win and loss, knockouts', () => {
    const s = summarize(SLOTS, { now: at('2026-11-05T12:00:00Z'), calendar: utc });
    expect(s.totals).toEqual({
      count: 4,
      pnl: '3.15',
      payouts: '20',
      unknown: 0,
      wins: 2,
      winRate: '0.5000',
      largestWin: '12.5',
      largestLoss: '-7.1',
      knockouts: 1,
    });
    const byType = Object.fromEntries(s.byType.map((t) => [t.type, t.totals]));
    expect(byType['CLOSED']).toMatchObject({ count: 2, pnl: '10.25', wins: 1, knockouts: 0 });
    expect(byType['KNOCKED_OUT']).toMatchObject({ count: 1, pnl: '-7.1', largestWin: null });
    expect(byType['SETTLEMENT']).toMatchObject({ count: 1, payouts: '20', pnl: '0' });
  });

  it('leaves rows whose realized P&L is unknown out of the P&L and the win rate, and counts them', () => {
    const s = summarize(
      [
        slot('2026-11-01T10:00:00Z', {
          type: 'CLOSED',
          wins: 1,
          pnlMicros: 2_000_000,
          maxPnlMicros: 2_000_000,
          minPnlMicros: 2_000_000,
        }),
        slot('2026-11-02T10:00:00Z', {
          type: 'SETTLEMENT',
          count: 3,
          wins: 0,
          pnlMicros: -1_500_000,
          payoutMicros: 9_000_000,
          maxPnlMicros: -1_500_000,
          minPnlMicros: -1_500_000,
          unknown: 2,
        }),
      ],
      { now: at('2026-11-05T12:00:00Z'), calendar: utc },
      { done: 5, total: 9 },
    );
    expect(s.totals).toMatchObject({
      count: 4,
      unknown: 2,
      pnl: '0.5',
      payouts: '9',
      wins: 1,
      winRate: '0.5000', // 1 win of the 2 rows whose P&L is known
      largestWin: '2',
      largestLoss: '-1.5',
    });
    expect(s.working).toEqual({ done: 5, total: 9 });
    const settled = s.byType.find((t) => t.type === 'SETTLEMENT')!.totals;
    expect(settled).toMatchObject({ count: 3, unknown: 2, winRate: '0.0000' });
  });

  it('gives a daily cumulative series with the empty days in it, up to now', () => {
    const s = summarize(SLOTS, { now: at('2026-11-05T12:00:00Z'), calendar: utc });
    expect(s.bucket).toBe('day');
    expect(s.series.map((p) => new Date(p.start).toISOString().slice(0, 10))).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
    ]);
    expect(s.series.map((p) => p.cumulativePnl)).toEqual(['10.25', '3.15', '3.15', '3.15', '3.15']);
    expect(s.series.map((p) => p.cumulativePayouts)).toEqual(['0', '0', '0', '20', '20']);
    expect(s.series.map((p) => p.count)).toEqual([2, 1, 0, 1, 0]);
  });

  it('follows the time zone: a settlement at 23:30 UTC is the next day in Tokyo', () => {
    const late = [slot('2026-11-01T23:30:00Z', { type: 'CLOSED', pnlMicros: 1_000_000 })];
    const tokyo = summarize(late, {
      now: at('2026-11-03T00:00:00Z'),
      calendar: new ZonedCalendar('Asia/Tokyo'),
    });
    expect(tokyo.series[0]?.start).toBe(at('2026-11-01T15:00:00Z')); // Nov 2, 00:00 in Tokyo
    expect(tokyo.series[0]?.pnl).toBe('1');
  });

  it('buckets a long range by week, and a longer one by month', () => {
    const year = { from: at('2026-01-01T00:00:00Z'), to: at('2027-01-01T00:00:00Z') };
    const weekly = summarize(SLOTS, {
      ...year,
      to: at('2026-06-01T00:00:00Z'),
      now: year.to,
      calendar: utc,
    });
    expect(weekly.bucket).toBe('week');
    const monthly = summarize(SLOTS, {
      from: at('2024-01-01T00:00:00Z'),
      now: year.to,
      calendar: utc,
    });
    expect(monthly.bucket).toBe('month');
    expect(monthly.series.at(-1)?.cumulativePnl).toBe('3.15');
    expect(monthly.series.length).toBe(36);
  });

  it('answers nothing to chart when there is nothing, and zeros within a chosen range', () => {
    expect(summarize([], { now: at('2026-11-05T00:00:00Z'), calendar: utc }).series).toEqual([]);
    const week = summarize([], {
      from: at('2026-11-01T00:00:00Z'),
      to: at('2026-11-08T00:00:00Z'),
      now: at('2026-11-10T00:00:00Z'),
      calendar: utc,
    });
    expect(week.series).toHaveLength(7);
    expect(week.totals).toMatchObject({ count: 0, pnl: '0', winRate: null, largestLoss: null });
  });
});
