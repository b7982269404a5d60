/**
 * Fixtures belong to the account whose exchange listed them (migration 005): two exchanges
 * whose fixtures overlap in name, or even in contractId, never show, price or name each
 * other's, and a store of the previous schema keeps the fixtures each account's records name.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, STORE_SCHEMA_VERSION, type Store } from '../../../src/main/store/index.js';
import { migrations, runMigrations } from '../../../src/main/store/migrations/index.js';
import type { Fixture } from '../../../src/shared/api/schemas.js';
import { insertOldSettlements } from './old-rows.js';
import { fixture, order, position, settlement, tempDir, tempStore } from './support.js';

let cleanup = () => {};
afterEach(() => cleanup());

/** Paper's sandbox (seed 1) and another exchange (seed 7): the same names, other contracts. */
const PAPER: Fixture[] = [
  fixture('NHL-VGKTOR-1A2B', {
    league: 'NHL',
    homeTeam: 'VGK',
    awayTeam: 'TOR',
    homePrice: '0.0700',
    awayPrice: '0.9300',
  }),
  fixture('EPL-MUNNEW-0001', { league: 'EPL', homeTeam: 'MUN', awayTeam: 'NEW', startsAt: 5 }),
  // A contractId both exchanges happen to use, for different fixtures.
  fixture('EPL-ARSCHE-BEEF', { league: 'EPL', homeTeam: 'ARS', awayTeam: 'CHE' }),
];
const OTHER: Fixture[] = [
  fixture('EPL-MUNNEW-7777', { league: 'EPL', homeTeam: 'MUN', awayTeam: 'NEW', startsAt: 6 }),
  fixture('EPL-ARSCHE-BEEF', {
    league: 'La Liga',
    homeTeam: 'RMA',
    awayTeam: 'FCB',
    homePrice: '0.6100',
    awayPrice: '0.3900',
    status: 'CLOSED',
    bettingOpen: false,
  }),
];

const ids = (fs: { contractId: string }[]) => fs.map((f) => f.contractId).sort();

describe('FixturesRepo with two exchanges', () => {
  let store: Store;
  let paper: number;
  let other: number;
  beforeEach(() => {
    const t = tempStore();
    cleanup = t.done;
    store = t.store;
    paper = t.accountId;
    other = store.accounts.create({
      label: 'seed7',
      baseUrl: 'http://127.0.0.1:8',
      apiKey: 'k7',
    }).id;
    store.fixtures.upsertMany(paper, PAPER, 1);
    store.fixtures.upsertMany(other, OTHER, 2);
  });

  it('lists, counts and finds only the account’s own fixtures', () => {
    expect(ids(store.fixtures.list(paper).fixtures)).toEqual(ids(PAPER));
    expect(store.fixtures.list(paper).total).toBe(PAPER.length);
    expect(ids(store.fixtures.list(other).fixtures)).toEqual(ids(OTHER));
    expect(store.fixtures.list(other, { team: 'mun' }).fixtures).toEqual([OTHER[0]]);
    expect(store.fixtures.list(paper, { team: 'mun' }).fixtures).toEqual([PAPER[1]]);
    expect(store.fixtures.list(other, { league: 'nhl' }).total).toBe(0);
    expect(store.fixtures.list(other, { bettingOpen: true }).fixtures).toEqual([OTHER[0]]);

    expect(store.fixtures.get(other, 'nhl-vgktor-1a2b')).toBeUndefined();
    expect(store.fixtures.get(paper, 'nhl-vgktor-1a2b')?.homePrice).toBe('0.0700');
    expect(store.fixtures.get(paper, 'EPL-ARSCHE-BEEF')).toEqual(PAPER[2]);
    expect(store.fixtures.get(other, 'EPL-ARSCHE-BEEF')).toEqual(OTHER[1]);
  });

  it('updates one account’s fixture without touching the other’s, and drops them with it', () => {
    store.fixtures.upsertMany(other, [{ ...OTHER[1]!, homePrice: '0.8000' }], 3);
    expect(store.fixtures.get(other, 'EPL-ARSCHE-BEEF')?.homePrice).toBe('0.8000');
    expect(store.fixtures.get(paper, 'EPL-ARSCHE-BEEF')).toEqual(PAPER[2]);

    store.accounts.remove(other);
    expect(ids(store.fixtures.list(paper).fixtures)).toEqual(ids(PAPER));
    expect(store.db.prepare('SELECT count(*) FROM fixtures').pluck().get()).toBe(PAPER.length);
  });

  it('names each account’s history after its own fixture: leagues, choices and exports', () => {
    const on = (i: number) => settlement(i, { contractId: 'EPL-ARSCHE-BEEF' });
    store.applySettlements(paper, [on(1), on(2)]);
    store.applySettlements(other, [on(3)]);
    store.applyOrderUpdates(other, [order(1, { contractId: 'EPL-ARSCHE-BEEF' })], 1);

    expect(store.settlements.count(paper, { league: 'epl' })).toBe(2);
    expect(store.settlements.count(paper, { league: 'la liga' })).toBe(0);
    expect(store.settlements.count(other, { league: 'la liga' })).toBe(1);
    expect(store.settlements.count(other, { league: 'epl' })).toBe(0);
    const leagueSlots = (account: number) =>
      store.db
        .prepare(
          'SELECT league, sum(n) FROM settlement_league_slots WHERE account_id = ? GROUP BY 1',
        )
        .raw(true)
        .all(account);
    expect(leagueSlots(paper)).toEqual([['EPL', 2]]);
    expect(leagueSlots(other)).toEqual([['La Liga', 1]]);

    expect(store.settlements.choices(other).contracts).toEqual([
      {
        contractId: 'EPL-ARSCHE-BEEF',
        league: 'La Liga',
        homeTeam: 'RMA',
        awayTeam: 'FCB',
        startsAt: OTHER[1]!.startsAt,
      },
    ]);
    const reader = store.openReader();
    try {
      const settled = [...reader.settlements.iterateForExport(other)];
      expect(settled.map((r) => r.slice(3, 6))).toEqual([['La Liga', 'RMA', 'FCB']]);
      const ordered = [...reader.orders.iterateForExport(other)];
      expect(ordered).toHaveLength(1);
      expect(ordered[0]).toEqual(expect.arrayContaining(['La Liga', 'RMA', 'FCB']));
      expect(ordered[0]).not.toEqual(expect.arrayContaining(['EPL']));
    } finally {
      reader.close();
    }
  });
});

