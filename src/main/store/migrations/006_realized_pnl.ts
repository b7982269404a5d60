/**
 * Realized P&L on every settlement (docs/pnl.md). Beside the exchange's fields each row keeps:
 *
 * - `realized_micros`: realized P&L in micro-dollars, NULL while unknown. CLOSED and
 *   KNOCKED_OUT: the exchange's `pnl_micros`, copied here and written at insert. SETTLEMENT:
 *   payout − the cost basis rebuilt from the account's orders (src/main/pnl).
 * - `basis_micros`: SETTLEMENT: the cost basis of the contracts that settled; else NULL.
 * - `pnl_source`: 'exchange' | 'orders' | 'unknown'.
 * - `pnl_note`: why it is unknown, or by how much it disagrees with the exchange's last
 *   costBasis. An 'unknown' row without a note has not been worked out yet: the SETTLEMENT rows
 *   of an upgraded store, which the backfill (src/main/pnl/backfill.ts) works out after the
 *   store is open, in small batches, while the app is usable.
 *
 * The append-only trigger now guards the exchange's columns only: the reported facts stay
 * immutable, the derived figure may be filled in later. The slot rollups sum realized P&L and
 * count the unknown rows (realized-slot-sql.ts); the P&L sort reads realized, unknown last.
 *
 * `position_cost_basis`: the last costBasis GET /positions reported per (account, contract,
 * outcome) and when, kept after the position leaves the list: what a SETTLEMENT's basis is
 * checked against.
 *
 * Kept lean for a million rows: the slot triggers and the P&L indexes are dropped for the bulk
 * work (one UPDATE, one rebuild of the slots) and made again after.
 */
import type { Db } from '../connection.js';
import { REBUILD_SLOTS, slotTriggers } from './realized-slot-sql.js';

export const version = 6;
export const name = 'realized_pnl';

/** The exchange's columns (and their exact micros): what a settlement reported, never edited. */
const REPORTED = `account_id, dedup_key, type, contract_id, outcome, contracts, price, pnl,
  payout, tx, timestamp, timestamp_ms, pnl_micros, payout_micros`;

export function up(db: Db): void {
  db.exec(`
    DROP TRIGGER settlements_immutable;
    DROP TRIGGER settlements_slot_insert;
    DROP TRIGGER settlements_slot_delete;
    DROP TRIGGER fixtures_league_insert;
    DROP TRIGGER fixtures_league_update;
    DROP TRIGGER fixtures_league_delete;
    DROP INDEX settlements_by_pnl;
    DROP INDEX settlements_by_type_pnl;

    ALTER TABLE settlements ADD COLUMN realized_micros INTEGER;
    ALTER TABLE settlements ADD COLUMN basis_micros INTEGER;
    ALTER TABLE settlements ADD COLUMN pnl_source TEXT NOT NULL DEFAULT 'unknown'
      CHECK (pnl_source IN ('exchange', 'orders', 'unknown'));
    ALTER TABLE settlements ADD COLUMN pnl_note TEXT;

    UPDATE settlements SET realized_micros = pnl_micros, pnl_source = 'exchange'
      WHERE type <> 'SETTLEMENT' AND pnl_micros IS NOT NULL;
    UPDATE settlements SET pnl_note = 'The exchange reported no P&L for this row.'
      WHERE type <> 'SETTLEMENT' AND pnl_micros IS NULL;

    ALTER TABLE settlement_slots ADD COLUMN unknown INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE settlement_league_slots ADD COLUMN unknown INTEGER NOT NULL DEFAULT 0;
    ${REBUILD_SLOTS}

    CREATE TRIGGER settlements_immutable BEFORE UPDATE OF ${REPORTED} ON settlements BEGIN
      SELECT RAISE(ABORT, 'settlements are append-only');
    END;
    ${slotTriggers()}

    -- The P&L sort: largest realized first, unknown (NULL) last, then newest first.
    CREATE INDEX settlements_by_pnl
      ON settlements (account_id, realized_micros, timestamp_ms, id, contract_id);
    CREATE INDEX settlements_by_type_pnl
      ON settlements (account_id, type, realized_micros, timestamp_ms, id, contract_id);
    -- The SETTLEMENT rows not worked out yet (the backfill's queue); empty once it is done.
    CREATE INDEX settlements_pnl_pending ON settlements (id)
      WHERE pnl_source = 'unknown' AND pnl_note IS NULL;

    CREATE TABLE position_cost_basis (
      account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      contract_id  TEXT NOT NULL,
      outcome      TEXT NOT NULL,
      contracts    INTEGER NOT NULL,  -- held when it was read
      cost_basis   TEXT NOT NULL,     -- as the exchange sent it
      updated_at   INTEGER NOT NULL,  -- the position's updatedAt (exchange time)
      seen_at      INTEGER NOT NULL,  -- the snapshot that read it (local time)
      PRIMARY KEY (account_id, contract_id, outcome)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO position_cost_basis
      SELECT account_id, contract_id, outcome, contracts, cost_basis, updated_at, snapshot_at
      FROM position_snapshots;
  `);
}
