import { describe, expect, test } from 'vitest';
import { dateInput, localMidnight, rangeBounds } from '../../src/renderer/src/lib/date-range.js';
import {
  basisComparison,
  exportSentence,
  pnlSourceSentence,
  shortHash,
  syncSentence,
  unknownSentence,
  workingSentence,
} from '../../src/renderer/src/lib/history-words.js';
import { NOW } from './rows.js';

/** Local midnight of the day of `ms`, `days` later, as the user's calendar has it. */
function midnight(ms: number, days = 0): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days).getTime();
}

describe('date filters', () => {
  test('named periods end at tomorrow’s local midnight, so today is always in', () => {
    const tomorrow = midnight(NOW, 1);
    expect(rangeBounds('all', '', '', NOW)).toEqual({ bounds: {} });
    expect(rangeBounds('today', '', '', NOW)).toEqual({
      bounds: { from: midnight(NOW), to: tomorrow },
    });
    expect(rangeBounds('7d', '', '', NOW)).toEqual({
      bounds: { from: midnight(NOW, -6), to: tomorrow },
    });
    expect(rangeBounds('30d', '', '', NOW)).toEqual({
      bounds: { from: midnight(NOW, -29), to: tomorrow },
    });
    const year = new Date(NOW).getFullYear();
    expect(rangeBounds('year', '', '', NOW)).toEqual({
      bounds: { from: new Date(year, 0, 1).getTime(), to: new Date(year + 1, 0, 1).getTime() },
    });
  });

  test('custom dates include both days; either may be left open', () => {
    expect(rangeBounds('custom', '2026-03-01', '2026-03-31', NOW)).toEqual({
      bounds: { from: new Date(2026, 2, 1).getTime(), to: new Date(2026, 3, 1).getTime() },
    });
    expect(rangeBounds('custom', '2026-03-01', '', NOW)).toEqual({
      bounds: { from: new Date(2026, 2, 1).getTime() },
    });
    expect(rangeBounds('custom', '', '', NOW)).toEqual({ bounds: {} });
  });

  test('dates that are not a range say why', () => {
    expect(rangeBounds('custom', '2026-03-31', '2026-03-01', NOW)).toEqual({
      problem: 'The start date is after the end date.',
    });
    expect(rangeBounds('custom', '2026-02-30', '', NOW)).toEqual({
      problem: 'The start date is not a date; use the date picker.',
    });
    expect(localMidnight('31/03/2026')).toBeNull();
  });

  test('any day the date picker gives, before 1970 and back to year 1, is a local midnight', () => {
    const day = (y: number, m: number, d: number): number => {
      const t = new Date(2000, 0, 1);
      t.setFullYear(y, m, d);
      return t.getTime();
    };
    expect(rangeBounds('custom', '1900-01-01', '', NOW)).toEqual({
      bounds: { from: day(1900, 0, 1) },
    });
    expect(rangeBounds('custom', '0001-01-01', '1950-12-31', NOW)).toEqual({
      bounds: { from: day(1, 0, 1), to: day(1951, 0, 1) },
    });
    // Years 0–99 are not 1900–1999 (as the Date constructor would have them).
    expect(localMidnight('0099-12-31')).toBe(day(99, 11, 31));
    expect(new Date(localMidnight('0001-01-01')!).getFullYear()).toBe(1);
    expect(rangeBounds('custom', '', '0001-01-01', NOW)).toEqual({
      bounds: { to: day(1, 0, 2) },
    });
    expect(dateInput(day(1, 0, 1))).toBe('0001-01-01');
  });

  test('a day after 9999 (typed: the picker stops there) names the latest allowed', () => {
    expect(rangeBounds('custom', '', '10000-01-01', NOW)).toEqual({
      problem: 'The end date is after 31 Dec 9999, the latest allowed.',
    });
    expect(rangeBounds('custom', '', '9999-12-31', NOW)).toHaveProperty('bounds');
    expect(localMidnight('0000-01-01')).toBeNull();
  });

  test('a date input shows the local day', () => {
    expect(dateInput(new Date(2026, 2, 9, 23, 59).getTime())).toBe('2026-03-09');
  });
});

