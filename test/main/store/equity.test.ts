import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EQUITY_FINE_MS,
  EQUITY_FINE_STEP_MS,
  EQUITY_RAW_MS,
  openStore,
  type Store,
} from '../../../src/main/store/index.js';
import { position, tempStore } from './support.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);

let store: Store;
let accountId: number;
let file: string;
let done = () => {};
beforeEach(() => {
  ({ store, accountId, file, done } = tempStore());
});
afterEach(() => done());

describe('equity points', () => {
  it('are recorded with every positions snapshot, summed exactly, in its transaction', () => {
    store.replacePositions(
      accountId,
      [
        position('EPL-1', 'ARS', { pnl: '0.5', costBasis: '0.2', maxPayout: '1.1', value: '0.3' }),
        position('EPL-2', 'CHE', { pnl: '0.5', costBasis: '0.1', maxPayout: '2.2', value: '0.3' }),
      ],
      T0,
    );
    store.replacePositions(accountId, [], T0 + 5_000);
    // Unrealized P&L is value − cost basis (docs/pnl.md): 0.1 + 0.2, whatever pnl says.
    expect(store.equity.list(accountId)).toEqual([
      {
        at: T0,
        positions: 2,
        unrealizedMicros: 300_000,
        costBasisMicros: 300_000,
        maxPayoutMicros: 3_300_000,
        valueMicros: 600_000,
      },
      {
        at: T0 + 5_000,
        positions: 0,
        unrealizedMicros: 0,
        costBasisMicros: 0,
        maxPayoutMicros: 0,
        valueMicros: 0,
      },
    ]);
    // A snapshot that fails leaves no point either.
    const bad = { ...position('EPL-3', 'LIV'), value: 'n/a' };
    expect(() => store.replacePositions(accountId, [bad], T0 + 10_000)).toThrow();
    expect(store.equity.list(accountId)).toHaveLength(2);
    expect(store.positions.list(accountId)).toEqual([]);
  });

  it('keep every read for 2 days, then the last of each 15 minutes, then the last of each day', () => {
    // Four months of reads every 5 minutes, recorded as the sync would.
    const every = 5 * MINUTE;
    const end = T0 + 120 * DAY;
    for (let at = T0; at <= end; at += every) {
      store.replacePositions(accountId, [position('EPL-1', 'ARS', { pnl: String(at % 97) })], at);
    }
    const points = store.equity.list(accountId).map((p) => p.at);
    const raw = points.filter((at) => at >= end - EQUITY_RAW_MS);
    const fine = points.filter((at) => at < end - EQUITY_RAW_MS && at >= end - EQUITY_FINE_MS);
    const coarse = points.filter((at) => at < end - EQUITY_FINE_MS);
    expect(raw.length).toBe(EQUITY_RAW_MS / every + 1);
    // Older than 2 days: one per 15 minutes (the last of it), give or take the boundary bucket.
    expect(new Set(fine.map((at) => Math.floor(at / EQUITY_FINE_STEP_MS))).size).toBe(fine.length);
    expect(fine.every((at) => at % EQUITY_FINE_STEP_MS === EQUITY_FINE_STEP_MS - every)).toBe(true);
    expect(fine.length).toBeGreaterThanOrEqual(
      (EQUITY_FINE_MS - EQUITY_RAW_MS) / EQUITY_FINE_STEP_MS - 1,
    );
    // Older than 90 days: the last read of each UTC day.
    expect(new Set(coarse.map((at) => Math.floor(at / DAY))).size).toBe(coarse.length);
    expect(coarse.every((at) => at % DAY === DAY - every)).toBe(true);
    expect(coarse.length).toBeGreaterThanOrEqual(120 - 90 - 1);
    // Bounded: 2 days of reads + 88 days of quarter hours + a point a day.
    expect(points.length).toBeLessThanOrEqual(577 + 88 * 96 + 31 + 2);
  });

  it('thin what aged while the app was closed, at the next read', () => {
    for (let at = T0; at < T0 + DAY; at += MINUTE) store.replacePositions(accountId, [], at);
    store.close();
    store = openStore(file);
    // Back after 100 days: the day of reads becomes one point.
    store.replacePositions(accountId, [], T0 + 100 * DAY);
    expect(store.equity.list(accountId).map((p) => p.at)).toEqual([
      T0 + DAY - MINUTE,
      T0 + 100 * DAY,
    ]);
  });

  it('survive a restart', () => {
    store.replacePositions(accountId, [position('EPL-1', 'ARS')], T0);
    store.close();
    store = openStore(file);
    expect(store.equity.inForce(accountId, T0 + DAY)).toMatchObject({
      at: T0,
      positions: 1,
      unrealizedMicros: -1_160_000,
    });
    expect(store.equity.firstAt(accountId)).toBe(T0);
  });

  it('go with their account', () => {
    store.replacePositions(accountId, [position('EPL-1', 'ARS')], T0);
    store.accounts.remove(accountId);
    expect(store.db.prepare('SELECT count(*) FROM equity_points').pluck().get()).toBe(0);
  });
});