describe('upgrading a populated version-4 store', () => {
  /** Account 1 paper, 2 a live exchange, 3 one with no records. */
  function v4File(): string {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = path.join(t.dir, 'betdesk.sqlite');
    const db = new Database(file);
    try {
      runMigrations(db, migrations.slice(0, 3));
      db.exec(`
        INSERT INTO accounts (id, label, base_url, api_key, is_paper, created_at) VALUES
          (1, 'paper', 'http://127.0.0.1:9', 'k1', 1, 0),
          (2, 'live', 'https://x.example', 'k2', 0, 0),
          (3, 'idle', 'https://y.example', 'k3', 0, 0);
      `);
      const insertFixture = db.prepare(
        `INSERT INTO fixtures (contract_id, league, home_team, away_team, starts_at,
           betting_open, status, home_price, away_price, winner, lot_size, min_contracts,
           updated_at)
         VALUES (@contractId, @league, @homeTeam, @awayTeam, @startsAt, @open, @status,
           @homePrice, @awayPrice, NULL, @lotSize, @minContracts, 6)`,
      );
      for (const f of OLD_FIXTURES) insertFixture.run({ ...f, open: f.bettingOpen ? 1 : 0 });
      // EPL-1: settled by both accounts, ordered by paper.
      insertOldSettlements(
        db,
        Array.from({ length: 12 }, (_, i) => settlement(i, { contractId: 'EPL-1' })),
        (i) => 1 + (i % 2),
      );
      const o = order(1, { contractId: 'EPL-1' });
      db.prepare(
        `INSERT INTO orders (account_id, order_id, client_order_id, contract_id, outcome, side,
           status, contracts, entry_price, cost, max_win, deadline, tx, order_type, market_unit,
           qty, boost, created_at, updated_at)
         VALUES (1, ?, ?, ?, ?, 'BUY', 'FILLED', 5, '0.5', '2.5', '2.5', 1, '', 'MARKET',
           'BASE', '5', 0, 1, 1)`,
      ).run(o.orderId, o.clientOrderId, o.contractId, o.outcome);
      // EPL-2: live's open position.
      const p = position('EPL-2', 'LIV');
      db.prepare(
        `INSERT INTO position_snapshots (account_id, contract_id, outcome, contracts, entry_price,
           estimated_closing_price, boosted, cost_basis, value, pnl, pnl_percent, max_payout,
           knockout, updated_at, snapshot_at)
         VALUES (2, ?, ?, 3, '0.5', '0.5', 0, '1', '1', '0', '0', '3', NULL, 1, 1)`,
      ).run(p.contractId, p.outcome);
      // EPL-3: only an alert of paper's. EPL-4: only live's open intent (lower case, as typed).
      db.exec(`
        INSERT INTO alerts (account_id, kind, contract_id, outcome, message, dedup_key,
          created_at) VALUES (1, 'filled', 'EPL-3', 'ARS', 'Filled.', 'f1', 1);
        INSERT INTO order_intents (client_order_id, account_id, params_hash, params_json, state,
          created_at, updated_at) VALUES
          ('bd-a', 2, 'h', '{"request":{},"bet":{"contractId":"epl-4"}}', 'unknown', 1, 1),
          ('bd-b', 2, 'h', 'not json', 'unknown', 1, 1),
          ('bd-c', 1, 'h', '{"bet":{"contractId":"NHL-9"}}', 'done', 1, 1);
        INSERT INTO sync_cursors (account_id, stream, cursor, last_sync_at) VALUES
          (1, 'fixtures', 24, 7), (2, 'fixtures', 30, 8), (1, 'orders', 5, 9);
      `);
      runMigrations(db, migrations.slice(0, 4));
    } finally {
      db.close();
    }
    return file;
  }

  /** The fixtures the old table held: NHL-9 is named by no record (a done intent is none). */
  const OLD_FIXTURES = ['EPL-1', 'EPL-2', 'EPL-3', 'EPL-4', 'NHL-9'].map((c, k) =>
    fixture(c, { league: k % 2 ? 'La Liga' : 'Premier League', startsAt: k }),
  );
  const old = (c: string) => OLD_FIXTURES.find((f) => f.contractId === c)!;

  // Wins and the unknown count are realized P&L's from migration 006 on (docs/pnl.md); the
  // rest is what 005 must keep.
  const slots = (db: Store['db']) =>
    [
      ['settlement_slots', 'account_id, slot, type'],
      ['settlement_league_slots', 'account_id, league, slot, type'],
    ].map(([t, key]) =>
      db
        .prepare(
          `SELECT ${key}, n, pnl_sum, payout_sum, pnl_max, pnl_min FROM ${t} ORDER BY 1, 2, 3, 4`,
        )
        .raw(true)
        .all(),
    );

  it('keeps each fixture for every account whose records name it, and drops the rest', () => {
    const file = v4File();
    const raw = new Database(file, { readonly: true });
    const before = slots(raw);
    raw.close();
    expect(before[1]!.length).toBeGreaterThan(0);

    const store = openStore(file);
    try {
      expect(store.schemaVersion).toBe(STORE_SCHEMA_VERSION);
      expect(STORE_SCHEMA_VERSION).toBeGreaterThanOrEqual(5);
      expect(store.fixtures.list(1).fixtures).toEqual([old('EPL-1'), old('EPL-3')]);
      expect(store.fixtures.list(2).fixtures).toEqual([old('EPL-1'), old('EPL-2'), old('EPL-4')]);
      expect(store.fixtures.list(3).total).toBe(0);
      expect(
        store.db.prepare("SELECT count(*) FROM fixtures WHERE contract_id = 'NHL-9'").pluck().get(),
      ).toBe(0);
      // No list claims to be current until its account has read its exchange's again.
      expect(store.cursors.get(1, 'fixtures')).toBeUndefined();
      expect(store.cursors.get(2, 'fixtures')).toBeUndefined();
      expect(store.cursors.get(1, 'orders')).toMatchObject({ cursor: 5, lastSyncAt: 9 });

      // Every settlement keeps its league: the rollups are as they were.
      expect(slots(store.db)).toEqual(before);
      expect(store.settlements.count(1, { league: 'premier league' })).toBe(6);
      expect(store.settlements.count(2, { league: 'premier league' })).toBe(6);
    } finally {
      store.close();
    }
  });

  it('keeps the league rollups per account once the fixtures are the account’s', () => {
    const store = openStore(v4File());
    try {
      const before = slots(store.db);
      // The idle account's exchange lists EPL-1 in another league: nobody else's rows move.
      store.fixtures.upsertMany(3, [{ ...old('EPL-1'), league: 'Serie A' }], 10);
      expect(slots(store.db)).toEqual(before);
      // Live's EPL-1 moves league: live's rows follow, paper's stay.
      store.fixtures.upsertMany(2, [{ ...old('EPL-1'), league: 'Serie A' }], 11);
      expect(store.settlements.count(2, { league: 'serie a' })).toBe(6);
      expect(store.settlements.count(1, { league: 'serie a' })).toBe(0);
      expect(store.settlements.count(1, { league: 'premier league' })).toBe(6);
      // A new settlement of the idle account counts in its own fixture's league only.
      store.applySettlements(3, [settlement(40, { contractId: 'EPL-1' })]);
      expect(store.settlements.count(3, { league: 'serie a' })).toBe(1);
      expect(store.settlements.count(1, { league: 'premier league' })).toBe(6);

      const summed = store.db
        .prepare(
          `SELECT s.account_id, lower(f.league), count(*) FROM settlements s
           JOIN fixtures f USING (account_id, contract_id) GROUP BY 1, 2 ORDER BY 1, 2`,
        )
        .raw(true)
        .all();
      const stored = store.db
        .prepare(
          `SELECT account_id, lower(league), sum(n) FROM settlement_league_slots
           GROUP BY 1, 2 ORDER BY 1, 2`,
        )
        .raw(true)
        .all();
      expect(stored).toEqual(summed);

      store.accounts.remove(2);
      expect(
        store.db.prepare('SELECT count(*) FROM fixtures WHERE account_id = 2').pluck().get(),
      ).toBe(0);
      expect(store.fixtures.list(1).total).toBe(2);
    } finally {
      store.close();
    }
  });
});
