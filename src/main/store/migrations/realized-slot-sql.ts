/**
 * SQL of the settlement slot rollups from migration 006 on: the slots sum realized P&L
 * (`realized_micros`, NULL while unknown) and count the unknown rows, where migrations 004 and
 * 005 summed the exchange's `pnl_micros` (slot-sql.ts, frozen as those two ran it). Migrations
 * are history: this text is what 006 ran, so it never changes either; a later migration that
 * needs other SQL writes its own.
 *
 * A row's realized figure is filled in after its insert (a SETTLEMENT worked out from the
 * orders, docs/pnl.md), so besides insert and delete an UPDATE OF realized_micros moves the
 * slot by the difference; an extreme is read again from the slot's rows only when the old
 * figure was it.
 */

export const SLOT_MS = 900_000;
export const SLOT_COLUMNS = 'n, wins, pnl_sum, payout_sum, pnl_max, pnl_min, unknown';

/** The slot columns of the rows `s` (a GROUP BY's aggregates). */
export const ROW_SUMS = `count(*), count(*) FILTER (WHERE s.realized_micros > 0),
  coalesce(sum(s.realized_micros), 0), coalesce(sum(s.payout_micros), 0),
  max(s.realized_micros), min(s.realized_micros),
  count(*) FILTER (WHERE s.realized_micros IS NULL)`;

/** The slot columns of the one row NEW. */
const NEW_ROW = `1, coalesce(NEW.realized_micros > 0, 0),
  coalesce(NEW.realized_micros, 0), coalesce(NEW.payout_micros, 0),
  NEW.realized_micros, NEW.realized_micros, NEW.realized_micros IS NULL`;

/** Adds the inserted slot columns to the stored ones of the same key. */
function accumulate(key: string): string {
  return `ON CONFLICT (${key}) DO UPDATE SET
    n = n + excluded.n,
    wins = wins + excluded.wins,
    pnl_sum = pnl_sum + excluded.pnl_sum,
    payout_sum = payout_sum + excluded.payout_sum,
    -- max()/min() of two values are NULL when either is: keep the known one.
    pnl_max = coalesce(max(pnl_max, excluded.pnl_max), pnl_max, excluded.pnl_max),
    pnl_min = coalesce(min(pnl_min, excluded.pnl_min), pnl_min, excluded.pnl_min),
    unknown = unknown + excluded.unknown`;
}

/** The rows of ROW's slot (`rows`: a further condition on `s`), through the type index. */
function slotRows(row: 'NEW' | 'OLD', rows: string): string {
  return `FROM settlements s INDEXED BY settlements_by_type
    WHERE s.account_id = ${row}.account_id AND s.type = ${row}.type
    AND s.timestamp_ms >= ${row}.timestamp_ms / ${SLOT_MS} * ${SLOT_MS}
    AND s.timestamp_ms < (${row}.timestamp_ms / ${SLOT_MS} + 1) * ${SLOT_MS} AND ${rows}`;
}

/**
 * Takes the dropped row OLD out of a slot: the sums step back, and an extreme is read again
 * from the slot's remaining rows only when OLD was it. An emptied slot goes.
 */
function takeOut(table: string, match: string, rows: string): string {
  return `
    UPDATE ${table} SET
        n = n - 1,
        wins = wins - coalesce(OLD.realized_micros > 0, 0),
        pnl_sum = pnl_sum - coalesce(OLD.realized_micros, 0),
        payout_sum = payout_sum - coalesce(OLD.payout_micros, 0),
        pnl_max = CASE WHEN OLD.realized_micros IS NULL OR OLD.realized_micros < pnl_max
          THEN pnl_max ELSE (SELECT max(s.realized_micros) ${slotRows('OLD', rows)}) END,
        pnl_min = CASE WHEN OLD.realized_micros IS NULL OR OLD.realized_micros > pnl_min
          THEN pnl_min ELSE (SELECT min(s.realized_micros) ${slotRows('OLD', rows)}) END,
        unknown = unknown - (OLD.realized_micros IS NULL)
      WHERE ${match};
    DELETE FROM ${table} WHERE ${match} AND n = 0;`;
}

/**
 * Moves a slot from OLD's realized figure to NEW's (same row, same slot): sums by the
 * difference; an extreme that NEW passes is NEW, one that OLD was is read again from the rows
 * (the row already holds NEW), any other stays.
 */
