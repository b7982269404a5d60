/**
 * A price history for the benchmarks, as the recorder and the ager would leave it after `days`
 * of polling (docs/prices.md): for every fixture's two outcomes, a new price every `stepMs`
 * (the worst case: every poll a change), raw for the last 7 days, then the ager's buckets
 * (15 minutes to 30 days, hourly to 90, daily before). Raw points are inserted poll by poll,
 * all series at each time, as the recorder writes them (so the pages fill as they would);
 * buckets series by series, as the ager writes them. Prices are a deterministic random walk in
 * steps of 0.0001, home + away = 1. Direct inserts in big transactions: seeding is not measured.
 */
import { PRICE_POLICY, RAW_KEEP_MS, RECENT_STEP_MS } from '../src/main/prices/ageing.js';
import type { Store } from '../src/main/store/index.js';
import { mulberry32 } from '../src/shared/random.js';

const DAY = 86_400_000;
/** A price of 1, in micros: home + away. */
const ONE = 1_000_000;

export interface PriceSeedOptions {
  fixtures: number;
  days: number;
  /** Time between two prices of an outcome (60_000: the fixtures poll). */
  stepMs: number;
  /** Exchange time the history ends at (default: now). */
  end?: number;
}

export interface SeededPrices {
  /** contractIds, `PX-000000` on. */
  contractIds: string[];
  series: number;
  rawRows: number;
  bucketRows: number;
  end: number;
  ms: number;
}

/** One step of the walk, in micros: ±0.0001 to ±0.0005, kept between 0.01 and 0.99. */
function walk(price: number, rand: () => number): number {
  const step = (1 + Math.floor(rand() * 5)) * 100 * (rand() < 0.5 ? -1 : 1);
  return Math.min(990_000, Math.max(10_000, price + step));
}

export function seedPrices(store: Store, accountId: number, o: PriceSeedOptions): SeededPrices {
  const started = performance.now();
  const end = Math.floor((o.end ?? Date.now()) / DAY) * DAY;
  const start = end - o.days * DAY;
  const db = store.db;
  const rand = mulberry32(18); // every run seeds the same history
  const contractIds = Array.from(
    { length: o.fixtures },
    (_, i) => `PX-${String(i).padStart(6, '0')}`,
  );
  const newSeries = db.prepare(
    `INSERT INTO price_series (account_id, contract_id, outcome, last_at, last_price, aged_at)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const ins = db.prepare('INSERT INTO price_points (series_id, at, price) VALUES (?, ?, ?)');
  const bucket = db.prepare(
    `INSERT INTO price_buckets (series_id, at, step_ms, open, high, low, close)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const setLast = db.prepare('UPDATE price_series SET last_at = ?, last_price = ? WHERE id = ?');

  // The aged tiers' spans, oldest first: [from, to) with their bucket width. The raw week
  // after them has the recorder's 15-minute buckets beside its points.
  const rawFrom = Math.max(start, end - RAW_KEEP_MS);
  const { tiers } = PRICE_POLICY;
  const spans = tiers
    .map((t, i) => {
      const older = tiers[i + 1];
      const from = older === undefined ? start : Math.max(start, end - older.olderThanMs);
      return { from, to: Math.max(start, end - t.olderThanMs), step: t.stepMs };
    })
    .reverse()
    .filter((span) => span.to > span.from);

  // Home prices per fixture; each series' id (home, away).
  const price = contractIds.map(() => 200_000 + Math.floor(rand() * 600_000));
  const ids: [number, number][] = [];
  let bucketRows = 0;
  db.transaction(() => {
    for (const [i, c] of contractIds.entries()) {
      const home = newSeries
        .pluck()
        .get(accountId, c, `H${i % 1000}`, start, price[i], end) as number;
      const away = newSeries
        .pluck()
        .get(accountId, c, `A${i % 1000}`, start, price[i], end) as number;
      ids.push([home, away]);
      let p = price[i]!;
      for (const span of spans) {
        for (let at = span.from; at < span.to; at += span.step) {
          // A bucket of a step's worth of moves: open, the walk's extremes, close.
          const open = p;
          let high = p;
          let low = p;
          const moves = Math.max(1, Math.round(span.step / o.stepMs));
          for (let m = 0; m < Math.min(moves, 8); m++) {
            p = walk(p, rand);
            high = Math.max(high, p);
            low = Math.min(low, p);
          }
          bucket.run(home, at, span.step, open, high, low, p);
          bucket.run(away, at, span.step, ONE - open, ONE - low, ONE - high, ONE - p);
          bucketRows += 2;
        }
      }
      price[i] = p;
    }
  })();

  // The raw week, poll by poll; each quarter hour's bucket is written when it ends, as the
  // recorder's upserts leave it.
  let rawRows = 0;
  const open = [...price];
  const high = [...price];
  const low = [...price];
  const chunk = Math.max(1, Math.floor(DAY / o.stepMs / 4));
  for (let at = rawFrom; at < end;) {
    db.transaction(() => {
      for (let n = 0; n < chunk && at < end; n++, at += o.stepMs) {
        const bucketEnds = (at + o.stepMs) % RECENT_STEP_MS === 0 || at + o.stepMs >= end;
        const first = at % RECENT_STEP_MS === 0;
        for (const [i, [home, away]] of ids.entries()) {
          const p = walk(price[i]!, rand);
          price[i] = p;
          ins.run(home, at, p);
          ins.run(away, at, ONE - p);
          rawRows += 2;
          open[i] = first ? p : open[i]!;
          high[i] = first ? p : Math.max(high[i]!, p);
          low[i] = first ? p : Math.min(low[i]!, p);
          if (bucketEnds) {
            const b = at - (at % RECENT_STEP_MS);
            bucket.run(home, b, RECENT_STEP_MS, open[i], high[i], low[i], p);
            bucket.run(
              away,
              b,
              RECENT_STEP_MS,
              ONE - open[i],
              ONE - low[i],
              ONE - high[i],
              ONE - p,
            );
            bucketRows += 2;
          }
        }
      }
    })();
  }
  db.transaction(() => {
    for (const [i, [home, away]] of ids.entries()) {
      setLast.run(end - o.stepMs, price[i], home);
      setLast.run(end - o.stepMs, ONE - price[i]!, away);
    }
  })();
  return {
    contractIds,
    series: ids.length * 2,
    rawRows,
    bucketRows,
    end,
    ms: performance.now() - started,
  };
}
