/**
 * A year of betting for the benchmarks: 1,000,000 settlements over ~40 fixtures a day (more at
 * weekends, kick-offs in the afternoon and evening), in eight leagues of unequal weight, each
 * fixture's settlements around its kick-off: positions closed from two hours before to three
 * after, knockouts during the game, the game's resolution about two hours after kick-off.
 *
 * Fixtures are made in JS; the settlements by one INSERT ... SELECT over a recursive CTE (the
 * seeding is not what is measured; the store's triggers keep day counts and slots as for any
 * insert). Deterministic: every run measures the same history.
 */
import type { Fixture } from '../src/shared/api/schemas.js';
import type { Store } from '../src/main/store/index.js';

export const SEED_ROWS = 1_000_000;
export const SEED_START = Date.UTC(2024, 0, 1);
export const SEED_DAYS = 365;
const MINUTE = 60_000;
const DAY = 86_400_000;

/** League, its weight in fixtures, and its teams. The first is the largest. */
export const SEED_LEAGUES = [
  ['Premier League', 30],
  ['La Liga', 20],
  ['Serie A', 15],
  ['Bundesliga', 10],
  ['Ligue 1', 10],
  ['Eredivisie', 5],
  ['Primeira Liga', 5],
  ['MLS', 5],
] as const;
const TEAMS_PER_LEAGUE = 20;

/** Three-letter team codes, distinct across leagues: league l, team t. */
export function seedTeam(l: number, t: number): string {
  const n = l * TEAMS_PER_LEAGUE + t;
  return `${String.fromCharCode(65 + (n % 26))}${String.fromCharCode(65 + Math.floor(n / 26))}${l}`;
}

/** Fixtures per weekday (Sunday first): about 40 a day on average. */
const PER_WEEKDAY = [70, 25, 25, 25, 25, 35, 75];
/** Kick-offs (UTC minutes of the day) at weekends and on weekdays. */
const WEEKEND_KICKOFFS = [11 * 60 + 30, 14 * 60, 16 * 60 + 30, 19 * 60];
const WEEKDAY_KICKOFFS = [18 * 60 + 45, 19 * 60 + 45, 20 * 60];

export interface SeededHistory {
  fixtures: Fixture[];
  rows: number;
  first: number;
  last: number;
  ms: number;
}

export function seedFixtures(): Fixture[] {
  const weights = SEED_LEAGUES.flatMap(([, w], l) => Array.from({ length: w }, () => l));
  const fixtures: Fixture[] = [];
  for (let d = 0; d < SEED_DAYS; d++) {
    const dayStart = SEED_START + d * DAY;
    const weekday = new Date(dayStart).getUTCDay();
    const kickoffs = weekday === 0 || weekday === 6 ? WEEKEND_KICKOFFS : WEEKDAY_KICKOFFS;
    const count = PER_WEEKDAY[weekday]!;
    for (let j = 0; j < count; j++) {
      const k = fixtures.length;
      const l = weights[(k * 37) % weights.length]!;
      const home = (k * 7) % TEAMS_PER_LEAGUE;
      const away = (home + 1 + ((k * 3) % (TEAMS_PER_LEAGUE - 1))) % TEAMS_PER_LEAGUE;
      fixtures.push({
        contractId: `FX-${String(k).padStart(6, '0')}`,
        league: SEED_LEAGUES[l]![0],
        homeTeam: seedTeam(l, home),
        awayTeam: seedTeam(l, away),
        startsAt: dayStart + kickoffs[j % kickoffs.length]! * MINUTE,
        bettingOpen: false,
        status: 'RESOLVED',
        homePrice: '1.0000',
        awayPrice: '0.0000',
        winner: seedTeam(l, home),
        lotSize: 1,
        minContracts: 1,
      });
    }
  }
  return fixtures;
}

/**
 * Fills `accountId`'s history with `rows` settlements (and the fixtures). Types: half CLOSED,
 * 15% KNOCKED_OUT (always a loss), 35% SETTLEMENT (half of them paying out).
 */