function change(table: string, match: string, rows: string): string {
  return `
    UPDATE ${table} SET
        wins = wins - coalesce(OLD.realized_micros > 0, 0) + coalesce(NEW.realized_micros > 0, 0),
        pnl_sum = pnl_sum - coalesce(OLD.realized_micros, 0) + coalesce(NEW.realized_micros, 0),
        pnl_max = CASE
          WHEN NEW.realized_micros IS NOT NULL AND (pnl_max IS NULL OR NEW.realized_micros >= pnl_max)
            THEN NEW.realized_micros
          WHEN OLD.realized_micros IS NULL OR OLD.realized_micros < pnl_max THEN pnl_max
          ELSE (SELECT max(s.realized_micros) ${slotRows('NEW', rows)}) END,
        pnl_min = CASE
          WHEN NEW.realized_micros IS NOT NULL AND (pnl_min IS NULL OR NEW.realized_micros <= pnl_min)
            THEN NEW.realized_micros
          WHEN OLD.realized_micros IS NULL OR OLD.realized_micros > pnl_min THEN pnl_min
          ELSE (SELECT min(s.realized_micros) ${slotRows('NEW', rows)}) END,
        unknown = unknown - (OLD.realized_micros IS NULL) + (NEW.realized_micros IS NULL)
      WHERE ${match};`;
}

const slotOf = (row: 'NEW' | 'OLD') => `account_id = ${row}.account_id
  AND slot = ${row}.timestamp_ms / ${SLOT_MS} AND type = ${row}.type`;

/** Adds the settlements `onContract` (a condition on `s`) to the league `league`. */
function addToLeague(onContract: string, league: string): string {
  return `
    INSERT INTO settlement_league_slots (account_id, league, slot, type, ${SLOT_COLUMNS})
      SELECT s.account_id, ${league}, s.timestamp_ms / ${SLOT_MS} AS slot, s.type, ${ROW_SUMS}
      FROM settlements s INDEXED BY settlements_by_contract WHERE ${onContract}
      GROUP BY s.account_id, slot, s.type
      ${accumulate('account_id, league, slot, type')};`;
}

/**
 * Takes the settlements `onContract` out of `league` after their fixture left it (the fixtures
 * table already says so): the slots they touched are summed again from the rows `inLeague`.
 */
function removeFromLeague(onContract: string, league: string, inLeague: string): string {
  const touched = `SELECT DISTINCT s.account_id, s.timestamp_ms / ${SLOT_MS} AS slot, s.type
    FROM settlements s INDEXED BY settlements_by_contract WHERE ${onContract}`;
  return `
    DELETE FROM settlement_league_slots
      WHERE league = ${league} AND (account_id, slot, type) IN (${touched});
    INSERT INTO settlement_league_slots (account_id, league, slot, type, ${SLOT_COLUMNS})
      SELECT t.account_id, ${league}, t.slot, t.type, ${ROW_SUMS}
      FROM (${touched}) t
      JOIN settlements s INDEXED BY settlements_by_type
        ON s.account_id = t.account_id AND s.type = t.type
        AND s.timestamp_ms >= t.slot * ${SLOT_MS} AND s.timestamp_ms < (t.slot + 1) * ${SLOT_MS}
      WHERE ${inLeague}
      GROUP BY t.account_id, t.slot, t.type;`;
}

/** The league of ROW's fixture in ROW's own account (migration 005: fixtures per account). */
export const leagueOf = (row: 'NEW' | 'OLD') => `(SELECT league FROM fixtures
  WHERE account_id = ${row}.account_id AND contract_id = ${row}.contract_id)`;

/** The rows `s` on a fixture of their own account in `league`. */
export const inLeague = (league: string) =>
  `s.contract_id IN (SELECT contract_id FROM fixtures
    WHERE account_id = s.account_id AND league = ${league} COLLATE NOCASE)`;

/** The settlements on the fixture `row` (NEW or OLD), of its own account. */
const onFixture = (row: string) =>
  `s.account_id = ${row}.account_id AND s.contract_id = ${row}.contract_id`;

