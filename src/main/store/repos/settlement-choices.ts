/**
 * What the history's filter menus offer: the leagues, teams and fixtures the account's
 * settlements hold, and the first and last settlement time.
 *
 * A million settlements hold a few thousand contracts and a few hundred teams, so each distinct
 * value is found by a loose index scan (a recursive CTE that seeks the next value above the
 * previous one: one index seek per value) rather than by reading a million index entries.
 */
import type { StatementCache } from '../connection.js';

export interface SettlementChoices {
  /** Leagues of the fixtures settled on, sorted; fixtures the store does not know add none. */
  leagues: string[];
  /** The teams bet on (outcomes), sorted. */
  teams: string[];
  /** Every contract settled on, by contractId, with its fixture when known. */
  contracts: {
    contractId: string;
    league: string | null;
    homeTeam: string | null;
    awayTeam: string | null;
    startsAt: number | null;
  }[];
  /** The oldest and newest settlement time; null when there is none. */
  first: number | null;
  last: number | null;
}

/** Distinct values of `column`, ascending, by one seek each on `index` (account_id, column, ...). */
function distinctSql(column: string, index: string): string {
  const next = (after: string) =>
    `SELECT min(${column}) FROM settlements INDEXED BY ${index}
     WHERE account_id = @accountId${after}`;
  return `WITH RECURSIVE v(x) AS (
      SELECT (${next('')})
      UNION ALL
      SELECT (${next(` AND ${column} > v.x`)}) FROM v WHERE v.x IS NOT NULL)
    SELECT x FROM v WHERE x IS NOT NULL`;
}

type ContractRow = [string, string | null, string | null, string | null, number | null];

export function settlementChoices(sql: StatementCache, accountId: number): SettlementChoices {
  const contractRows = sql
    .get(
      `WITH c(contract_id) AS (${distinctSql('contract_id', 'settlements_by_contract')})
       SELECT c.contract_id, f.league, f.home_team, f.away_team, f.starts_at
       FROM c LEFT JOIN fixtures f ON f.account_id = @accountId AND f.contract_id = c.contract_id
       ORDER BY c.contract_id`,
    )
    .raw(true)
    .all({ accountId }) as ContractRow[];
  const teams = sql
    .get(distinctSql('outcome', 'settlements_by_outcome'))
    .pluck()
    .all({ accountId }) as string[];
  const [first, last] = sql
    .get(
      `SELECT (SELECT min(timestamp_ms) FROM settlements WHERE account_id = @accountId),
              (SELECT max(timestamp_ms) FROM settlements WHERE account_id = @accountId)`,
    )
    .raw(true)
    .get({ accountId }) as [number | null, number | null];

  const leagues = new Set<string>();
  for (const r of contractRows) if (r[1] !== null) leagues.add(r[1]);
  return {
    leagues: [...leagues].sort(),
    teams,
    contracts: contractRows.map(([contractId, league, homeTeam, awayTeam, startsAt]) => ({
      contractId,
      league,
      homeTeam,
      awayTeam,
      startsAt,
    })),
    first,
    last,
  };
}
