import { describe, expect, it } from 'vitest';
import { UnknownTimeZoneError, ZonedCalendar } from '../../../src/main/history/zoned-time.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('ZonedCalendar', () => {
  it('starts a London day at local midnight, in summer time and in winter', () => {
    const london = new ZonedCalendar('Europe/London');
    expect(iso(london.startOf(Date.parse('2026-07-15T12:00:00Z'), 'day'))).toBe(
      '2026-07-14T23:00:00.000Z',
    );
    expect(iso(london.startOf(Date.parse('2026-01-15T12:00:00Z'), 'day'))).toBe(
      '2026-01-15T00:00:00.000Z',
    );
  });

  it('steps over the day the clocks go forward (23 hours) and back (25 hours)', () => {
    const ny = new ZonedCalendar('America/New_York');
    const springDay = ny.startOf(Date.parse('2026-03-08T12:00:00Z'), 'day');
    expect(ny.next(springDay, 'day') - springDay).toBe(23 * 3600_000);
    const autumnDay = ny.startOf(Date.parse('2026-11-01T12:00:00Z'), 'day');
    expect(ny.next(autumnDay, 'day') - autumnDay).toBe(25 * 3600_000);
  });

  it('puts a day of a zone 45 minutes off the hour on its own midnight', () => {
    const kathmandu = new ZonedCalendar('Asia/Kathmandu'); // UTC+05:45
    expect(iso(kathmandu.startOf(Date.parse('2026-05-01T00:00:00Z'), 'day'))).toBe(
      '2026-04-30T18:15:00.000Z',
    );
  });

  it('starts weeks on Monday and months on the first, locally', () => {
    const utc = new ZonedCalendar('UTC');
    // 2026-11-26 is a Thursday.
    expect(iso(utc.startOf(Date.parse('2026-11-26T10:00:00Z'), 'week'))).toBe(
      '2026-11-23T00:00:00.000Z',
    );
    const tokyo = new ZonedCalendar('Asia/Tokyo');
    const month = tokyo.startOf(Date.parse('2026-12-31T20:00:00Z'), 'month'); // Jan 1 in Tokyo
    expect(iso(month)).toBe('2026-12-31T15:00:00.000Z');
    expect(iso(tokyo.next(month, 'month'))).toBe('2027-01-31T15:00:00.000Z');
    expect(iso(utc.next(Date.parse('2026-12-01T00:00:00Z'), 'month'))).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });

  it('refuses a zone it does not know, in words', () => {
    expect(() => new ZonedCalendar('Mars/Olympus')).toThrow(UnknownTimeZoneError);
    expect(() => new ZonedCalendar('Mars/Olympus')).toThrow(/not a time zone/);
  });
});
