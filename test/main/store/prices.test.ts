/**
 * The price history in a real SQLite file: recording writes a point only when an outcome's
 * price changed, per account, with its quarter hour's bucket; ageing drops week-old raw points
 * and folds buckets into wider ones with the right open/high/low/close at the right boundaries; the 24 h lines and the series read them back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agePrices, PRICE_POLICY, RAW_KEEP_MS } from '../../../src/main/prices/ageing.js';
import { priceLines, priceSeries, thin } from '../../../src/main/prices/reads.js';
import { exactPriceMicros, recordFixturePrices } from '../../../src/main/prices/record.js';
import type { Candle, Store } from '../../../src/main/store/index.js';
import { fromMicros } from '../../../src/shared/money.js';
import { fixture, tempStore } from './support.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** A UTC midnight, so bucket boundaries are easy to read. */
const T0 = Date.UTC(2026, 0, 1);

let store: Store;
let accountId: number;
let done: () => void;
beforeEach(() => {
  ({ store, accountId, done } = tempStore());
});
afterEach(() => done());

const points = (contractId = 'EPL-1', outcome = 'ARS', account = accountId) =>
  store.db
    .prepare(
      `SELECT p.at, p.price FROM price_points p JOIN price_series s ON s.id = p.series_id
       WHERE s.account_id = ? AND s.contract_id = ? AND s.outcome = ? ORDER BY p.at`,
    )
    .all(account, contractId, outcome);
const buckets = (contractId = 'EPL-1', outcome = 'ARS') =>
  store.db
    .prepare(
      `SELECT b.at, b.step_ms AS stepMs, b.open, b.high, b.low, b.close FROM price_buckets b
       JOIN price_series s ON s.id = b.series_id
       WHERE s.account_id = ? AND s.contract_id = ? AND s.outcome = ? ORDER BY b.at`,
    )
    .all(accountId, contractId, outcome);
const record = (at: number, home: string, account = accountId) =>
  recordFixturePrices(
    store,
    account,
    [fixture('EPL-1', { homePrice: home, awayPrice: '0.5' })],
    at,
  );

describe('recording', () => {
  it('writes a point when the price changed, none when it did not', () => {
    expect(record(T0, '0.5500').written).toBe(2); // both outcomes are new
    expect(record(T0 + MIN, '0.5500').written).toBe(0);
    expect(record(T0 + 2 * MIN, '0.5600').written).toBe(1);
    expect(record(T0 + 3 * MIN, '0.56').written).toBe(0); // the same price, other spelling
    expect(points()).toEqual([
      { at: T0, price: 550_000 },
      { at: T0 + 2 * MIN, price: 560_000 },
    ]);
    expect(points('EPL-1', 'CHE')).toEqual([{ at: T0, price: 500_000 }]);
  });

  it('keeps each account’s prices apart', () => {
    const other = store.accounts.create({ label: 'b', baseUrl: 'http://127.0.0.1:8', apiKey: 'k' });
    record(T0, '0.5500');
    expect(record(T0 + MIN, '0.5500', other.id).written).toBe(2);
    record(T0 + 2 * MIN, '0.6000', other.id);
    expect(points()).toEqual([{ at: T0, price: 550_000 }]);
    expect(points('EPL-1', 'ARS', other.id)).toEqual([
      { at: T0 + MIN, price: 550_000 },
      { at: T0 + 2 * MIN, price: 600_000 },
    ]);
    const lines = (account: number) =>
      priceLines(store, { accountId: account, contractIds: ['EPL-1'] }, T0 + HOUR).lines[0];
    expect(lines(accountId)).toMatchObject({ first: '0.5500', last: '0.5500' });
    expect(lines(other.id)).toMatchObject({ first: '0.5500', last: '0.6000' });
    store.accounts.remove(other.id);
    expect(points('EPL-1', 'ARS', other.id)).toEqual([]);
  });

  it('refuses a price micros cannot hold exactly, and records the rest', () => {
    expect(exactPriceMicros('0.1234')).toBe(123_400);
    expect(exactPriceMicros('0.12345678')).toBeUndefined();
    expect(exactPriceMicros('1e-3')).toBeUndefined();
    const r = record(T0, '0.12345678');
    expect(r).toEqual({ written: 1, refused: ['EPL-1 ARS 0.12345678'] });
    expect(points()).toEqual([]);
  });

  it('keeps a series in order when the clock offset moved back', () => {
    record(T0, '0.5500');
    record(T0 - 5, '0.5600');
    expect(points()).toEqual([
      { at: T0, price: 550_000 },
      { at: T0 + 1, price: 560_000 },
    ]);
  });
});

