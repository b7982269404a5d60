/**
 * Fixtures belong to an account. Until now `fixtures` was keyed by contractId alone, on the
 * assumption that the contractIds of two exchanges never meet; but every account reads its own
 * exchange (paper's sandbox, a live exchange, another sandbox), and one table for all of them
 * showed the fixtures and prices of one exchange in another's Markets list, where they could
 * not be quoted. Every other record of the exchange (orders, settlements, positions, cursors,
 * alerts) already carries its account, so fixtures now do too, keyed (account_id,
 * contract_id), and go with their account (ON DELETE CASCADE, as the others).
 *
 * The stored fixtures name the fixtures of the account's orders, settlements, positions,
 * alerts and open intents offline, so each is kept for every account whose records name its
 * contractId. The others cannot be told apart by exchange and are dropped, with the accounts'
 * `fixtures` cursors, so no list says it is up to date until the account's next sync has read
 * its exchange's fixtures again.
 *
 * The settlements' league slots (migration 004) stay as they were: a settlement keeps the very
 * fixture row that put it in its league. The triggers that keep them now look a settlement's
 * fixture up in its own account.
 *
 * The table is rebuilt the documented twelve-step way inside this migration's transaction; the
 * triggers that name `fixtures` are dropped first and made again after.
 */
import type { Db } from '../connection.js';
import { FIXTURE_COLUMNS } from './fixture-sql.js';
import { fixtureLeagueTriggers, slotDeleteTrigger, slotInsertTrigger } from './slot-sql.js';

export const version = 5;
export const name = 'fixtures per account';

const LEAGUE_OF_OLD = `(SELECT league FROM fixtures
  WHERE account_id = OLD.account_id AND contract_id = OLD.contract_id)`;
/** The rows `s` on a fixture of their own account in `league`. */
const inLeague = (league: string) =>
  `s.contract_id IN (SELECT contract_id FROM fixtures
    WHERE account_id = s.account_id AND league = ${league} COLLATE NOCASE)`;

/** The account's settlements on `contract`, through the contract index. */
const onContract = (account: string, contract: string) =>
  `s.account_id = ${account} AND s.contract_id = ${contract}`;
/** The settlements on the fixture `row` (NEW or OLD), of its own account. */
const onFixture = (row: string) => onContract(`${row}.account_id`, `${row}.contract_id`);

/**
 * The accounts whose records name the fixture `f`: an index probe per account on orders,
 * settlements and positions; alerts (no index by contract) and open intents are read once into
 * the IN list (an EXISTS per fixture and account read the alerts a million times: 0.9 s for
 * 3,000 fixtures against 4 ms).
 */
const NAMED_BY_ACCOUNT = `
  EXISTS (SELECT 1 FROM orders o INDEXED BY orders_by_contract
    WHERE o.account_id = a.id AND o.contract_id = f.contract_id)
  OR EXISTS (SELECT 1 FROM settlements s INDEXED BY settlements_by_contract
    WHERE s.account_id = a.id AND s.contract_id = f.contract_id)
  OR EXISTS (SELECT 1 FROM position_snapshots p
    WHERE p.account_id = a.id AND p.contract_id = f.contract_id)
  OR (a.id, f.contract_id) IN (
    SELECT account_id, contract_id FROM alerts
    UNION ALL
    SELECT account_id, CASE WHEN json_valid(params_json)
        THEN upper(json_extract(params_json, '$.bet.contractId')) END
      FROM order_intents INDEXED BY order_intents_open WHERE state <> 'done')`;

export function up(db: Db): void {
  db.exec(`
    DROP TRIGGER settlements_slot_insert;
    DROP TRIGGER settlements_slot_delete;
    DROP TRIGGER fixtures_league_insert;
    DROP TRIGGER fixtures_league_update;
    DROP TRIGGER fixtures_league_delete;

    CREATE TABLE fixtures_new (
      account_id     INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      contract_id    TEXT NOT NULL,
      ${FIXTURE_COLUMNS},
      PRIMARY KEY (account_id, contract_id)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO fixtures_new (account_id, contract_id, league, home_team, away_team, starts_at,
        betting_open, status, home_price, away_price, winner, lot_size, min_contracts,
        updated_at)
      SELECT a.id, f.contract_id, f.league, f.home_team, f.away_team, f.starts_at,
        f.betting_open, f.status, f.home_price, f.away_price, f.winner, f.lot_size,
        f.min_contracts, f.updated_at
      FROM fixtures f CROSS JOIN accounts a
      WHERE ${NAMED_BY_ACCOUNT};
    DROP TABLE fixtures;
    ALTER TABLE fixtures_new RENAME TO fixtures;
    CREATE INDEX fixtures_by_start ON fixtures (account_id, starts_at);
    CREATE INDEX fixtures_by_league ON fixtures (account_id, league COLLATE NOCASE, starts_at);
    CREATE INDEX fixtures_by_home ON fixtures (account_id, home_team, starts_at);
    CREATE INDEX fixtures_by_away ON fixtures (account_id, away_team, starts_at);

    -- The fixtures no account names are gone: no account's list is up to date until it syncs.
    DELETE FROM sync_cursors WHERE stream = 'fixtures';

    ${slotInsertTrigger('f.account_id = NEW.account_id AND f.contract_id = NEW.contract_id')}

    -- Settlements are only dropped with their account, but the slots stay right either way.
    ${slotDeleteTrigger(LEAGUE_OF_OLD, inLeague(LEAGUE_OF_OLD))}

    ${fixtureLeagueTriggers(onFixture, inLeague)}
  `);
}