export function seedSettlements(store: Store, accountId: number, rows = SEED_ROWS): SeededHistory {
  const t0 = performance.now();
  const before = store.settlements.count(accountId);
  const fixtures = seedFixtures();
  store.fixtures.upsertMany(accountId, fixtures, SEED_START);
  store.db.exec(
    `CREATE TEMP TABLE bench_fixture (k INTEGER PRIMARY KEY, contract_id TEXT, home TEXT,
       away TEXT, kickoff INTEGER)`,
  );
  const ins = store.db.prepare('INSERT INTO bench_fixture VALUES (?, ?, ?, ?, ?)');
  store.transaction(() =>
    fixtures.forEach((f, k) => ins.run(k, f.contractId, f.homeTeam, f.awayTeam, f.startsAt)),
  );
  // Constants are spliced in as integer literals: better-sqlite3 binds JS numbers as REAL,
  // which would turn the integer arithmetic below into floating point.
  const int = (n: number): string => String(Math.trunc(n));
  // From migration 006 on, CLOSED and KNOCKED_OUT rows carry their realized P&L as written at
  // insert; SETTLEMENT rows are left for the backfill (docs/pnl.md), as an upgrade leaves them.
  const realized = store.schemaVersion >= 6;
  store.transaction(() =>
    store.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${int(rows - 1)}),
         g AS (
           SELECT i, (i * 2654435761) % 100 AS r, (i * 2246822519) % 1000003 AS h,
             (i * 3266489917) % 1000033 AS a, i * ${int(fixtures.length)} / ${int(rows)} AS k
           FROM n),
         s AS (
           SELECT g.*, f.contract_id, f.home, f.away,
             f.kickoff + 1000 * CASE
               WHEN g.r < 50 THEN g.h % 18000 - 7200     -- closed: 2 h before to 3 h after
               WHEN g.r < 65 THEN g.h % 6300             -- knocked out during the game
               ELSE 6900 + g.h % 600 END AS ms,          -- the game resolved
             CASE WHEN g.r < 50 AND g.a % 5 >= 2 THEN 1 ELSE -1 END AS sign,
             g.a % 200 AS dollars, g.i % 100 AS cents
           FROM g JOIN bench_fixture f ON f.k = g.k)
         INSERT INTO settlements (account_id, dedup_key, type, contract_id, outcome, contracts,
           price, pnl, payout, tx, timestamp, timestamp_ms, pnl_micros, payout_micros
           ${realized ? ', realized_micros, pnl_source' : ''})
         SELECT ${int(accountId)}, unhex(printf('%032x', s.i)),
           CASE WHEN s.r < 50 THEN 'CLOSED' WHEN s.r < 65 THEN 'KNOCKED_OUT' ELSE 'SETTLEMENT' END,
           s.contract_id, CASE WHEN s.h % 2 = 0 THEN s.home ELSE s.away END,
           1 + s.r * 7,
           CASE WHEN s.r < 65 THEN printf('0.%04d', 500 + s.r * 91) END,
           CASE WHEN s.r < 65 THEN printf('%s%d.%02d', CASE WHEN s.sign < 0 THEN '-' ELSE '' END,
             s.dollars, s.cents) END,
           CASE WHEN s.r >= 65 THEN printf('%d.00', (s.a % 2) * (1 + s.r * 7)) END,
           printf('0x%064x', s.i * 40503 + 17),
           strftime('%Y-%m-%dT%H:%M:%SZ', s.ms / 1000, 'unixepoch'), s.ms,
           CASE WHEN s.r < 65 THEN s.sign * (s.dollars * 1000000 + s.cents * 10000) END,
           CASE WHEN s.r >= 65 THEN (s.a % 2) * (1 + s.r * 7) * 1000000 END
           ${
             realized
               ? `, CASE WHEN s.r < 65 THEN s.sign * (s.dollars * 1000000 + s.cents * 10000) END,
                  CASE WHEN s.r < 65 THEN 'exchange' ELSE 'unknown' END`
               : ''
           }
         FROM s`,
      )
      .run(),
  );
  store.db.exec('DROP TABLE bench_fixture; ANALYZE');
  const count = store.settlements.count(accountId) - before;
  if (count !== rows) throw new Error(`seeded ${count} settlements, not ${rows}`);
  const span = store.settlements.choices(accountId);
  return {
    fixtures,
    rows,
    first: span.first ?? SEED_START,
    last: span.last ?? SEED_START,
    ms: performance.now() - t0,
  };
}