/** Ages until nothing is left, as the ager's timer would. */
function ageAll(now: number): number {
  let steps = 0;
  while (!agePrices(store, now).done) steps++;
  return steps + 1;
}

describe('ageing', () => {
  it('keeps a quarter hour’s OHLC beside the raw points, and drops those a week old', () => {
    // Bucket [T0, T0+15m): 0.50, 0.70, 0.40, 0.60. Bucket [T0+15m, ...): 0.65 at its first ms.
    ['0.50', '0.70', '0.40', '0.60'].forEach((p, i) => record(T0 + i * 3 * MIN, p));
    record(T0 + 15 * MIN, '0.65');
    record(T0 + 15 * MIN + 1, '0.66');
    const quarter = { stepMs: 15 * MIN };
    const first = {
      at: T0,
      ...quarter,
      open: 500_000,
      high: 700_000,
      low: 400_000,
      close: 600_000,
    };
    const second = {
      at: T0 + 15 * MIN,
      ...quarter,
      ...{ open: 650_000, high: 660_000, low: 650_000, close: 660_000 },
    };
    expect(buckets()).toEqual([first, second]);
    // Now: the first quarter hour is a week old, the second not yet.
    const now = T0 + 20 * MIN + RAW_KEEP_MS;
    ageAll(now);
    expect(points()).toEqual([
      { at: T0 + 15 * MIN, price: 650_000 },
      { at: T0 + 15 * MIN + 1, price: 660_000 },
    ]);
    expect(buckets()).toEqual([first, second]);
    // An hour later both are, and their hour is folded into one bucket.
    ageAll(now + HOUR);
    expect(points()).toEqual([]);
    expect(buckets()).toEqual([
      { at: T0, stepMs: HOUR, open: 500_000, high: 700_000, low: 400_000, close: 660_000 },
    ]);
  });

  it('merges a bucket cut in two by the step budget', () => {
    ['0.50', '0.70', '0.40', '0.60'].forEach((p, i) => record(T0 + i * 15 * MIN, p));
    const now = T0 + RAW_KEEP_MS + 2 * HOUR;
    // 4 raw points dropped, then 2 of the 4 quarter hours folded.
    expect(store.prices.ageStep(PRICE_POLICY, now, 6)).toEqual({ rows: 6, done: false });
    expect(buckets()[0]).toEqual({
      ...{ at: T0, stepMs: HOUR },
      ...{ open: 500_000, high: 700_000, low: 500_000, close: 700_000 },
    });
    ageAll(now);
    expect(buckets()).toEqual([
      { at: T0, stepMs: HOUR, open: 500_000, high: 700_000, low: 400_000, close: 600_000 },
    ]);
  });

  it('folds a long history into hours and days, whatever the step budget cuts', () => {
    // A point a minute for two days, a ramp up by a micro a minute from 0.3.
    const n = 2 * 24 * 60;
    for (let i = 0; i < n; i++) record(T0 + i * MIN, fromMicros(300_000 + i));
    const steps = ageAll(T0 + 100 * DAY);
    expect(steps).toBeGreaterThan(1); // 2,880 points and 192 quarter hours: over one budget
    expect(points()).toEqual([]);
    expect(buckets()).toEqual([
      { at: T0, stepMs: DAY, open: 300_000, high: 301_439, low: 300_000, close: 301_439 },
      { at: T0 + DAY, stepMs: DAY, open: 301_440, high: 302_879, low: 301_440, close: 302_879 },
    ]);
  });

  it('keeps hourly buckets between 7 and 90 days', () => {
    for (let i = 0; i < 120; i++) record(T0 + i * MIN, fromMicros(300_000 + i));
    ageAll(T0 + 20 * DAY);
    expect(buckets()).toEqual([
      { at: T0, stepMs: HOUR, open: 300_000, high: 300_059, low: 300_000, close: 300_059 },
      { at: T0 + HOUR, stepMs: HOUR, open: 300_060, high: 300_119, low: 300_060, close: 300_119 },
    ]);
    expect(PRICE_POLICY.tiers.map((t) => [t.olderThanMs / DAY, t.stepMs / MIN])).toEqual([
      [7, 60],
      [90, 1440],
    ]);
  });
});

