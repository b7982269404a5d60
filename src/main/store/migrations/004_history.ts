/**
 * History at a glance: exact integer amounts beside the exchange's strings, rollups of every
 * settlement into 15-minute slots, and the indexes the History screen's P&L sort reads.
 *
 * - `pnl_micros` / `payout_micros`: the row's `pnl` / `payout` in millionths of a dollar
 *   (toMicros), NULL when the exchange sent no such field. SQLite sums them exactly as integers;
 *   the strings stay the record for display and export.
 * - `settlement_slots`: per account, 15-minute slot (timestamp_ms / 900000) and type: count,
 *   wins, sums and extremes, kept by triggers. Every real time zone's offset is a whole number
 *   of quarter hours, so a local midnight is always a slot edge and a day, week or month in any
 *   zone is a run of whole slots: the totals and P&L series of a year read ~20,000 rows, not a
 *   million.
 * - `settlement_league_slots`: the same per league of the settlement's fixture. A league is a
 *   third of a history or more, and testing each row's contract against the league's fixtures
 *   measured 150-250 ms over a million settlements; this keeps the league filter as fast as no
 *   filter. A settlement counts in its fixture's league once the fixture is stored, whichever
 *   came first, so triggers on fixtures keep it too.
 * - `settlements_by_pnl`, `settlements_by_type_pnl`: the P&L sort (largest first, rows without a
 *   P&L last, then newest first) read in order instead of sorting the history; they carry the
 *   contract so a league's P&L pages are read from the index alone.
 *
 * The existing rows are backfilled in JS through toMicros (the one parser of amounts), with the
 * append-only trigger lifted for the backfill and put back; every row is kept.
 */
import { toMicros } from '../../../shared/money.js';
import type { Db } from '../connection.js';
import {
  ROW_SUMS,
  SLOT_COLUMNS,
  SLOT_MS,
  fixtureLeagueTriggers,
  slotDeleteTrigger,
  slotInsertTrigger,
} from './slot-sql.js';

export const version = 4;
export const name = 'history';

const LEAGUE_OF_OLD = '(SELECT league FROM fixtures WHERE contract_id = OLD.contract_id)';
const inLeague = (league: string) =>
  `s.contract_id IN (SELECT contract_id FROM fixtures WHERE league = ${league} COLLATE NOCASE)`;

/**
 * Every settlement (of every account) on `contract`. The statements that read rows name their
 * index: a file the planner has no statistics for yet chose a scan of the account's history.
 */
const onContract = (contract: string) =>
  `s.account_id IN (SELECT id FROM accounts) AND s.contract_id = ${contract}`;
/** The settlements on the fixture `row` (NEW or OLD). */
const onFixture = (row: string) => onContract(`${row}.contract_id`);

export function up(db: Db): void {
  db.exec(`
    ALTER TABLE settlements ADD COLUMN pnl_micros INTEGER;
    ALTER TABLE settlements ADD COLUMN payout_micros INTEGER;
    DROP TRIGGER settlements_immutable;
  `);
  db.function('betdesk_backfill_micros', { deterministic: true }, (s: unknown) =>
    typeof s === 'string' ? toMicros(s) : null,
  );
  db.exec(`
    UPDATE settlements SET pnl_micros = betdesk_backfill_micros(pnl),
      payout_micros = betdesk_backfill_micros(payout)
      WHERE pnl IS NOT NULL OR payout IS NOT NULL;

    -- A settlement is a fact the exchange reported; it is never edited, only added or dropped.
    CREATE TRIGGER settlements_immutable BEFORE UPDATE ON settlements BEGIN
      SELECT RAISE(ABORT, 'settlements are append-only');
    END;
    -- The amounts are written with their strings (SettlementsRepo.insert) or not at all: a row
    -- without them would be missing from every total without a sign.
    CREATE TRIGGER settlements_amounts_present BEFORE INSERT ON settlements
      WHEN (NEW.pnl IS NULL) <> (NEW.pnl_micros IS NULL)
        OR (NEW.payout IS NULL) <> (NEW.payout_micros IS NULL)
    BEGIN
      SELECT RAISE(ABORT, 'settlement amounts in micros are missing');
    END;

    CREATE TABLE settlement_slots (
      account_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      slot        INTEGER NOT NULL,  -- timestamp_ms / 900000: 15 minutes
      type        TEXT NOT NULL,
      n           INTEGER NOT NULL,
      wins        INTEGER NOT NULL,  -- pnl > 0 or payout > 0
      pnl_sum     INTEGER NOT NULL,  -- micros; 0 when no row has a P&L
      payout_sum  INTEGER NOT NULL,  -- micros
      pnl_max     INTEGER,           -- micros; NULL when no row has a P&L
      pnl_min     INTEGER,
      PRIMARY KEY (account_id, slot, type)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE settlement_league_slots (
      account_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      league      TEXT NOT NULL COLLATE NOCASE,  -- the fixture's; the filter ignores case
      slot        INTEGER NOT NULL,
      type        TEXT NOT NULL,
      n           INTEGER NOT NULL,
      wins        INTEGER NOT NULL,
      pnl_sum     INTEGER NOT NULL,
      payout_sum  INTEGER NOT NULL,
      pnl_max     INTEGER,
      pnl_min     INTEGER,
      PRIMARY KEY (account_id, league, slot, type)
    ) STRICT, WITHOUT ROWID;

    INSERT INTO settlement_slots (account_id, slot, type, ${SLOT_COLUMNS})
      SELECT s.account_id, s.timestamp_ms / ${SLOT_MS}, s.type, ${ROW_SUMS}
      FROM settlements s GROUP BY 1, 2, 3;
    INSERT INTO settlement_league_slots (account_id, league, slot, type, ${SLOT_COLUMNS})
      SELECT s.account_id, f.league, s.timestamp_ms / ${SLOT_MS}, s.type, ${ROW_SUMS}
      FROM settlements s JOIN fixtures f ON f.contract_id = s.contract_id
      GROUP BY s.account_id, f.league COLLATE NOCASE, 3, s.type;

    ${slotInsertTrigger('f.contract_id = NEW.contract_id')}

    -- Settlements are only dropped with their account, but the slots stay right either way.
    ${slotDeleteTrigger(LEAGUE_OF_OLD, inLeague(LEAGUE_OF_OLD))}

    ${fixtureLeagueTriggers(onFixture, inLeague)}

    -- The id is spelled out so the order (pnl, time, id) is the index's own, with no sort.
    CREATE INDEX settlements_by_pnl
      ON settlements (account_id, pnl_micros, timestamp_ms, id, contract_id);
    CREATE INDEX settlements_by_type_pnl
      ON settlements (account_id, type, pnl_micros, timestamp_ms, id, contract_id);
  `);
}
