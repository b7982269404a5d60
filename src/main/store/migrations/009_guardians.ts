/**
 * Guardians (docs/guardians.md): exit rules armed on a position, and the guardian log.
 *
 * - `guard_rules`: one row per rule as armed, never deleted (the log names it). A rule's close
 *   is claimed by setting `client_order_id` with the state `firing` in one UPDATE guarded by
 *   `state = 'armed'`, before the trading service records its order intent: the write-ahead
 *   that makes a restart, or a second process on the same store (the CLI beside the app),
 *   resume the same close instead of sending another.
 * - `guard_log`: every firing and every held-back firing with the figures it was judged on,
 *   the order and its outcome; append-only.
 * - `alerts` takes the kind `guard`. SQLite cannot change a CHECK constraint in place, so the
 *   table is rebuilt as migration 003 did, every row kept.
 */
import type { Db } from '../connection.js';

export const version = 9;
export const name = 'guardians';

export function up(db: Db): void {
  db.exec(`
    CREATE TABLE guard_rules (
      id               INTEGER PRIMARY KEY,
      account_id       INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      contract_id      TEXT NOT NULL,
      outcome          TEXT NOT NULL,
      kind             TEXT NOT NULL CHECK (kind IN
                         ('knockout', 'stop_loss', 'take_profit', 'trailing_stop', 'time_exit')),
      percent          TEXT,     -- decimal string, a percentage ("5" is 5 %)
      price            TEXT,     -- stop_loss / take_profit: a closing price instead
      minutes          INTEGER,  -- time_exit: minutes before kick-off
      share_percent    INTEGER NOT NULL CHECK (share_percent BETWEEN 1 AND 100),
      confirmations    INTEGER NOT NULL CHECK (confirmations BETWEEN 1 AND 10),
      state            TEXT NOT NULL CHECK (state IN
                         ('armed', 'firing', 'closed', 'failed', 'disarmed', 'ended')),
      armed_at         INTEGER NOT NULL,  -- local ms
      state_at         INTEGER NOT NULL,  -- local ms of the last change of state
      reason           TEXT,     -- failed / disarmed / ended: why, in words
      best             TEXT,     -- trailing_stop: best closing price seen since armed
      streak           INTEGER NOT NULL DEFAULT 0,  -- consecutive fresh observations held
      observed_at      INTEGER,  -- the last observation counted (a new one counts once)
      position_seen    INTEGER NOT NULL DEFAULT 0,  -- 1 once the position was seen armed
      hold             TEXT,     -- the hold last logged, so a hold is logged once
      client_order_id  TEXT UNIQUE,  -- its close, once claimed
      order_id         TEXT,
      contracts        INTEGER,  -- contracts its close sells
      stake_micros     INTEGER,  -- their share of the cost basis (daily limit)
      fired_at         INTEGER,
      observation      TEXT      -- JSON GuardObservation it fired on
    ) STRICT;
    CREATE INDEX guard_rules_by_state ON guard_rules (account_id, state);
    CREATE INDEX guard_rules_by_position ON guard_rules (account_id, contract_id, outcome);

    CREATE TABLE guard_log (
      id               INTEGER PRIMARY KEY,
      account_id       INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      rule_id          INTEGER NOT NULL,
      at               INTEGER NOT NULL,  -- local ms
      kind             TEXT NOT NULL,
      contract_id      TEXT NOT NULL,
      outcome          TEXT NOT NULL,
      event            TEXT NOT NULL CHECK (event IN
                         ('armed', 'disarmed', 'ended', 'fired', 'held', 'sent', 'filled', 'failed')),
      hold             TEXT CHECK (hold IN ('stale', 'paused', 'limit', 'budget', 'position')),
      message          TEXT NOT NULL,
      observation      TEXT,     -- JSON GuardObservation
      contracts        INTEGER,
      client_order_id  TEXT,
      order_id         TEXT,
      error_code       INTEGER
    ) STRICT;
    CREATE INDEX guard_log_by_time ON guard_log (account_id, at);
    CREATE INDEX guard_log_by_rule ON guard_log (rule_id, at);

    CREATE TABLE alerts_new (
      id           INTEGER PRIMARY KEY,
      account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      kind         TEXT NOT NULL CHECK (kind IN
                     ('near', 'knocked_out', 'filled', 'rejected', 'guard')),
      contract_id  TEXT NOT NULL,
      outcome      TEXT NOT NULL,
      level        TEXT,  -- near: the index price that raised it; knocked_out: the index price
      threshold    TEXT,  -- the knockout price it was measured against
      order_id     TEXT,  -- filled / rejected / guard: the order
      message      TEXT NOT NULL,
      dedup_key    TEXT NOT NULL,
      created_at   INTEGER NOT NULL,
      read_at      INTEGER,  -- null while unread
      UNIQUE (account_id, dedup_key)
    ) STRICT;
    INSERT INTO alerts_new (id, account_id, kind, contract_id, outcome, level, threshold,
        order_id, message, dedup_key, created_at, read_at)
      SELECT id, account_id, kind, contract_id, outcome, level, threshold, order_id, message,
        dedup_key, created_at, read_at
      FROM alerts;
    DROP TABLE alerts;
    ALTER TABLE alerts_new RENAME TO alerts;
    CREATE INDEX alerts_by_created ON alerts (account_id, created_at);
    CREATE INDEX alerts_unread ON alerts (account_id, kind) WHERE read_at IS NULL;
  `);
}
