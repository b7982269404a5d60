/**
 * Prices over time (docs/prices.md): the index prices the sync reads, one series per account,
 * contract and outcome. The recorder writes a raw point only when an outcome's price changed,
 * and keeps the quarter hour's open/high/low/close bucket up to date with it, so a 24 h line
 * reads 96 buckets, never every point. The ager drops raw points older than a week (their
 * buckets stay) and folds buckets into wider ones as they age, a bounded batch at a time.
 * Prices are integer micros (exact: the exchange quotes up to 4 places); times are the
 * exchange's, ms.
 */
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';

/** One outcome's price as read, in micros. */
export interface PriceQuote {
  contractId: string;
  outcome: string;
  micros: number;
}

/** Buckets `fromStepMs` wide older than `olderThanMs` fold into buckets `stepMs` wide. */
export interface AgeingTier {
  olderThanMs: number;
  fromStepMs: number;
  stepMs: number;
}

/** What the recorder keeps and how it ages (prices/ageing.ts holds the numbers). */
export interface PricePolicy {
  /** The width of the buckets the recorder keeps beside the raw points (aligned on UTC). */
  recentStepMs: number;
  /** Raw points older than this are dropped (their recent buckets hold them). */
  rawKeepMs: number;
  /** Coarser buckets as prices age, finest first. */
  tiers: readonly AgeingTier[];
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
 * One outcome's 24 h line as stored: the close of its last bucket before the window (carried
 * in), and its buckets inside the window as one text, "at open close at open close ..." (whole
 * numbers, oldest first): 400 rows cross into JS for 200 fixtures, not 38,800.
 */
export interface LineRow {
  contractId: string;
  outcome: string;
  carried: number | null;
  buckets: string | null;
  /** The first raw point inside the window: when a line that carries nothing in begins. */
  firstAt: number | null;
}

export interface PriceSeriesRef {
  id: number;
  lastAt: number;
  lastPrice: number;
}

export interface AgeingStep {
  /** Points dropped and buckets folded by this step. */
  rows: number;
  /** Nothing is left to age as of `now`. */
  done: boolean;
}

/** How often each series is gone over by the ager. */
export const AGE_EVERY_MS = 15 * 60_000;

const alignDown = (at: number, stepMs: number) => Math.floor(at / stepMs) * stepMs;

export class PricesRepo {
  readonly #db: Db;
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#db = db;
    this.#sql = new StatementCache(db);
  }

  /**
   * Records one poll's prices read at exchange time `at`, in one transaction: for each outcome
   * whose price differs from its last one (or that has none yet), a raw point and its share of
   * the current `recentStepMs` bucket. A time not after the series' last point (the clock
   * offset was measured again) is moved 1 ms after it, so a series stays in order. Returns the
   * points written.
   */
  record(
    accountId: number,
    at: number,
    quotes: readonly PriceQuote[],
    recentStepMs: number,
  ): number {
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
          let id: number;
          let when = at;
          if (s === undefined) {
            id = create.pluck().get(accountId, contractId, outcome, at, q.micros, at) as number;
          } else if (s.lastPrice !== q.micros) {
            id = s.id;
            when = Math.max(at, s.lastAt + 1);
            setLast.run(when, q.micros, id);
          } else {
            continue;
          }
          point.run(id, when, q.micros);
          const p = q.micros;
          this.#upsertBuckets(id, [
            {
              at: alignDown(when, recentStepMs),
              stepMs: recentStepMs,
              open: p,
              high: p,
              low: p,
              close: p,
            },
          ]);
          written++;
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
   * The 24 h lines of the account's `contractIds`, in one query: for each outcome, the close
   * of its last bucket before `from`, and its buckets of [from, to); by contract and outcome.
   */
  lineRows(accountId: number, contractIds: readonly string[], from: number, to: number): LineRow[] {
    return this.#sql
      .get(
        `SELECT s.contract_id AS contractId, s.outcome AS outcome,
           (SELECT close FROM price_buckets
            WHERE series_id = s.id AND at < @from ORDER BY at DESC LIMIT 1) AS carried,
           (SELECT group_concat(b.at || ' ' || b.open || ' ' || b.close, ' ' ORDER BY b.at)
            FROM price_buckets b
            WHERE b.series_id = s.id AND b.at >= @from AND b.at < @to) AS buckets,
           (SELECT at FROM price_points
            WHERE series_id = s.id AND at >= @from AND at < @to ORDER BY at LIMIT 1) AS firstAt
         FROM price_series s
         WHERE s.account_id = @accountId AND s.contract_id IN (SELECT value FROM json_each(@ids))
         ORDER BY 1, 2`,
      )
      .all({
        accountId,
        ids: JSON.stringify(contractIds.map((c) => c.toUpperCase())),
        from,
        to,
      }) as LineRow[];
  }

  /**
   * A series' prices that overlap [from, to), oldest first: its buckets that end before its
   * oldest raw point, then its raw points (the recent buckets beside them are not repeated).
   */
  candles(seriesId: number, from: number, to: number): Candle[] {
    return this.#sql
      .get(
        `WITH r AS (
           SELECT coalesce(
             (SELECT at FROM price_points WHERE series_id = @seriesId ORDER BY at LIMIT 1),
             @to) AS start
         )
         SELECT at, step_ms AS stepMs, open, high, low, close FROM price_buckets, r
         WHERE series_id = @seriesId AND at < @to AND at + step_ms > @from
           AND at + step_ms <= r.start
         UNION ALL
         SELECT at, 0, price, price, price, price FROM price_points
         WHERE series_id = @seriesId AND at >= @from AND at < @to
         ORDER BY 1`,
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
   * within AGE_EVERY_MS) get their raw points older than `rawKeepMs` dropped (to a bucket
   * boundary), and each tier's buckets folded into the next's, until `budget` rows were
   * touched. A series cut short by the budget is taken up again by the next step, where it
   * stopped (a bucket cut in two is merged: high and low widen, the close is the later one).
   */
  ageStep(policy: PricePolicy, now: number, budget: number): AgeingStep {
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
          const rawCutoff = alignDown(now - policy.rawKeepMs, policy.recentStepMs);
          const dropped = this.#dropRaw(id, rawCutoff, budget - rows);
          let complete = dropped < budget - rows;
          rows += dropped;
          for (const tier of policy.tiers) {
            if (!complete) break;
            const left = budget - rows;
            const cutoff = alignDown(now - tier.olderThanMs, tier.stepMs);
            const folded = this.#foldBuckets(id, tier.fromStepMs, cutoff, tier.stepMs, left);
            complete = folded < left;
            rows += folded;
          }
          if (!complete) return { rows, done: false };
          aged.run(now, id);
          if (rows >= budget) return { rows, done: false };
        }
      })
      .immediate();
  }

  /** Drops up to `limit` raw points before `cutoff`; returns how many. */
  #dropRaw(seriesId: number, cutoff: number, limit: number): number {
    // The first point kept: the limit-th before the cutoff, or none (all of them go).
    const stop = this.#sql
      .get(
        `SELECT at FROM price_points WHERE series_id = ? AND at < ?
         ORDER BY at LIMIT 1 OFFSET ?`,
      )
      .pluck()
      .get(seriesId, cutoff, limit) as number | undefined;
    return this.#sql
      .get('DELETE FROM price_points WHERE series_id = ? AND at < ?')
      .run(seriesId, stop ?? cutoff).changes;
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
    const at = alignDown(c.at, stepMs);
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
