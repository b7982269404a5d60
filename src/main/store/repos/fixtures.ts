/**
 * Fixtures as last read from GET /fixtures, per account: the Markets list, history offline
 * with league and teams, and the knockout watch's prices. Each account reads its own exchange
 * (paper's sandbox, a live exchange), so a fixture is the account's: keyed (account, contractId),
 * it is never shown, priced or quoted for another account (migration 005).
 */
import type { Fixture } from '../../../shared/api/schemas.js';
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';
import { normalizePage, orNull, type PageRequest } from '../paging.js';

export interface FixtureFilter {
  bettingOpen?: boolean;
  /** League name, exact, any letter case. */
  league?: string;
  /** Team abbreviation, home or away, any letter case. */
  team?: string;
}

export interface FixturePage {
  fixtures: Fixture[];
  total: number;
  limit: number;
  offset: number;
}

interface FixtureRow {
  contract_id: string;
  league: string;
  home_team: string;
  away_team: string;
  starts_at: number;
  betting_open: number;
  status: Fixture['status'];
  home_price: string;
  away_price: string;
  winner: string | null;
  lot_size: number;
  min_contracts: number;
  updated_at: number;
}

function toFixture(r: FixtureRow): Fixture {
  const f: Fixture = {
    contractId: r.contract_id,
    league: r.league,
    homeTeam: r.home_team,
    awayTeam: r.away_team,
    startsAt: r.starts_at,
    bettingOpen: r.betting_open === 1,
    status: r.status,
    homePrice: r.home_price,
    awayPrice: r.away_price,
    lotSize: r.lot_size,
    minContracts: r.min_contracts,
  };
  if (r.winner !== null) f.winner = r.winner;
  return f;
}

export class FixturesRepo {
  readonly #db: Db;
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#db = db;
    this.#sql = new StatementCache(db);
  }

  /** Inserts or replaces each of the account's fixtures, all in one transaction. */
  upsertMany(accountId: number, fixtures: readonly Fixture[], updatedAt: number): void {
    const up = this.#sql.get(
      `INSERT INTO fixtures (account_id, contract_id, league, home_team, away_team, starts_at,
         betting_open, status, home_price, away_price, winner, lot_size, min_contracts,
         updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, contract_id) DO UPDATE SET league = excluded.league,
         home_team = excluded.home_team, away_team = excluded.away_team,
         starts_at = excluded.starts_at, betting_open = excluded.betting_open,
         status = excluded.status, home_price = excluded.home_price,
         away_price = excluded.away_price, winner = excluded.winner,
         lot_size = excluded.lot_size, min_contracts = excluded.min_contracts,
         updated_at = excluded.updated_at`,
    );
    this.#db.transaction(() => {
      for (const f of fixtures) {
        up.run(
          accountId,
          f.contractId,
          f.league,
          f.homeTeam,
          f.awayTeam,
          f.startsAt,
          f.bettingOpen ? 1 : 0,
          f.status,
          f.homePrice,
          f.awayPrice,
          orNull(f.winner),
          f.lotSize,
          f.minContracts,
          updatedAt,
        );
      }
    })();
  }

  /** The account's fixture; another account's of the same contractId is not it. */
  get(accountId: number, contractId: string): Fixture | undefined {
    const row = this.#sql
      .get('SELECT * FROM fixtures WHERE account_id = ? AND contract_id = ?')
      .get(accountId, contractId.toUpperCase()) as FixtureRow | undefined;
    return row && toFixture(row);
  }

  /** The account's matching fixtures by kick-off, soonest first, with the number of matches. */
  list(accountId: number, filter: FixtureFilter & PageRequest = {}): FixturePage {
    const { limit, offset } = normalizePage(filter);
    const terms = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (filter.bettingOpen !== undefined) {
      terms.push('betting_open = ?');
      params.push(filter.bettingOpen ? 1 : 0);
    }
    if (filter.league !== undefined) {
      terms.push('league = ? COLLATE NOCASE');
      params.push(filter.league);
    }
    if (filter.team !== undefined) {
      terms.push('(home_team = ? OR away_team = ?)');
      params.push(filter.team.toUpperCase(), filter.team.toUpperCase());
    }
    const where = `WHERE ${terms.join(' AND ')}`;
    const total = this.#sql
      .get(`SELECT count(*) FROM fixtures ${where}`)
      .pluck()
      .get(...params) as number;
    const rows = this.#sql
      .get(`SELECT * FROM fixtures ${where} ORDER BY starts_at, contract_id LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as FixtureRow[];
    return { fixtures: rows.map(toFixture), total, limit, offset };
  }
}
