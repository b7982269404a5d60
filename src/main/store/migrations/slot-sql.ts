/**
 * SQL of the settlement slot rollups (settlement_slots, settlement_league_slots), as migrations
 * 004 and 005 write their triggers with it. Migrations are history: this text is what those two
 * ran, so it never changes. A later migration that needs other SQL writes its own.
 */

export const SLOT_MS = 900_000;
export const SLOT_COLUMNS = 'n, wins, pnl_sum, payout_sum, pnl_max, pnl_min';

/** The slot columns of the rows `s` (a GROUP BY's aggregates). */
export const ROW_SUMS = `count(*), count(*) FILTER (WHERE s.pnl_micros > 0 OR s.payout_micros > 0),
  coalesce(sum(s.pnl_micros), 0), coalesce(sum(s.payout_micros), 0),
  max(s.pnl_micros), min(s.pnl_micros)`;

/** The slot columns of the one row NEW. */
const NEW_ROW = `1, coalesce(NEW.pnl_micros > 0 OR NEW.payout_micros > 0, 0),
  coalesce(NEW.pnl_micros, 0), coalesce(NEW.payout_micros, 0), NEW.pnl_micros, NEW.pnl_micros`;

/** Adds the inserted slot columns to the stored ones of the same key. */
function accumulate(key: string): string {
  return `ON CONFLICT (${key}) DO UPDATE SET
    n = n + excluded.n,
    wins = wins + excluded.wins,
    pnl_sum = pnl_sum + excluded.pnl_sum,
    payout_sum = payout_sum + excluded.payout_sum,
    -- max()/min() of two values are NULL when either is: keep the known one.
    pnl_max = coalesce(max(pnl_max, excluded.pnl_max), pnl_max, excluded.pnl_max),
    pnl_min = coalesce(min(pnl_min, excluded.pnl_min), pnl_min, excluded.pnl_min)`;
}

/**
 * Takes the dropped row OLD out of a slot: the sums step back, and an extreme is read again
 * from the slot's remaining rows (`rows`: a condition on `s`) only when OLD was it. An emptied
 * slot goes.
 */
function takeOut(table: string, match: string, rows: string): string {
  const slotRows = `FROM settlements s INDEXED BY settlements_by_type
    WHERE s.account_id = OLD.account_id AND s.type = OLD.type
    AND s.timestamp_ms >= OLD.timestamp_ms / ${SLOT_MS} * ${SLOT_MS}
    AND s.timestamp_ms < (OLD.timestamp_ms / ${SLOT_MS} + 1) * ${SLOT_MS} AND ${rows}`;
  return `
    UPDATE ${table} SET
        n = n - 1,
        wins = wins - coalesce(OLD.pnl_micros > 0 OR OLD.payout_micros > 0, 0),
        pnl_sum = pnl_sum - coalesce(OLD.pnl_micros, 0),
        payout_sum = payout_sum - coalesce(OLD.payout_micros, 0),
        pnl_max = CASE WHEN OLD.pnl_micros IS NULL OR OLD.pnl_micros < pnl_max THEN pnl_max
          ELSE (SELECT max(s.pnl_micros) ${slotRows}) END,
        pnl_min = CASE WHEN OLD.pnl_micros IS NULL OR OLD.pnl_micros > pnl_min THEN pnl_min
          ELSE (SELECT min(s.pnl_micros) ${slotRows}) END
      WHERE ${match};
    DELETE FROM ${table} WHERE ${match} AND n = 0;`;
}

const SLOT_OF_OLD = `account_id = OLD.account_id AND slot = OLD.timestamp_ms / ${SLOT_MS}
  AND type = OLD.type`;

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

/**
 * The trigger that adds an inserted settlement to its slot and to its league's slot;
 * `fixtureOfNew` is the condition on `f` that finds NEW's fixture.
 */
export function slotInsertTrigger(fixtureOfNew: string): string {
  return `CREATE TRIGGER settlements_slot_insert AFTER INSERT ON settlements BEGIN
      INSERT INTO settlement_slots (account_id, slot, type, ${SLOT_COLUMNS})
        VALUES (NEW.account_id, NEW.timestamp_ms / ${SLOT_MS}, NEW.type, ${NEW_ROW})
        ${accumulate('account_id, slot, type')};
      INSERT INTO settlement_league_slots (account_id, league, slot, type, ${SLOT_COLUMNS})
        SELECT NEW.account_id, f.league, NEW.timestamp_ms / ${SLOT_MS}, NEW.type, ${NEW_ROW}
        FROM fixtures f WHERE ${fixtureOfNew}
        ${accumulate('account_id, league, slot, type')};
    END;`;
}

/**
 * The trigger that takes a deleted settlement out of its slot and its league's slot;
 * `leagueOfOld` reads OLD's league, `inLeague` is the condition on `s` for the rows in it.
 */
export function slotDeleteTrigger(leagueOfOld: string, inLeague: string): string {
  return `CREATE TRIGGER settlements_slot_delete AFTER DELETE ON settlements BEGIN
      ${takeOut('settlement_slots', SLOT_OF_OLD, 'true')}
      ${takeOut('settlement_league_slots', `${SLOT_OF_OLD} AND league = ${leagueOfOld}`, inLeague)}
    END;`;
}

/**
 * The triggers that move a fixture's settlements between league slots as the fixture comes,
 * changes league and goes. `onFixture(row)` is the condition on `s` for the settlements on the
 * fixture `row` (NEW or OLD); `inLeague`, the one for the rows in a league.
 */
export function fixtureLeagueTriggers(
  onFixture: (row: 'NEW' | 'OLD') => string,
  inLeague: (league: string) => string,
): string {
  const add = (row: 'NEW' | 'OLD') => addToLeague(onFixture(row), `${row}.league`);
  const remove = (row: 'NEW' | 'OLD') =>
    removeFromLeague(onFixture(row), `${row}.league`, inLeague(`${row}.league`));
  return `CREATE TRIGGER fixtures_league_insert AFTER INSERT ON fixtures BEGIN
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
