/**
 * Prices over time (docs/prices.md): every index price the sync reads, kept per account and
 * (contract, outcome) as a series, written only when it changed.
 *
 * - `price_series`: one row per (account, contract, outcome), with the last price written (so
 *   the recorder compares without reading the points) and when the ager last went over it.
 * - `price_points`: the raw prices of the last 7 days, keyed (series, exchange time ms).
 * - `price_buckets`: open/high/low/close of older prices, `step_ms` wide, keyed (series, start).
 *
 * Prices are integer micros (the exchange quotes up to 4 places: exact). Both point tables are
 * WITHOUT ROWID, keyed by a small integer series id and a time, so a row is about 20 bytes and
 * a series' span is one range of the key.
 */
import type { Db } from '../connection.js';

export const version = 8;
export const name = 'price history';

export function up(db: Db): void {
  db.exec(`
    CREATE TABLE price_series (
      id           INTEGER PRIMARY KEY,
      account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      contract_id  TEXT NOT NULL,
      outcome      TEXT NOT NULL,
      last_at      INTEGER NOT NULL,
      last_price   INTEGER NOT NULL,
      aged_at      INTEGER NOT NULL,
      UNIQUE (account_id, contract_id, outcome)
    ) STRICT;
    CREATE INDEX price_series_by_aged ON price_series (aged_at);

    CREATE TABLE price_points (
      series_id  INTEGER NOT NULL REFERENCES price_series (id) ON DELETE CASCADE,
      at         INTEGER NOT NULL,
      price      INTEGER NOT NULL,
      PRIMARY KEY (series_id, at)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE price_buckets (
      series_id  INTEGER NOT NULL REFERENCES price_series (id) ON DELETE CASCADE,
      at         INTEGER NOT NULL,
      step_ms    INTEGER NOT NULL,
      open       INTEGER NOT NULL,
      high       INTEGER NOT NULL,
      low        INTEGER NOT NULL,
      close      INTEGER NOT NULL,
      PRIMARY KEY (series_id, at)
    ) STRICT, WITHOUT ROWID;
  `);
}
