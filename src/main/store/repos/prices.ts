/**
 * Prices over time (docs/prices.md): the index prices the sync reads, one series per account,
 * contract and outcome. The recorder writes a raw point only when an outcome's price changed;
 * the ager folds raw points older than a week into open/high/low/close buckets, and those into
 * wider ones as they age, a bounded batch at a time. Prices are integer micros (exact: the
 * exchange quotes up to 4 places). Times are the exchange's, ms.
 */
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';

/** One outcome's price as read, in micros. */
export interface PriceQuote {
  contractId: string;
  outcome: string;
  micros: number;
}

/** Prices older than `olderThanMs` are kept as buckets `stepMs` wide (aligned on UTC). */
export interface AgeingTier {
  olderThanMs: number;
  stepMs: number;
}

/** A raw point (`stepMs` 0, open = high = low = close) or a bucket, prices in micros. */
export interface Candle {
  at: number;
  stepMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * A point of a 24 h line: the last price of step `k`; -2: the price carried in at `from`,
 * -1: the first price inside the window.
 */
export interface LineRow {
  contractId: string;
  outcome: string;
  k: number;
  at: number;
  price: number | null;
}

export interface PriceSeriesRef {
  id: number;
  lastAt: number;
  lastPrice: number;
}

export interface AgeingStep {
  /** Points and buckets folded by this step. */
  rows: number;
  /** Nothing is left to age as of `now`. */
  done: boolean;
}

/** How often each series is gone over by the ager. */
export const AGE_EVERY_MS = 15 * 60_000;

export class PricesRepo {
  readonly #db: Db;
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#db = db;
    this.#sql = new StatementCache(db);
  }

