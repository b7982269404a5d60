/**
 * A portfolio for the benchmarks (bench:portfolio): a year of equity points as recording and
 * thinning leave them (docs/portfolio.md: every read for 2 days, the last of each 15 minutes to
 * 90 days, the last of each UTC day beyond), and 200 open positions on fixtures to come, in the
 * leagues of settlement-seed.ts. Deterministic: every run measures the same portfolio.
 */
import type { Fixture, Position } from '../src/shared/api/schemas.js';
import { dec } from '../src/shared/money.js';
import {
  EQUITY_COARSE_STEP_MS,
  EQUITY_FINE_MS,
  EQUITY_FINE_STEP_MS,
  EQUITY_RAW_MS,
  type Store,
} from '../src/main/store/index.js';
import { SEED_LEAGUES, seedTeam } from './settlement-seed.js';

const DAY = 86_400_000;

export interface EquitySeedOptions {
  /** How far back the points reach. */
  days: number;
  /** The positions read's interval (the sync's: 3.5 s with boosted positions open, else 30 s). */
  everyMs: number;
  /** The newest point's time. Default Date.now(). */
  now?: number;
}

/** Writes the points a year of reads leaves after thinning; returns how many. */
export function seedEquity(store: Store, accountId: number, opts: EquitySeedOptions): number {
  const now = opts.now ?? Date.now();
  const ins = store.db.prepare(
    `INSERT OR REPLACE INTO equity_points
       (account_id, at, positions, unrealized, cost_basis, max_payout, value)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  let written = 0;
  store.transaction(() => {
    for (let at = now - opts.days * DAY; at <= now; at += opts.everyMs) {
      if (!kept(at, opts.everyMs, now)) continue;
      // A slow swing of ±$400 with a daily ripple, in whole cents.
      const t = at / DAY;
      const unrealized = Math.round(40_000 * Math.sin(t / 23) + 5_000 * Math.sin(t * 6.3)) * 10_000;
      const cost = 2_000_000_000 + Math.round(300_000 * Math.sin(t / 7)) * 1_000;
      ins.run(accountId, at, 200, unrealized, cost, cost * 2, cost + unrealized);
      written++;
    }
  });
  return written;
}

/** True when recording every `everyMs` up to `now`, then thinning, keeps the read at `at`. */
function kept(at: number, everyMs: number, now: number): boolean {
  const age = now - at;
  if (age < EQUITY_RAW_MS) return true;
  const step = age < EQUITY_FINE_MS ? EQUITY_FINE_STEP_MS : EQUITY_COARSE_STEP_MS;
  // The last read of its bucket: the next one falls in the next bucket.
  return Math.floor((at + everyMs) / step) !== Math.floor(at / step);
}

/**
 * `count` open positions (default 200) on as many fixtures of the coming week, a third of them
 * boosted with a knockout, stored as one positions read of `accountId` at `now`.
 */
export function seedPositions(
  store: Store,
  accountId: number,
  now = Date.now(),
  count = 200,
): { fixtures: Fixture[]; positions: Position[] } {
  const fixtures: Fixture[] = [];
  const positions: Position[] = [];
  for (let i = 0; i < count; i++) {
    const l = (i * 5) % SEED_LEAGUES.length;
    const home = seedTeam(l, i % 20);
    const away = seedTeam(l, (i + 7) % 20);
    const homeCents = 20 + ((i * 37) % 60);
    fixtures.push({
      contractId: `OPEN-${String(i).padStart(4, '0')}`,
      league: SEED_LEAGUES[l]![0],
      homeTeam: home,
      awayTeam: away,
      startsAt: now + (1 + (i % 7)) * DAY,
      bettingOpen: true,
      status: 'OPEN',
      homePrice: `0.${String(homeCents).padStart(2, '0')}00`,
      awayPrice: `0.${String(100 - homeCents).padStart(2, '0')}00`,
      lotSize: 1,
      minContracts: 1,
    });
    const contracts = 10 + ((i * 13) % 90);
    const entryCents = homeCents + ((i % 11) - 5);
    const cost = contracts * entryCents;
    const value = contracts * homeCents;
    const boosted = i % 3 === 0;
    const position: Position = {
      contractId: fixtures[i]!.contractId,
      outcome: home,
      contracts,
      entryPrice: `0.${String(entryCents).padStart(2, '0')}00`,
      estimatedClosingPrice: `0.${String(homeCents).padStart(2, '0')}00`,
      boosted,
      costBasis: cents(cost),
      value: cents(value),
      pnl: cents(value - cost),
      pnlPercent: dec(value - cost)
        .times(100)
        .dividedBy(cost)
        .toFixed(4),
      maxPayout: cents(contracts * 100 - cost),
      updatedAt: now,
    };
    // Knockouts 4 % to 40 % below the index: some near, most not.
    if (boosted) position.knockout = ((homeCents * (1 - (4 + (i % 37)) / 100)) / 100).toFixed(4);
    positions.push(position);
  }
  store.fixtures.upsertMany(accountId, fixtures, now);
  store.replacePositions(accountId, positions, now);
  return { fixtures, positions };
}

function cents(n: number): string {
  const sign = n < 0 ? '-' : '';
  const a = Math.abs(n);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}
