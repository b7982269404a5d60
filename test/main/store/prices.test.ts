/**
 * The price history in a real SQLite file: recording writes a point only when an outcome's
 * price changed, per account; ageing folds raw points into buckets with the right
 * open/high/low/close at the right boundaries; the 24 h lines and the series read them back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agePrices, AGEING_TIERS, RAW_KEEP_MS } from '../../../src/main/prices/ageing.js';
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
  it('folds raw points older than a week into 15-minute OHLC buckets, bounds included', () => {
    // Bucket [T0, T0+15m): 0.50, 0.70, 0.40, 0.60. Bucket [T0+15m, ...): 0.65 at its first ms.
    const prices = ['0.50', '0.70', '0.40', '0.60'];
    prices.forEach((p, i) => record(T0 + i * 3 * MIN, p));
    record(T0 + 15 * MIN, '0.65');
    record(T0 + 15 * MIN + 1, '0.66');
    // Now: the second bucket is still inside the week (its end is after now − 7 d).
    const now = T0 + 20 * MIN + RAW_KEEP_MS;
    ageAll(now);
    expect(buckets()).toEqual([
      { at: T0, stepMs: 15 * MIN, open: 500_000, high: 700_000, low: 400_000, close: 600_000 },
    ]);
    expect(points()).toEqual([
      { at: T0 + 15 * MIN, price: 650_000 },
      { at: T0 + 15 * MIN + 1, price: 660_000 },
    ]);
    // A quarter hour later the second bucket is a week old too.
    ageAll(now + 15 * MIN);
    expect(buckets()).toHaveLength(2);
    expect(buckets()[1]).toEqual({
      at: T0 + 15 * MIN,
      stepMs: 15 * MIN,
      open: 650_000,
      high: 660_000,
      low: 650_000,
      close: 660_000,
    });
    expect(points()).toEqual([]);
  });

  it('merges a bucket cut in two by the step budget', () => {
    ['0.50', '0.70', '0.40', '0.55', '0.60'].forEach((p, i) => record(T0 + i * MIN, p));
    const now = T0 + RAW_KEEP_MS + HOUR;
    expect(store.prices.ageStep(AGEING_TIERS, now, 3)).toEqual({ rows: 3, done: false });
    expect(buckets()).toEqual([
      { at: T0, stepMs: 15 * MIN, open: 500_000, high: 700_000, low: 400_000, close: 400_000 },
    ]);
    ageAll(now);
    expect(buckets()).toEqual([
      { at: T0, stepMs: 15 * MIN, open: 500_000, high: 700_000, low: 400_000, close: 600_000 },
    ]);
  });

  it('folds a long history into hours and days, whatever the step budget cuts', () => {
    // A point a minute for two days, a ramp up by a micro a minute from 0.3.
    const n = 2 * 24 * 60;
    for (let i = 0; i < n; i++) record(T0 + i * MIN, fromMicros(300_000 + i));
    const now = T0 + 100 * DAY;
    const steps = ageAll(now);
    expect(steps).toBeGreaterThan(1); // 2 × 2880 rows read: more than one step's budget
    expect(points()).toEqual([]);
    const days = buckets();
    expect(days).toEqual([
      { at: T0, stepMs: DAY, open: 300_000, high: 301_439, low: 300_000, close: 301_439 },
      { at: T0 + DAY, stepMs: DAY, open: 301_440, high: 302_879, low: 301_440, close: 302_879 },
    ]);
  });

  it('keeps hourly buckets between 30 and 90 days', () => {
    for (let i = 0; i < 120; i++) record(T0 + i * MIN, fromMicros(300_000 + i));
    ageAll(T0 + 40 * DAY);
    expect(buckets()).toEqual([
      { at: T0, stepMs: HOUR, open: 300_000, high: 300_059, low: 300_000, close: 300_059 },
      { at: T0 + HOUR, stepMs: HOUR, open: 300_060, high: 300_119, low: 300_060, close: 300_119 },
    ]);
    expect(AGEING_TIERS.map((t) => t.olderThanMs / DAY)).toEqual([7, 30, 90]);
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
        { at: now - DAY, price: '0.5000' },
        { at: now - 2 * HOUR, price: '0.5500' },
        { at: now - HOUR, price: '0.4500' },
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

  it('thins a busy day to 200 points, the last price of each step', () => {
    const now = T0 + 2 * DAY;
    for (let i = 0; i < 24 * 60; i++) record(now - DAY + i * MIN, i % 2 ? '0.4000' : '0.3000');
    const line = priceLines(store, { accountId, contractIds: ['EPL-1'] }, now).lines[0]!;
    expect(line.points.length).toBeLessThanOrEqual(200);
    expect(line.points.length).toBeGreaterThan(190);
    expect(line.last).toBe('0.4000'); // the last minute's (odd) price
  });

  it('reads a series: buckets where the week has passed, raw points after', () => {
    for (let i = 0; i < 10 * 24; i++) record(T0 + i * HOUR, i % 2 ? '0.4100' : '0.4000');
    const now = T0 + 10 * DAY;
    ageAll(now);
    const s = priceSeries(store, { accountId, contractId: 'EPL-1', outcome: 'ARS' }, now);
    const kinds = s.points.map((p) => p.resolution);
    expect(kinds.indexOf('raw')).toBeGreaterThan(0);
    expect(kinds.slice(kinds.indexOf('raw')).every((k) => k === 'raw')).toBe(true);
    expect(s.points[0]).toMatchObject({ at: T0, resolution: 'bucket', stepMs: 15 * MIN });
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
