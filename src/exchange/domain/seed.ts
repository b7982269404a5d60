/**
 * The generated fixtures: the same seed gives the same fixtures, teams, prices and contractIds;
 * kick-off times are placed relative to the exchange clock when the state is first created.
 */
import { dec, price } from '../../shared/money.js';
import type { FixtureRec } from './model.js';
import { mulberry32, pick } from './rng.js';

export interface LeagueSpec {
  league: string;
  lotSize: number;
  minContracts: number;
  teams: readonly string[];
}

export const LEAGUES: readonly LeagueSpec[] = [
  {
    league: 'EPL',
    lotSize: 1,
    minContracts: 1,
    teams: ['ARS', 'AVL', 'BHA', 'CHE', 'EVE', 'LIV', 'MCI', 'MUN', 'NEW', 'TOT', 'WHU', 'WOL'],
  },
  {
    league: 'NBA',
    lotSize: 1,
    minContracts: 2,
    teams: ['BOS', 'LAL', 'GSW', 'NYK', 'MIA', 'DEN', 'PHX', 'MIL', 'DAL', 'CHI', 'OKC', 'SAS'],
  },
  {
    league: 'NFL',
    lotSize: 1,
    minContracts: 5,
    teams: ['KC', 'SF', 'BUF', 'PHI', 'DAL', 'DET', 'BAL', 'GB', 'NYJ', 'MIA', 'TB', 'LAR'],
  },
  {
    league: 'NHL',
    lotSize: 5,
    minContracts: 10,
    teams: ['BOS', 'TOR', 'NYR', 'EDM', 'VGK', 'COL', 'FLA', 'TB', 'DAL', 'WPG', 'CAR', 'NJD'],
  },
];

/** Lot size and minimum for a fixture created through the control API in an unknown league. */
export const DEFAULT_LOT_SIZE = 1;
export const DEFAULT_MIN_CONTRACTS = 1;

export const SEED_FIXTURE_COUNT = 24;
/** Seeded fixtures with these indexes are in play (betting closed) or already resolved. */
const CLOSED_INDEXES = new Set([5, 13, 21]);
const RESOLVED_INDEXES = new Set([9, 17]);

const HOUR = 3_600_000;

export function leagueSpec(league: string): LeagueSpec | undefined {
  const upper = league.toUpperCase();
  return LEAGUES.find((l) => l.league === upper);
}

/** "NBA-BOSLAL-1F2E": league, the two teams and 4 hex digits (upper case). */
export function makeContractId(league: string, home: string, away: string, hex4: string): string {
  const prefix =
    league
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 6) || 'FIX';
  return `${prefix}-${home}${away}-${hex4.toUpperCase()}`;
}

export function generateFixtures(seed: number, now: number): FixtureRec[] {
  const rand = mulberry32(seed);
  const base = Math.ceil(now / HOUR) * HOUR;
  const ids = new Set<string>();
  const fixtures: FixtureRec[] = [];
  for (let i = 0; i < SEED_FIXTURE_COUNT; i++) {
    const spec = LEAGUES[i % LEAGUES.length]!;
    const homeIdx = pick(rand, spec.teams.length);
    const awayIdx = (homeIdx + 1 + pick(rand, spec.teams.length - 1)) % spec.teams.length;
    const homeTeam = spec.teams[homeIdx]!;
    const awayTeam = spec.teams[awayIdx]!;
    let contractId: string;
    do {
      const hex4 = pick(rand, 0x10000).toString(16).padStart(4, '0');
      contractId = makeContractId(spec.league, homeTeam, awayTeam, hex4);
    } while (ids.has(contractId));
    ids.add(contractId);
    const homeCents = 5 + pick(rand, 91); // 0.05 .. 0.95
    const jitterHours = pick(rand, 4);
    const outcomeRoll = pick(rand, 3);
    let status: FixtureRec['status'] = 'OPEN';
    let startsAt = base + (3 + i * 7 + jitterHours) * HOUR; // spread over the coming week
    let winner: string | undefined;
    if (CLOSED_INDEXES.has(i)) {
      status = 'CLOSED';
      startsAt = base - (1 + jitterHours) * HOUR;
    } else if (RESOLVED_INDEXES.has(i)) {
      status = 'RESOLVED';
      startsAt = base - (24 + jitterHours * 6) * HOUR;
      winner = outcomeRoll === 0 ? homeTeam : outcomeRoll === 1 ? awayTeam : 'DRAW';
    }
    const fixture: FixtureRec = {
      seq: i,
      contractId,
      league: spec.league,
      homeTeam,
      awayTeam,
      startsAt,
      status,
      homePrice: price(dec(homeCents).dividedBy(100)),
      lotSize: spec.lotSize,
      minContracts: spec.minContracts,
    };
    if (winner !== undefined) fixture.winner = winner;
    fixtures.push(fixture);
  }
  return fixtures;
}
