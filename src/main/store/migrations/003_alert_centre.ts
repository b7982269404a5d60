/**
 * The alert centre: alerts for fills and rejections of orders besides the knockout ones, and a
 * read mark, so the unread count and the history survive a restart.
 *
 * SQLite cannot change a CHECK constraint in place, so the table is rebuilt (the documented
 * twelve-step way, inside this migration's transaction) with every row kept.
 */
import type { Db } from '../connection.js';

export const version = 3;
export const name = 'alert centre';

export function up(db: Db): void {
  db.exec(`
    CREATE TABLE alerts_new (
      id           INTEGER PRIMARY KEY,
      account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      kind         TEXT NOT NULL CHECK (kind IN ('near', 'knocked_out', 'filled', 'rejected')),
      contract_id  TEXT NOT NULL,
      outcome      TEXT NOT NULL,
      level        TEXT,  -- near: the closing price that raised it; knocked_out: the index price
      threshold    TEXT,  -- the knockout price it was measured against
      order_id     TEXT,  -- filled / rejected: the order
      message      TEXT NOT NULL,
      dedup_key    TEXT NOT NULL,
      created_at   INTEGER NOT NULL,
      read_at      INTEGER,  -- null while unread
      UNIQUE (account_id, dedup_key)
    ) STRICT;
    INSERT INTO alerts_new (id, account_id, kind, contract_id, outcome, level, threshold,
        message, dedup_key, created_at)
      SELECT id, account_id, kind, contract_id, outcome, level, threshold, message, dedup_key,
        created_at
      FROM alerts;
    DROP TABLE alerts;
    ALTER TABLE alerts_new RENAME TO alerts;
    CREATE INDEX alerts_by_created ON alerts (account_id, created_at);
    -- The unread count and "mark all read" look only at the few unread rows.
    CREATE INDEX alerts_unread ON alerts (account_id, kind) WHERE read_at IS NULL;
  `);
}
