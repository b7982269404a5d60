import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/main/store/index.js';
import { SLOT_MS } from '../../../src/main/store/repos/settlements.js';
import type { Settlement } from '../../../src/shared/api/schemas.js';
import {
  LEAGUE_FILTERS,
  LEAGUE_OF,
  modelRows,
  REALIZED_SLOT_SUMS,
  referenceSlots,
  storeFixtures,
} from './history-model.js';
import { fixture, settlement, TEAMS, TYPES, tempStore } from './support.js';

let store: Store;
let accountId: number;
let done = () => {};
beforeEach(() => {
  ({ store, accountId, done } = tempStore());
});
afterEach(() => done());

const start = Date.UTC(2024, 2, 1);

/** Absent four times in five. */
const rarely = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: arb, weight: 1 });
const DAY_MS = 86_400_000;

/** The rollup tables as they are, and as they would be summed again from every row. */
function rollups(): { stored: unknown[]; summed: unknown[] } {
  const q = (sql: string) => store.db.prepare(sql).raw(true).all();
  const sums = REALIZED_SLOT_SUMS;
  return {
    stored: [
      q('SELECT * FROM settlement_slots ORDER BY 1, 2, 3'),
      q(
        'SELECT account_id, lower(league), slot, type, n, wins, pnl_sum, payout_sum, pnl_max, pnl_min, unknown FROM settlement_league_slots ORDER BY 1, 2, 3, 4',
      ),
    ],
    summed: [
      q(`SELECT account_id, timestamp_ms / ${SLOT_MS}, type, ${sums}
         FROM settlements GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
      q(`SELECT s.account_id, lower(f.league), timestamp_ms / ${SLOT_MS}, type, ${sums}
         FROM settlements s JOIN fixtures f USING (account_id, contract_id)
         GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`),
    ],
  };
}

describe('settlement rows', () => {
  it('carry the time in ms, and one is found by its id in its own account only', () => {
    store.applySettlements(accountId, [settlement(1, { timestamp: '2024-03-05T10:00:00.250Z' })]);
    const [row] = store.settlements.query(accountId).settlements;
    expect(row?.settledAt).toBe(Date.UTC(2024, 2, 5, 10, 0, 0, 250));
    expect(store.settlements.get(accountId, row!.id)).toEqual(row);
    const other = store.accounts.create({ label: 'other', baseUrl: 'http://x', apiKey: 'k' }).id;
    expect(store.settlements.get(other, row!.id)).toBeUndefined();
    expect(store.settlements.get(accountId, row!.id + 1)).toBeUndefined();
  });

  it('keep P&L and payout as exact micros beside their strings', () => {
    store.applySettlements(accountId, [
      settlement(1, { type: 'CLOSED', pnl: '-12.3456785', price: '0.5', payout: undefined }),
      settlement(2, { type: 'SETTLEMENT', payout: '1000000.10', pnl: undefined, price: undefined }),
    ]);
    const stored = store.db
      .prepare(
        `SELECT pnl, pnl_micros, typeof(pnl_micros), payout, payout_micros FROM settlements
         ORDER BY id`,
      )
      .raw(true)
      .all();
    expect(stored).toEqual([
      ['-12.3456785', -12_345_678, 'integer', null, null],
      [null, null, 'null', '1000000.10', 1_000_000_100_000],
    ]);
  });

  it('refuse an amount that is not a decimal string, and a row written without its micros', () => {
    expect(() =>
      store.applySettlements(accountId, [settlement(1, { type: 'CLOSED', pnl: '1e3' })]),
    ).toThrow(/Settlement pnl "1e3" is not an amount/);
    expect(() =>
      store.db
        .prepare(
          `INSERT INTO settlements (account_id, dedup_key, type, contract_id, outcome, contracts,
             pnl, tx, timestamp, timestamp_ms) VALUES (?, x'01', 'CLOSED', 'C', 'ARS', 1, '1.00',
             '0x', '2024-01-01T00:00:00.000Z', 0)`,
        )
        .run(accountId),
    ).toThrow(/micros are missing/);
    expect(store.settlements.count(accountId)).toBe(0);
  });
});

describe('SettlementsRepo.slotTotals', () => {
  beforeEach(() => {
    storeFixtures(store, accountId, (c) => c < 'EPL-4');
    store.applySettlements(
      accountId,
      Array.from({ length: 600 }, (_, i) => settlement(i, {}, 4)),
    );
    storeFixtures(store, accountId, (c) => c >= 'EPL-4');
    const other = store.accounts.create({ label: 'other', baseUrl: 'http://x', apiKey: 'k' }).id;
    store.applySettlements(
      other,
      Array.from({ length: 50 }, (_, i) => settlement(i)),
    );
  });

  it('match a brute-force sum for any filter, with ranges cutting slots anywhere', () => {
    const all = modelRows(store, accountId);
    const instant = fc.oneof(
      fc.constant(undefined),
      fc.integer({ min: -1, max: 5 * 96 }).map((q) => start + q * SLOT_MS),
      fc.integer({ min: -DAY_MS, max: 5 * DAY_MS }).map((o) => start + o),
    );
    const filter = fc.record({
      from: instant,
      to: instant,
      type: fc.option(fc.constantFrom(...TYPES), { nil: undefined }),
      // Mostly without a contract or team: those are what the slot rollups answer.
      contractId: rarely(fc.constantFrom('EPL-1', 'epl-9', 'NONE')),
      team: rarely(fc.constantFrom(...TEAMS, 'cHe')),
      league: fc.option(fc.constantFrom(...LEAGUE_FILTERS), { nil: undefined }),
    });
    fc.assert(
      fc.property(filter, (f) => {
        expect(store.settlements.slotTotals(accountId, f)).toEqual(referenceSlots(all, f));
      }),
      { numRuns: 300 },
    );
  });

  it('give nothing for an empty range or an account without settlements', () => {
    expect(store.settlements.slotTotals(accountId, { from: start, to: start })).toEqual([]);
    const empty = store.accounts.create({ label: 'empty', baseUrl: 'http://x', apiKey: 'k' }).id;
    expect(store.settlements.slotTotals(empty)).toEqual([]);
  });

  it('follow a fixture that changes league, and stay right as rows and accounts go', () => {
    const check = () => {
      const r = rollups();
      expect(r.stored).toEqual(r.summed);
    };
    check();
    // A fixture moves league, another goes, one arrives; the sync rewrites the rest unchanged.
    store.fixtures.upsertMany(accountId, [fixture('EPL-1', { league: 'La Liga' })], 2);
    store.fixtures.upsertMany(accountId, [fixture('EPL-2', { league: 'PREMIER LEAGUE' })], 2);
    store.db.prepare("DELETE FROM fixtures WHERE contract_id = 'EPL-5'").run();
    store.fixtures.upsertMany(accountId, [fixture('EPL-9', { league: 'Serie A' })], 2);
    check();
    const leagueOf: Record<string, string> = {
      ...LEAGUE_OF,
      'EPL-1': 'La Liga',
      'EPL-9': 'Serie A',
    };
    delete leagueOf['EPL-5'];
    const all = modelRows(store, accountId);
    for (const league of ['La Liga', 'premier league', 'Serie A']) {
      expect(store.settlements.slotTotals(accountId, { league })).toEqual(
        referenceSlots(all, { league }, leagueOf),
      );
      expect(store.settlements.count(accountId, { league })).toBe(
        all.filter((r) => leagueOf[r.contract_id]?.toLowerCase() === league.toLowerCase()).length,
      );
    }
    // Rows dropped one by one, the largest P&L first, so a slot's extremes are read again.
    const ids = store.db
      .prepare('SELECT id FROM settlements WHERE account_id = ? ORDER BY pnl_micros DESC LIMIT 40')
      .pluck()
      .all(accountId) as number[];
    const drop = store.db.prepare('DELETE FROM settlements WHERE id = ?');
    for (const id of ids) drop.run(id);
    check();
    store.accounts.remove(accountId);
    check();
    expect(store.db.prepare('SELECT count(*) FROM settlement_slots').pluck().get()).toBeGreaterThan(
      0,
    );
  });
});

describe('the slot rollups', () => {
  it('read a slot’s largest and smallest P&L again when the row holding one goes', () => {
    storeFixtures(store, accountId);
    const at = start + 5 * SLOT_MS;
    const row = (pnl: string, second: number) =>
      settlement(0, {
        type: 'CLOSED',
        contractId: 'EPL-1',
        pnl,
        tx: `0x${pnl}`,
        timestamp: new Date(at + second * 1000).toISOString(),
      });
    store.applySettlements(accountId, [row('5.00', 1), row('3.00', 2), row('-2.00', 3)]);
    const slot = () =>
      store.db
        .prepare(
          `SELECT n, wins, pnl_sum, pnl_max, pnl_min FROM settlement_slots
           UNION ALL SELECT n, wins, pnl_sum, pnl_max, pnl_min FROM settlement_league_slots`,
        )
        .raw(true)
        .all();
    expect(slot()).toEqual(Array(2).fill([3, 2, 6_000_000, 5_000_000, -2_000_000]));
    const drop = store.db.prepare('DELETE FROM settlements WHERE tx = ?');
    drop.run('0x5.00');
    expect(slot()).toEqual(Array(2).fill([2, 1, 1_000_000, 3_000_000, -2_000_000]));
    drop.run('0x-2.00');
    expect(slot()).toEqual(Array(2).fill([1, 1, 3_000_000, 3_000_000, 3_000_000]));
    drop.run('0x3.00');
    expect(slot()).toEqual([]);
  });
});

describe('SettlementsRepo.choices', () => {
  it('lists the leagues, teams and fixtures settled on, and the first and last time', () => {
    store.fixtures.upsertMany(
      accountId,
      [
        fixture('B-1', { league: 'La Liga', homeTeam: 'RMA', awayTeam: 'FCB', startsAt: 5 }),
        fixture('A-1', { league: 'Premier League', startsAt: 7 }),
        fixture('UNSETTLED', { league: 'Serie A' }),
      ],
      1,
    );
    const rows: Settlement[] = [
      settlement(1, { contractId: 'B-1', outcome: 'RMA', timestamp: '2024-03-02T00:00:00Z' }),
      settlement(2, { contractId: 'A-1', outcome: 'ARS', timestamp: '2024-03-01T00:00:00Z' }),
      settlement(3, { contractId: 'A-1', outcome: 'CHE', timestamp: '2024-03-04T00:00:00Z' }),
      settlement(4, { contractId: 'GONE', outcome: 'XYZ', timestamp: '2024-03-03T00:00:00Z' }),
    ];
    store.applySettlements(accountId, rows);
    const other = store.accounts.create({ label: 'other', baseUrl: 'http://x', apiKey: 'k' }).id;
    store.applySettlements(other, [settlement(5, { contractId: 'UNSETTLED', outcome: 'JUV' })]);

    expect(store.settlements.choices(accountId)).toEqual({
      leagues: ['La Liga', 'Premier League'],
      teams: ['ARS', 'CHE', 'RMA', 'XYZ'],
      contracts: [
        {
          contractId: 'A-1',
          league: 'Premier League',
          homeTeam: 'ARS',
          awayTeam: 'CHE',
          startsAt: 7,
        },
        { contractId: 'B-1', league: 'La Liga', homeTeam: 'RMA', awayTeam: 'FCB', startsAt: 5 },
        { contractId: 'GONE', league: null, homeTeam: null, awayTeam: null, startsAt: null },
      ],
      first: Date.UTC(2024, 2, 1),
      last: Date.UTC(2024, 2, 4),
    });
  });

  it('is empty for an account without settlements', () => {
    expect(store.settlements.choices(accountId)).toEqual({
      leagues: [],
      teams: [],
      contracts: [],
      first: null,
      last: null,
    });
  });
});

describe('SettlementsRepo.previousOnOutcome', () => {
  it('finds the settlement before on the same contract and outcome, ties broken by id', () => {
    const at = (iso: string, over: Partial<Settlement> = {}) =>
      settlement(0, { contractId: 'C-1', outcome: 'ARS', timestamp: iso, ...over });
    store.applySettlements(accountId, [
      at('2024-03-01T10:00:00Z', { tx: '0x1' }),
      at('2024-03-01T12:00:00Z', { tx: '0x2' }),
      at('2024-03-01T12:00:00Z', { tx: '0x3' }),
      at('2024-03-01T11:00:00Z', { outcome: 'CHE' }),
      at('2024-03-01T11:30:00Z', { contractId: 'C-2' }),
    ]);
    const byTx = (tx: string) =>
      store.settlements.query(accountId, { limit: 10 }).settlements.find((s) => s.tx === tx)!;
    expect(store.settlements.previousOnOutcome(accountId, byTx('0x1'))).toBeNull();
    expect(store.settlements.previousOnOutcome(accountId, byTx('0x2'))).toBe(
      Date.UTC(2024, 2, 1, 10),
    );
    expect(store.settlements.previousOnOutcome(accountId, byTx('0x3'))).toBe(
      Date.UTC(2024, 2, 1, 12),
    );
  });
});

describe('the settlements export', () => {
  it('honours the league, any letter case', () => {
    storeFixtures(store, accountId);
    store.applySettlements(
      accountId,
      Array.from({ length: 60 }, (_, i) => settlement(i)),
    );
    const reader = store.openReader();
    try {
      const rows = [...reader.settlements.iterateForExport(accountId, { league: 'serie a' })];
      const want = store.db
        .prepare(
          `SELECT tx FROM settlements WHERE account_id = ? AND contract_id IN ('EPL-7', 'EPL-8')
           ORDER BY timestamp_ms, id`,
        )
        .pluck()
        .all(accountId);
      expect(want.length).toBeGreaterThan(5);
      expect(rows.map((r) => r[11])).toEqual(want);
      expect(new Set(rows.map((r) => r[3]))).toEqual(new Set(['Serie A']));
    } finally {
      reader.close();
    }
  });
});