/** Every trigger that keeps the two slot tables, on settlements and on fixtures. */
export function slotTriggers(): string {
  const add = (row: 'NEW' | 'OLD') => addToLeague(onFixture(row), `${row}.league`);
  const remove = (row: 'NEW' | 'OLD') =>
    removeFromLeague(onFixture(row), `${row}.league`, inLeague(`${row}.league`));
  return `
    CREATE TRIGGER settlements_slot_insert AFTER INSERT ON settlements BEGIN
      INSERT INTO settlement_slots (account_id, slot, type, ${SLOT_COLUMNS})
        VALUES (NEW.account_id, NEW.timestamp_ms / ${SLOT_MS}, NEW.type, ${NEW_ROW})
        ${accumulate('account_id, slot, type')};
      INSERT INTO settlement_league_slots (account_id, league, slot, type, ${SLOT_COLUMNS})
        SELECT NEW.account_id, f.league, NEW.timestamp_ms / ${SLOT_MS}, NEW.type, ${NEW_ROW}
        FROM fixtures f WHERE f.account_id = NEW.account_id AND f.contract_id = NEW.contract_id
        ${accumulate('account_id, league, slot, type')};
    END;

    -- Settlements are only dropped with their account, but the slots stay right either way.
    CREATE TRIGGER settlements_slot_delete AFTER DELETE ON settlements BEGIN
      ${takeOut('settlement_slots', slotOf('OLD'), 'true')}
      ${takeOut(
        'settlement_league_slots',
        `${slotOf('OLD')} AND league = ${leagueOf('OLD')}`,
        inLeague(leagueOf('OLD')),
      )}
    END;

    -- The derived figure is filled in (or corrected) after the insert.
    CREATE TRIGGER settlements_slot_realized AFTER UPDATE OF realized_micros ON settlements
      WHEN OLD.realized_micros IS NOT NEW.realized_micros
    BEGIN
      ${change('settlement_slots', slotOf('NEW'), 'true')}
      ${change(
        'settlement_league_slots',
        `${slotOf('NEW')} AND league = ${leagueOf('NEW')}`,
        inLeague(leagueOf('NEW')),
      )}
    END;

    CREATE TRIGGER fixtures_league_insert AFTER INSERT ON fixtures BEGIN
      ${add('NEW')}
    END;
    -- The sync rewrites every fixture it reads; only a real change of league moves rows.
    CREATE TRIGGER fixtures_league_update AFTER UPDATE OF league ON fixtures
      WHEN NEW.league <> OLD.league COLLATE NOCASE
    BEGIN
      ${remove('OLD')}
      ${add('NEW')}
    END;
    CREATE TRIGGER fixtures_league_delete AFTER DELETE ON fixtures BEGIN
      ${remove('OLD')}
    END;`;
}

/**
 * The slot tables as 004/005 left them, made to sum realized P&L (migration 006 right after it
 * copied the exchange's P&L into realized_micros): they summed pnl_micros, counting a row with a
 * payout as a win. On CLOSED and KNOCKED_OUT rows the sums and extremes stay; the SETTLEMENT
 * slots hold unknown rows only now; and the slots holding a row whose realized figure is not a
 * win though it counted as one (a payout beside a loss), or unknown, are summed again from their
 * rows. One pass over the table finds those (the exchange sends none: it finds nothing).
 */
export const FIX_SLOTS = `
  UPDATE settlement_slots SET wins = 0, pnl_sum = 0, pnl_max = NULL, pnl_min = NULL, unknown = n
    WHERE type = 'SETTLEMENT';
  UPDATE settlement_league_slots
    SET wins = 0, pnl_sum = 0, pnl_max = NULL, pnl_min = NULL, unknown = n
    WHERE type = 'SETTLEMENT';
  CREATE TEMP TABLE realized_odd_slots AS
    SELECT DISTINCT account_id, timestamp_ms / ${SLOT_MS} AS slot, type FROM settlements
    WHERE type <> 'SETTLEMENT'
      AND (realized_micros IS NULL OR (realized_micros <= 0 AND payout_micros > 0));
  DELETE FROM settlement_slots WHERE (account_id, slot, type) IN realized_odd_slots;
  DELETE FROM settlement_league_slots WHERE (account_id, slot, type) IN realized_odd_slots;
  INSERT INTO settlement_slots (account_id, slot, type, ${SLOT_COLUMNS})
    SELECT s.account_id, o.slot, s.type, ${ROW_SUMS}
    FROM realized_odd_slots o JOIN settlements s INDEXED BY settlements_by_type
      ON s.account_id = o.account_id AND s.type = o.type
      AND s.timestamp_ms >= o.slot * ${SLOT_MS} AND s.timestamp_ms < (o.slot + 1) * ${SLOT_MS}
    GROUP BY s.account_id, o.slot, s.type;
  INSERT INTO settlement_league_slots (account_id, league, slot, type, ${SLOT_COLUMNS})
    SELECT s.account_id, f.league, o.slot, s.type, ${ROW_SUMS}
    FROM realized_odd_slots o JOIN settlements s INDEXED BY settlements_by_type
      ON s.account_id = o.account_id AND s.type = o.type
      AND s.timestamp_ms >= o.slot * ${SLOT_MS} AND s.timestamp_ms < (o.slot + 1) * ${SLOT_MS}
    JOIN fixtures f ON f.account_id = s.account_id AND f.contract_id = s.contract_id
    GROUP BY s.account_id, f.league COLLATE NOCASE, o.slot, s.type;
  DROP TABLE realized_odd_slots;`;