describe('history in words', () => {
  test('an export where it stands', () => {
    const job = {
      kind: 'orders' as const,
      rows: 1,
      total: 1,
      fileName: 'betdesk-orders-2027-01-15.csv',
      message: null,
    };
    expect(exportSentence({ ...job, state: 'running' })).toBe(
      'Exporting orders: 1 of 1 row written.',
    );
    expect(exportSentence({ ...job, state: 'failed', message: null })).toBe(
      'Export failed: the file could not be written. No file was left behind.',
    );
  });

  test('a sweep where it stands, before its estimate too', () => {
    const p = {
      accountId: null,
      reason: 'first-sync' as const,
      pages: 1,
      estimatedPages: 0,
      added: 1,
      startedAt: NOW,
      message: 'Rate limited by the exchange.',
    };
    expect(syncSentence({ ...p, state: 'running' })).toBe(
      'First sync of this account’s history: 1 page fetched, 1 new record so far.',
    );
    expect(syncSentence({ ...p, state: 'failed' })).toBe(
      'First sync of this account’s history failed: Rate limited by the exchange. Nothing stored was removed; it carries on where it stopped when sync retries.',
    );
  });

  test('transaction hashes are shortened, short ones kept whole', () => {
    expect(shortHash('0x' + 'ab'.repeat(32))).toBe('0xababab…abab');
    expect(shortHash('0xfeed')).toBe('0xfeed');
  });

  test('every P&L says where it comes from, with why when it is unknown', () => {
    expect(pnlSourceSentence('exchange', null)).toBe('P&L from the exchange’s figures.');
    expect(pnlSourceSentence('orders', null)).toBe('P&L computed from your orders.');
    expect(pnlSourceSentence('unknown', 'The orders predate the first sync.')).toBe(
      'P&L unknown, and not counted in the totals: The orders predate the first sync.',
    );
  });

  test('the exchange’s cost basis disagrees only beyond a cent', () => {
    const at = {
      basisSource: 'orders' as const,
      exchangeCostBasis: '3.00',
      exchangeCostBasisAt: null,
    };
    expect(basisComparison({ ...at, difference: '0' })).toEqual({
      words: 'The exchange’s last cost basis, $3.00, agrees.',
      disagrees: false,
    });
    expect(basisComparison({ ...at, difference: '0.01' })).toEqual({
      words: 'The exchange’s last cost basis, $3.00, agrees to within a cent.',
      disagrees: false,
    });
    expect(basisComparison({ ...at, difference: '-0.010001' })).toEqual({
      words:
        'The exchange’s last cost basis, $3.00, disagrees: Betdesk’s basis is $0.01 less. ' +
        'The figure from your orders stands; the difference is logged.',
      disagrees: true,
    });
    expect(basisComparison({ ...at, difference: '0.25' }).words).toContain(
      'Betdesk’s basis is $0.25 more',
    );
    expect(
      basisComparison({
        basisSource: 'orders',
        exchangeCostBasis: null,
        exchangeCostBasisAt: null,
        difference: null,
      }),
    ).toEqual({
      words: 'The exchange never reported a cost basis for this position to Betdesk.',
      disagrees: false,
    });
  });

  test('where the exchange’s cost basis is the figure, the orders are its check', () => {
    const at = {
      basisSource: 'exchange' as const,
      exchangeCostBasis: '3.94',
      exchangeCostBasisAt: null,
    };
    expect(basisComparison({ ...at, difference: '0' }).words).toBe(
      'The exchange’s cost basis, $3.94, agrees with your orders.',
    );
    expect(basisComparison({ ...at, difference: '-0.97' })).toEqual({
      words:
        'The exchange’s cost basis, $3.94, disagrees: your orders give $0.97 less. ' +
        'The exchange’s figure stands; the difference is logged.',
      disagrees: true,
    });
    expect(basisComparison({ ...at, difference: null }).words).toBe(
      'The exchange’s cost basis, $3.94, is the figure; your orders cannot check it.',
    );
  });

  test('the P&L of past bets being worked out, and the bets left out, in words', () => {
    expect(workingSentence({ done: 40_000, total: 120_000 })).toBe(
      'Working out the P&L of past bets: 40,000 of 120,000.',
    );
    expect(unknownSentence(2)).toBe('2 bets with unknown P&L, not counted');
    expect(unknownSentence(1)).toBe('1 bet with unknown P&L, not counted');
  });
});
