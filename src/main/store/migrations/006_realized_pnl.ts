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
 * Kept lean for a million rows (docs/pnl.md, "The upgrade"): the upgrade must not hold the
 * start for long, so nothing here reads or writes the whole table more than once.
 * - The four columns are appended to the table's definition (writable_schema), as ADD COLUMN
 *   does, without ADD COLUMN's quick_check of the STRICT table (about 1 s per column at 1M).
 * - The exchange's P&L is copied into realized_micros (the one pass over the rows).
 * - The P&L indexes: after that copy realized_micros equals pnl_micros on every row unless a
 *   SETTLEMENT row carried a pnl, so the index b-trees on pnl_micros are already the ones on
 *   realized_micros; only their definitions are retargeted. Otherwise they are rebuilt.
 * - The slots: they summed pnl_micros, which is realized P&L on CLOSED and KNOCKED_OUT rows;
 *   only the SETTLEMENT slots (all unknown now) are reset, and the few slots whose `wins`
 *   differ (a reported loss with a payout) or hold a row without P&L are summed again.
 * - The backfill's queue is a cursor over ids (`realized_backfill`), not an index.
 */
import type { Db } from '../connection.js';
import { FIX_SLOTS, slotTriggers } from './realized-slot-sql.js';

export const version = 6;
export const name = 'realized P&L';

/** The exchange's columns (and their exact micros): what a settlement reported, never edited. */
const REPORTED = `account_id, dedup_key, type, contract_id, outcome, contracts, price, pnl,
  payout, tx, timestamp, timestamp_ms, pnl_micros, payout_micros`;

/** The derived columns, appended after the exchange's last one. */
const DERIVED = `realized_micros INTEGER, basis_micros INTEGER,
      pnl_source TEXT NOT NULL DEFAULT 'unknown'
        CHECK (pnl_source IN ('exchange', 'orders', 'unknown')),
      pnl_note TEXT`;
const LAST_REPORTED = 'payout_micros INTEGER';

/** The P&L sort: largest realized first, unknown (NULL) last, then newest first. */
const PNL_INDEXES = {
  settlements_by_pnl: 'account_id, realized_micros, timestamp_ms, id, contract_id',
  settlements_by_type_pnl: 'account_id, type, realized_micros, timestamp_ms, id, contract_id',
} as const;

export function up(db: Db): void {
  db.exec(`
    DROP TRIGGER settlements_immutable;
    DROP TRIGGER settlements_slot_insert;
    DROP TRIGGER settlements_slot_delete;
    DROP TRIGGER fixtures_league_insert;
    DROP TRIGGER fixtures_league_update;
    DROP TRIGGER fixtures_league_delete;
  `);
  const table = db
    .prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'settlements'")
    .pluck()
    .get() as string;
  const at = table.lastIndexOf(LAST_REPORTED);
  if (at < 0) throw new Error('migration 006: the settlements table is not as 004 left it');
  const end = at + LAST_REPORTED.length;
  editSchema(db, [['settlements', `${table.slice(0, end)}, ${DERIVED}${table.slice(end)}`]]);

  db.exec(`
    UPDATE settlements SET realized_micros = pnl_micros,
        pnl_source = CASE WHEN pnl_micros IS NULL THEN 'unknown' ELSE 'exchange' END,
        pnl_note = CASE WHEN pnl_micros IS NULL
          THEN 'The exchange reported no P&L for this row.' END
      WHERE type <> 'SETTLEMENT';
  `);
  if (settlementCarriedPnl(db) || !pnlIndexesAsIn004(db)) {
    db.exec('DROP INDEX settlements_by_pnl; DROP INDEX settlements_by_type_pnl;');
    for (const [index, columns] of Object.entries(PNL_INDEXES)) {
      db.exec(`CREATE INDEX ${index} ON settlements (${columns})`);
    }
  } else {
    editSchema(
      db,
      Object.entries(PNL_INDEXES).map(([index, columns]) => [
        index,
        `CREATE INDEX ${index} ON settlements (${columns})`,
      ]),
    );
  }

  db.exec(`
    ALTER TABLE settlement_slots ADD COLUMN unknown INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE settlement_league_slots ADD COLUMN unknown INTEGER NOT NULL DEFAULT 0;
    ${FIX_SLOTS}

    CREATE TRIGGER settlements_immutable BEFORE UPDATE OF ${REPORTED} ON settlements BEGIN
      SELECT RAISE(ABORT, 'settlements are append-only');
    END;
    ${slotTriggers()}

    -- The backfill's queue (src/main/pnl/backfill.ts): the SETTLEMENT rows up to until_id, from
    -- next_id on, are not worked out yet. The row goes when the backfill is done; none when
    -- there is nothing to work out.
    CREATE TABLE realized_backfill (
      next_id   INTEGER NOT NULL,
      until_id  INTEGER NOT NULL
    ) STRICT;
    INSERT INTO realized_backfill SELECT 0, max(id) FROM settlements
      WHERE type = 'SETTLEMENT' HAVING count(*) > 0;

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

/**
 * Rewrites schema entries' definitions in place (`[name, sql]`), for changes that leave every
 * stored page as it is: columns appended with their defaults (what ADD COLUMN does), an index
 * whose entries are already those of its new definition. https://sqlite.org/lang_altertable.html
 * ("making other kinds of table schema changes") describes the procedure.
 */
function editSchema(db: Db, entries: readonly (readonly [string, string])[]): void {
  const version = db.pragma('schema_version', { simple: true }) as number;
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    const set = db.prepare('UPDATE sqlite_schema SET sql = ? WHERE name = ?');
    for (const [name, sql] of entries) {
      if (set.run(sql, name).changes !== 1) throw new Error(`migration 006: no ${name}`);
    }
    db.pragma(`schema_version = ${version + 1}`);
  } finally {
    db.pragma('writable_schema = OFF');
    db.unsafeMode(false);
  }
}

/**
 * Whether any SETTLEMENT row carries a pnl (the exchange sends none, docs/api.md §2.7): then
 * realized_micros (NULL there) and pnl_micros differ on it, and the P&L indexes are rebuilt.
 * Read per account and through the old type index: a few lookups, not a scan.
 */
function settlementCarriedPnl(db: Db): boolean {
  const any = db.prepare(`SELECT 1 FROM settlements INDEXED BY settlements_by_type_pnl
    WHERE account_id = ? AND type = 'SETTLEMENT' AND pnl_micros IS NOT NULL LIMIT 1`);
  const accounts = db.prepare('SELECT DISTINCT account_id FROM settlement_slots').pluck().all();
  return accounts.some((id) => any.get(id) !== undefined);
}

/** Whether the P&L indexes are 004's, on pnl_micros where 006 reads realized_micros. */
function pnlIndexesAsIn004(db: Db): boolean {
  return Object.entries(PNL_INDEXES).every(([index, columns]) => {
    const names = (db.pragma(`index_info(${index})`) as { name: string }[]).map((c) => c.name);
    return names.join(', ') === columns.replace('realized_micros', 'pnl_micros');
  });
}
