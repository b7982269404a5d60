/**
 * The fixtures table's columns after its key, as migration 001 created them and 005 rebuilt the
 * table per account with them. Migrations are history: this text is what those two ran, so it
 * never changes. A later migration that needs other columns writes its own.
 */
export const FIXTURE_COLUMNS = `league         TEXT NOT NULL,
      home_team      TEXT NOT NULL,
      away_team      TEXT NOT NULL,
      starts_at      INTEGER NOT NULL,
      betting_open   INTEGER NOT NULL CHECK (betting_open IN (0, 1)),
      status         TEXT NOT NULL CHECK (status IN ('OPEN', 'CLOSED', 'RESOLVED')),
      home_price     TEXT NOT NULL,
      away_price     TEXT NOT NULL,
      winner         TEXT,
      lot_size       INTEGER NOT NULL,
      min_contracts  INTEGER NOT NULL,
      updated_at     INTEGER NOT NULL`;