describe('reading', () => {
  it('draws the 24 h lines of the fixtures asked, with the price carried in', () => {
    const now = T0 + 10 * DAY;
    record(now - 30 * HOUR, '0.5000'); // before the window: carried in
    record(now - 2 * HOUR, '0.5500');
    record(now - HOUR, '0.4500');
    recordFixturePrices(store, accountId, [fixture('EPL-2')], now - 3 * HOUR);
    const out = priceLines(store, { accountId, contractIds: ['epl-1'] }, now);
    expect(out.from).toBe(now - DAY);
    expect(out.lines.map((l) => `${l.contractId} ${l.outcome}`)).toEqual([
      'EPL-1 ARS',
      'EPL-1 CHE',
    ]);
    expect(out.lines[0]).toEqual({
      contractId: 'EPL-1',
      outcome: 'ARS',
      points: [
        { at: now - DAY, price: '0.5000' }, // carried in
        { at: now - 2 * HOUR + 15 * MIN, price: '0.5500' }, // each quarter hour's close
        { at: now - HOUR + 15 * MIN, price: '0.4500' },
      ],
      first: '0.5000',
      last: '0.4500',
      change: '-0.0500',
    });
    // A price flat for weeks (only in buckets by now) still draws a line.
    ageAll(now + 30 * DAY);
    const later = priceLines(store, { accountId, contractIds: ['EPL-1'] }, now + 30 * DAY);
    expect(later.lines[0]).toMatchObject({ first: '0.4500', last: '0.4500', change: '0.0000' });
    expect(later.lines[0]!.points).toHaveLength(1);
  });

  it('starts a line that carries nothing in at its first price’s own time, not its quarter hour', () => {
    // Issue 27 item 13: "since 01:30 PM" for prices recorded from 01:44.
    const now = T0 + 10 * DAY;
    const firstAt = now - 3 * HOUR + 14 * MIN;
    record(firstAt, '0.5000');
    record(now - HOUR, '0.5200');
    const line = priceLines(store, { accountId, contractIds: ['EPL-1'] }, now).lines[0]!;
    expect(line.points[0]).toEqual({ at: firstAt, price: '0.5000' });
    expect(line.points.every((p) => p.at >= firstAt)).toBe(true);
  });

  it('draws a busy day as each quarter hour’s close, the last one now', () => {
    const now = T0 + 2 * DAY;
    for (let i = 0; i < 24 * 60; i++) record(now - DAY + i * MIN, i % 2 ? '0.4000' : '0.3000');
    const line = priceLines(store, { accountId, contractIds: ['EPL-1'] }, now).lines[0]!;
    expect(line.points).toHaveLength(97); // the first quarter hour's open, then 96 closes
    expect(line.points.at(-1)).toEqual({ at: now, price: '0.4000' }); // the last minute's
  });

  it('reads a series: buckets where the week has passed, raw points after', () => {
    for (let i = 0; i < 10 * 24; i++) record(T0 + i * HOUR, i % 2 ? '0.4100' : '0.4000');
    const now = T0 + 10 * DAY;
    ageAll(now);
    const s = priceSeries(store, { accountId, contractId: 'EPL-1', outcome: 'ARS' }, now);
    const kinds = s.points.map((p) => p.resolution);
    expect(kinds.indexOf('raw')).toBeGreaterThan(0);
    expect(kinds.slice(kinds.indexOf('raw')).every((k) => k === 'raw')).toBe(true);
    expect(s.points[0]).toMatchObject({ at: T0, resolution: 'bucket', stepMs: HOUR });
    expect(kinds.filter((k) => k === 'bucket')).toHaveLength(3 * 24); // before the raw week
    expect(kinds.filter((k) => k === 'raw')).toHaveLength(7 * 24);
    expect(s.points.at(-1)).toMatchObject({ close: '0.4100', resolution: 'raw', stepMs: 0 });
    const ats = s.points.map((p) => p.at);
    expect([...ats].sort((a, b) => a - b)).toEqual(ats);
    // A span asked for, and an outcome never recorded.
    const day3 = priceSeries(
      store,
      { accountId, contractId: 'EPL-1', outcome: 'ARS', from: T0 + 8 * DAY, to: T0 + 9 * DAY },
      now,
    );
    expect(day3.points).toHaveLength(24);
    const none = { accountId, contractId: 'EPL-1', outcome: 'XXX' };
    expect(priceSeries(store, none, now).points).toEqual([]);
  });

  it('thins evenly to the bound, keeping high, low and the last close', () => {
    const candles: Candle[] = Array.from({ length: 10_000 }, (_, i) => ({
      at: i * 1000,
      stepMs: 0,
      open: i,
      high: i,
      low: i,
      close: i,
    }));
    const out = thin(candles, 0, 10_000_000, 5000);
    expect(out).toHaveLength(5000);
    expect(out[0]).toEqual({ at: 0, stepMs: 2000, open: 0, high: 1, low: 0, close: 1 });
    expect(out.at(-1)!.close).toBe(9999);
  });
});