  /**
   * Records one poll's prices read at exchange time `at`, in one transaction: a point for each
   * outcome whose price differs from its last one (or that has none yet). A time not after
   * the series' last point (the clock offset was measured again) is moved 1 ms after it, so a
   * series stays in order. Returns the points written.
   */
  record(accountId: number, at: number, quotes: readonly PriceQuote[]): number {
    const find = this.#sql.get(
      `SELECT id, last_at AS lastAt, last_price AS lastPrice FROM price_series
       WHERE account_id = ? AND contract_id = ? AND outcome = ?`,
    );
    const create = this.#sql.get(
      `INSERT INTO price_series (account_id, contract_id, outcome, last_at, last_price, aged_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    );
    const point = this.#sql.get(
      `INSERT INTO price_points (series_id, at, price) VALUES (?, ?, ?)
       ON CONFLICT (series_id, at) DO UPDATE SET price = excluded.price`,
    );
    const setLast = this.#sql.get(
      'UPDATE price_series SET last_at = ?, last_price = ? WHERE id = ?',
    );
    return this.#db
      .transaction(() => {
        let written = 0;
        for (const q of quotes) {
          const contractId = q.contractId.toUpperCase();
          const outcome = q.outcome.toUpperCase();
          const s = find.get(accountId, contractId, outcome) as PriceSeriesRef | undefined;
          if (s === undefined) {
            const id = create.pluck().get(accountId, contractId, outcome, at, q.micros, at);
            point.run(id, at, q.micros);
            written++;
          } else if (s.lastPrice !== q.micros) {
            const when = Math.max(at, s.lastAt + 1);
            point.run(s.id, when, q.micros);
            setLast.run(when, q.micros, s.id);
            written++;
          }
        }
        return written;
      })
      .immediate();
  }

  /** The account's series of (contract, outcome), if any price was recorded. */
  series(accountId: number, contractId: string, outcome: string): PriceSeriesRef | undefined {
    return this.#sql
      .get(
        `SELECT id, last_at AS lastAt, last_price AS lastPrice FROM price_series
         WHERE account_id = ? AND contract_id = ? AND outcome = ?`,
      )
      .get(accountId, contractId.toUpperCase(), outcome.toUpperCase()) as
      PriceSeriesRef | undefined;
  }

  /**
   * The 24 h lines of the account's `contractIds`, in one query: for each outcome, the price
   * carried in at `from` (k = -2: the last raw point before it, else the last bucket's close),
   * the first price inside the window (k = -1), and the last price of each of the steps
   * `stepMs` wide from `from` to `to` (k = 0, 1, ...); by contract, outcome, time and k.
   */
  lineRows(
    accountId: number,
    contractIds: readonly string[],
    from: number,
    to: number,
    stepMs: number,
  ): LineRow[] {
    return this.#sql
      .get(
        `WITH s AS (
           SELECT id, contract_id, outcome FROM price_series
           WHERE account_id = @accountId AND contract_id IN (SELECT value FROM json_each(@ids))
         ),
         p AS (
           SELECT s.id, s.contract_id, s.outcome, p.at, p.price
           FROM s JOIN price_points p ON p.series_id = s.id AND p.at >= @from AND p.at < @to
         )
         SELECT s.contract_id AS contractId, s.outcome AS outcome, -2 AS k, @from AS at,
           coalesce(
             (SELECT price FROM price_points
              WHERE series_id = s.id AND at < @from ORDER BY at DESC LIMIT 1),
             (SELECT close FROM price_buckets
              WHERE series_id = s.id AND at < @from ORDER BY at DESC LIMIT 1)) AS price
         FROM s
         UNION ALL
         SELECT contract_id, outcome, -1, min(at), price FROM p GROUP BY id
         UNION ALL
         SELECT contract_id, outcome, CAST((at - @from) / @stepMs AS INTEGER) AS k, max(at), price
         FROM p GROUP BY id, k
         ORDER BY 1, 2, 4, 3`,
      )
      .all({
        accountId,
        ids: JSON.stringify(contractIds.map((c) => c.toUpperCase())),
        from,
        to,
        stepMs,
      }) as LineRow[];
  }

  /**
   * A series' buckets and raw points that overlap [from, to), oldest first (buckets come
   * before raw points: they hold the older prices).
   */
  candles(seriesId: number, from: number, to: number): Candle[] {
    return this.#sql
      .get(
        `SELECT at, stepMs, open, high, low, close FROM (
           SELECT at, step_ms AS stepMs, open, high, low, close FROM price_buckets
           WHERE series_id = @seriesId AND at < @to AND at + step_ms > @from
           UNION ALL
           SELECT at, 0, price, price, price, price FROM price_points
           WHERE series_id = @seriesId AND at >= @from AND at < @to)
         ORDER BY at`,
      )
      .all({ seriesId, from, to }) as Candle[];
  }

  /** The time of the oldest price kept of the series (a bucket's start or a raw point's). */
  oldest(seriesId: number): number | undefined {
    const at = this.#sql
      .get(
        `SELECT min(at) FROM (
           SELECT min(at) AS at FROM price_buckets WHERE series_id = @seriesId
           UNION ALL SELECT min(at) FROM price_points WHERE series_id = @seriesId)`,
      )
      .pluck()
      .get({ seriesId }) as number | null;
    return at ?? undefined;
  }

  /**
   * One bounded step of ageing, in one transaction: the series least recently gone over (not
   * within AGE_EVERY_MS) get their raw points older than tiers[0] folded into its buckets, and
   * each tier's buckets older than the next tier folded into the next's, until `budget` rows
   * were read. A series cut short by the budget is taken up again by the next step, where it
   * stopped (a bucket cut in two is merged: high and low widen, the close is the later one).
   */
  ageStep(tiers: readonly AgeingTier[], now: number, budget: number): AgeingStep {
    const next = this.#sql.get(
      `SELECT id FROM price_series WHERE aged_at <= ? ORDER BY aged_at LIMIT 1`,
    );
    const aged = this.#sql.get('UPDATE price_series SET aged_at = ? WHERE id = ?');
    return this.#db
      .transaction(() => {
        let rows = 0;
        for (;;) {
          const id = next.pluck().get(now - AGE_EVERY_MS) as number | undefined;
          if (id === undefined) return { rows, done: true };
          let complete = true;
          for (let i = 0; i < tiers.length && complete; i++) {
            const tier = tiers[i]!;
            const cutoff = Math.floor((now - tier.olderThanMs) / tier.stepMs) * tier.stepMs;
            const left = budget - rows;
            const read =
              i === 0
                ? this.#foldRaw(id, cutoff, tier.stepMs, left)
                : this.#foldBuckets(id, tiers[i - 1]!.stepMs, cutoff, tier.stepMs, left);
            rows += read;
            complete = read < left;
          }
          if (!complete) return { rows, done: false };
          aged.run(now, id);
          if (rows >= budget) return { rows, done: false };
        }
      })
      .immediate();
  }

  /** Folds up to `limit` raw points before `cutoff` into `stepMs` buckets; returns those read. */
  #foldRaw(seriesId: number, cutoff: number, stepMs: number, limit: number): number {
    const points = this.#sql
      .get(
        `SELECT at, price FROM price_points WHERE series_id = ? AND at < ?
         ORDER BY at LIMIT ?`,
      )
      .all(seriesId, cutoff, limit) as { at: number; price: number }[];
    if (points.length === 0) return 0;
    const candles = points.map((p) => ({
      at: p.at,
      stepMs: 0,
      open: p.price,
      high: p.price,
      low: p.price,
      close: p.price,
    }));
    this.#sql
      .get('DELETE FROM price_points WHERE series_id = ? AND at <= ?')
      .run(seriesId, points.at(-1)!.at);
    this.#upsertBuckets(seriesId, foldCandles(candles, stepMs));
    return points.length;
  }

  /** Folds up to `limit` buckets `fromStep` wide before `cutoff` into `toStep` buckets. */
  #foldBuckets(
    seriesId: number,
    fromStep: number,
    cutoff: number,
    toStep: number,
    limit: number,
  ): number {
    const candles = this.#sql
      .get(
        `SELECT at, step_ms AS stepMs, open, high, low, close FROM price_buckets
         WHERE series_id = ? AND at < ? AND step_ms = ? ORDER BY at LIMIT ?`,
      )
      .all(seriesId, cutoff, fromStep, limit) as Candle[];
    if (candles.length === 0) return 0;
    const del = this.#sql.get('DELETE FROM price_buckets WHERE series_id = ? AND at = ?');
    for (const c of candles) del.run(seriesId, c.at);
    this.#upsertBuckets(seriesId, foldCandles(candles, toStep));
    return candles.length;
  }

  #upsertBuckets(seriesId: number, buckets: readonly Candle[]): void {
    const up = this.#sql.get(
      `INSERT INTO price_buckets (series_id, at, step_ms, open, high, low, close)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (series_id, at) DO UPDATE SET high = max(high, excluded.high),
         low = min(low, excluded.low), close = excluded.close`,
    );
    for (const b of buckets) up.run(seriesId, b.at, b.stepMs, b.open, b.high, b.low, b.close);
  }
}

/**
 * Candles (oldest first) merged into buckets `stepMs` wide aligned on the epoch: open of the
 * first, high and low of all, close of the last.
 */
export function foldCandles(candles: readonly Candle[], stepMs: number): Candle[] {
  const out: Candle[] = [];
  for (const c of candles) {
    const at = Math.floor(c.at / stepMs) * stepMs;
    const last = out.at(-1);
    if (last?.at === at) {
      last.high = Math.max(last.high, c.high);
      last.low = Math.min(last.low, c.low);
      last.close = c.close;
    } else {
      out.push({ at, stepMs, open: c.open, high: c.high, low: c.low, close: c.close });
    }
  }
  return out;
}
