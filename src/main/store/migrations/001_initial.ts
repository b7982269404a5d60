/**
 * The first schema of the local store.
 *
 * Conventions every later migration keeps:
 * - Money, prices and percentages are TEXT decimal strings exactly as the exchange sent them;
 *   no column holding money is REAL. Tables are STRICT so a number can never slip into them.
 * - Times are INTEGER milliseconds since epoch (server clock where the exchange gave them).
 * - No table has a column for an API secret: secrets live in the OS keychain, keyed by account id.
 * - Everything an account owns cascades when the account is removed.
 */
import type { Db } from '../connection.js';
import { FIXTURE_COLUMNS } from './fixture-sql.js';

export const version = 1;
export const name = 'initial';

export function up(db: Db): void {
  db.exec(`
    CREATE TABLE accounts (
      id          INTEGER PRIMARY KEY,
      label       TEXT NOT NULL UNIQUE,
      base_url    TEXT NOT NULL,
      api_key     TEXT NOT NULL,  -- the key id, which is not secret; the secret is in the keychain
      permission  TEXT CHECK (permission IN ('read', 'trade')),
      wallet      TEXT,
      is_paper    INTEGER NOT NULL DEFAULT 0 CHECK (is_paper IN (0, 1)),
      created_at  INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE order_intents (
      client_order_id  TEXT PRIMARY KEY,
      account_id       INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      params_hash      TEXT NOT NULL,
      params_json      TEXT NOT NULL,
      state            TEXT NOT NULL
                       CHECK (state IN ('pending', 'sent', 'unknown', 'failed', 'done')),
      order_id         TEXT,
      last_error_code  INTEGER,
      last_error_msg   TEXT,
      created_at       INTEGER NOT NULL,
      updated_at       INTEGER NOT NULL
    ) STRICT;
    -- Intents not yet matched to an exchange order: what recovery after a crash looks at.
    CREATE INDEX order_intents_open ON order_intents (account_id, created_at)
      WHERE state <> 'done';

    CREATE TABLE orders (
      account_id       INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      order_id         TEXT NOT NULL,
      client_order_id  TEXT NOT NULL,
      contract_id      TEXT NOT NULL,
      outcome          TEXT NOT NULL,
      side             TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
      status           TEXT NOT NULL CHECK (status IN ('CLAIMED', 'SUBMITTED', 'OPEN', 'FILLED',
                         'CANCELED', 'EXPIRED', 'REJECTED', 'FAILED')),
      contracts        INTEGER NOT NULL,
      entry_price      TEXT NOT NULL,
      cost             TEXT NOT NULL,
      max_win          TEXT NOT NULL,
      knockout         TEXT,
      deadline         INTEGER NOT NULL,
      tx               TEXT NOT NULL,
      error_code       INTEGER,
      error_msg        TEXT,
      order_type       TEXT NOT NULL CHECK (order_type IN ('MARKET', 'FOK')),
      market_unit      TEXT NOT NULL CHECK (market_unit IN ('BASE', 'QUOTE')),
      qty              TEXT NOT NULL,
      boost            INTEGER NOT NULL,
      proceeds         TEXT,
      rfq_id           TEXT,
      created_at       INTEGER NOT NULL,
      updated_at       INTEGER NOT NULL,
      PRIMARY KEY (account_id, order_id)
    ) STRICT, WITHOUT ROWID;
    -- Few indexes on purpose: every one costs on each order update the sync engine applies.
    -- Status and team filters scan the newest-first index; a bettor's order book is small.
    CREATE INDEX orders_by_client_id ON orders (account_id, client_order_id);
    CREATE INDEX orders_by_created ON orders (account_id, created_at);
    CREATE INDEX orders_by_contract ON orders (account_id, contract_id, created_at);

    CREATE TABLE settlements (
      id            INTEGER PRIMARY KEY,  -- local; the stable tie-breaker of the ordering
      account_id    INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      dedup_key     BLOB NOT NULL,        -- see settlementKey(): one row per real settlement
      type          TEXT NOT NULL CHECK (type IN ('CLOSED', 'KNOCKED_OUT', 'SETTLEMENT')),
      contract_id   TEXT NOT NULL,
      outcome       TEXT NOT NULL,
      contracts     INTEGER NOT NULL,
      price         TEXT,
      pnl           TEXT,
      payout        TEXT,
      tx            TEXT NOT NULL,
      timestamp     TEXT NOT NULL,        -- ISO 8601 UTC
      timestamp_ms  INTEGER NOT NULL CHECK (timestamp_ms >= 0),
      UNIQUE (account_id, dedup_key)
    ) STRICT;
    -- One index per filter the history view offers, each ending in the time column so a page
    -- is read in order without sorting; the rowid is implicitly last, completing the order.
    CREATE INDEX settlements_by_time ON settlements (account_id, timestamp_ms);
    CREATE INDEX settlements_by_type ON settlements (account_id, type, timestamp_ms);
    CREATE INDEX settlements_by_contract ON settlements (account_id, contract_id, timestamp_ms);
    CREATE INDEX settlements_by_outcome ON settlements (account_id, outcome, timestamp_ms);
    CREATE INDEX settlements_by_outcome_type
      ON settlements (account_id, outcome, type, timestamp_ms);

    -- Rows per account, UTC day and type, kept by triggers. Lets a page of a long history get
    -- its total and jump to a deep offset without counting a million index entries.
    CREATE TABLE settlement_day_counts (
      account_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      day         INTEGER NOT NULL,  -- timestamp_ms / 86400000
      type        TEXT NOT NULL,
      n           INTEGER NOT NULL,
      PRIMARY KEY (account_id, day, type)
    ) STRICT, WITHOUT ROWID;

    CREATE TRIGGER settlements_count_insert AFTER INSERT ON settlements BEGIN
      INSERT INTO settlement_day_counts (account_id, day, type, n)
        VALUES (NEW.account_id, NEW.timestamp_ms / 86400000, NEW.type, 1)
        ON CONFLICT (account_id, day, type) DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER settlements_count_delete AFTER DELETE ON settlements BEGIN
      UPDATE settlement_day_counts SET n = n - 1
        WHERE account_id = OLD.account_id AND day = OLD.timestamp_ms / 86400000
          AND type = OLD.type;
    END;
    -- A settlement is a fact the exchange reported; it is never edited, only added or dropped.
    CREATE TRIGGER settlements_immutable BEFORE UPDATE ON settlements BEGIN
      SELECT RAISE(ABORT, 'settlements are append-only');
    END;

    CREATE TABLE position_snapshots (
      account_id               INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      contract_id              TEXT NOT NULL,
      outcome                  TEXT NOT NULL,
      contracts                INTEGER NOT NULL,
      entry_price              TEXT NOT NULL,
      estimated_closing_price  TEXT NOT NULL,
      boosted                  INTEGER NOT NULL CHECK (boosted IN (0, 1)),
      cost_basis               TEXT NOT NULL,
      value                    TEXT NOT NULL,
      pnl                      TEXT NOT NULL,
      pnl_percent              TEXT NOT NULL,
      max_payout               TEXT NOT NULL,
      knockout                 TEXT,
      updated_at               INTEGER NOT NULL,
      snapshot_at              INTEGER NOT NULL,
      PRIMARY KEY (account_id, contract_id, outcome)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE fixtures (
      contract_id    TEXT PRIMARY KEY,
      ${FIXTURE_COLUMNS}
    ) STRICT;
    CREATE INDEX fixtures_by_start ON fixtures (starts_at);
    CREATE INDEX fixtures_by_league ON fixtures (league COLLATE NOCASE, starts_at);
    CREATE INDEX fixtures_by_home ON fixtures (home_team, starts_at);
    CREATE INDEX fixtures_by_away ON fixtures (away_team, starts_at);

    CREATE TABLE sync_cursors (
      account_id    INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      stream        TEXT NOT NULL,
      cursor        INTEGER NOT NULL,
      last_sync_at  INTEGER NOT NULL,
      PRIMARY KEY (account_id, stream)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE alerts (
      id           INTEGER PRIMARY KEY,
      account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      kind         TEXT NOT NULL CHECK (kind IN ('near', 'knocked_out')),
      contract_id  TEXT NOT NULL,
      outcome      TEXT NOT NULL,
      level        TEXT,  -- index price that raised the alert
      threshold    TEXT,  -- the knockout price it was measured against
      message      TEXT NOT NULL,
      dedup_key    TEXT NOT NULL,
      created_at   INTEGER NOT NULL,
      UNIQUE (account_id, dedup_key)
    ) STRICT;
    CREATE INDEX alerts_by_created ON alerts (account_id, created_at);
  `);
}
