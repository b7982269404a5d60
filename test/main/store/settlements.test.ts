import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settlement } from '../../../src/shared/api/schemas.js';
import type { Store } from '../../../src/main/store/index.js';
import { DAY_MS } from '../../../src/main/store/repos/settlements.js';
import {
  LEAGUE_FILTERS,
  modelRows,
  referencePage,
  storeFixtures,
  type ModelRow,
} from './history-model.js';
import { dump, settlement, TEAMS, TYPES, tempStore } from './support.js';

let store: Store;
let accountId: number;
let done = () => {};
afterEach(() => done());

describe('applySettlements', () => {
  beforeEach(() => {
    ({ store, accountId, done } = tempStore());
  });

  it('stores each settlement once however often it is applied', () => {
    const rows = Array.from({ length: 30 }, (_, i) => settlement(i));
    expect(store.applySettlements(accountId, rows.slice(0, 20))).toEqual({
      inserted: 20,
      duplicates: 0,
    });
    expect(store.applySettlements(accountId, rows)).toEqual({ inserted: 10, duplicates: 20 });
    expect(store.settlements.count(accountId)).toBe(30);
    expect(store.settlements.query(accountId, { limit: 100 }).total).toBe(30);
  });

  it('treats two spellings of the same instant as the same settlement', () => {
    const s = settlement(1, { timestamp: '2024-03-05T10:00:00Z' });
    store.applySettlements(accountId, [s]);
    const again = store.applySettlements(accountId, [
      { ...s, timestamp: '2024-03-05T10:00:00.000+00:00' },
    ]);
    expect(again).toEqual({ inserted: 0, duplicates: 1 });
    expect(store.settlements.query(accountId).settlements[0]?.timestamp).toBe(
      '2024-03-05T10:00:00.000Z',
    );
  });

  it('keeps rows that differ in any field of the key', () => {
    const s = settlement(1);
    const variants: Settlement[] = [
      s,
      { ...s, type: s.type === 'CLOSED' ? 'SETTLEMENT' : 'CLOSED' },
      { ...s, contractId: 'OTHER' },
      { ...s, outcome: 'ZZZ' },
      { ...s, contracts: 999 },
      { ...s, tx: '0xdead' },
      { ...s, timestamp: '2024-01-01T00:00:00.001Z' },
    ];
    expect(store.applySettlements(accountId, variants).inserted).toBe(variants.length);
  });

  it('keeps money fields as the exact decimal strings received', () => {
    const s = settlement(1, { type: 'CLOSED', price: '0.5000', pnl: '-1.50', payout: undefined });
    const p = settlement(2, {
      type: 'SETTLEMENT',
      payout: '100.00',
      price: undefined,
      pnl: undefined,
    });
    store.applySettlements(accountId, [s, p]);
    const got = store.settlements.query(accountId).settlements;
    const closed = got.find((g) => g.type === 'CLOSED')!;
    expect([closed.price, closed.pnl, closed.payout]).toEqual(['0.5000', '-1.50', undefined]);
    expect(got.find((g) => g.type === 'SETTLEMENT')?.payout).toBe('100.00');
  });

  it('is atomic with its cursor: a bad row leaves rows and cursor unchanged', () => {
    store.applySettlements(accountId, [settlement(1)], 10);
    const before = dump(store);
    const rows = [settlement(2), settlement(3, { timestamp: 'yesterday' }), settlement(4)];
    expect(() => store.applySettlements(accountId, rows, 20)).toThrow(/not an ISO 8601 time/);
    expect(dump(store)).toEqual(before);
    expect(store.cursors.get(accountId, 'settlements')?.cursor).toBe(10);
  });

  it('reads a time without a zone as UTC', () => {
    store.applySettlements(accountId, [settlement(1, { timestamp: '2024-03-05T10:00:00' })]);
    expect(store.settlements.query(accountId).settlements[0]?.timestamp).toBe(
      '2024-03-05T10:00:00.000Z',
    );
  });

  it('refuses to edit a stored settlement', () => {
    store.applySettlements(accountId, [settlement(1)]);
    expect(() => store.db.prepare("UPDATE settlements SET pnl = '1'").run()).toThrow(/append-only/);
  });

  it('forgets an account’s settlements and day counts when the account is removed', () => {
    store.applySettlements(
      accountId,
      Array.from({ length: 10 }, (_, i) => settlement(i)),
    );
    store.accounts.remove(accountId);
    expect(store.db.prepare('SELECT count(*) FROM settlements').pluck().get()).toBe(0);
    expect(store.db.prepare('SELECT count(*) FROM settlement_day_counts').pluck().get()).toBe(0);
  });
});

describe('SettlementsRepo.query', () => {
  const start = Date.UTC(2024, 2, 1);
  let all: ModelRow[];
  let other: number;

  for (const [name, deepOffsetFrom] of [
    ['plain offsets', Number.MAX_SAFE_INTEGER],
    ['offsets located by day counts and league slots', 0],
  ] as const) {
    describe(name, () => {
      beforeEach(() => {
        ({ store, accountId, done } = tempStore({ settlements: { deepOffsetFrom } }));
        const rows = Array.from({ length: 700 }, (_, i) => settlement(i));
        // Ties on one instant, and rows on midnight, to pin the order and the day edges.
        for (let i = 0; i < 6; i++) {
          rows.push(
            settlement(1000 + i, { timestamp: new Date(start + 3 * DAY_MS).toISOString() }),
          );
        }
        // Some fixtures are known before their settlements arrive, some only after.
        storeFixtures(store, accountId, (c) => c < 'EPL-5');
        store.applySettlements(accountId, rows);
        storeFixtures(store, accountId, (c) => c >= 'EPL-5');
        other = store.accounts.create({ label: 'other', baseUrl: 'http://x', apiKey: 'k' }).id;
        store.applySettlements(other, rows.slice(0, 100));
        all = modelRows(store, accountId);
      });

      it('matches a brute-force answer for any filter and page', () => {
        const instant = fc.oneof(
          fc.constant(undefined),
          fc.integer({ min: -2, max: 23 }).map((d) => start + d * DAY_MS),
          fc.integer({ min: -DAY_MS, max: 22 * DAY_MS }).map((o) => start + o),
        );
        const filter = fc.record({
          from: instant,
          to: instant,
          type: fc.option(fc.constantFrom(...TYPES), { nil: undefined }),
          // Mostly without a contract or team, so the rollups' paths get most of the runs.
          contractId: fc.oneof(
            { arbitrary: fc.constant(undefined), weight: 3 },
            { arbitrary: fc.constantFrom('EPL-1', 'epl-4', 'NONE'), weight: 1 },
          ),
          team: fc.oneof(
            { arbitrary: fc.constant(undefined), weight: 3 },
            { arbitrary: fc.constantFrom(...TEAMS, 'lIv'), weight: 1 },
          ),
          league: fc.option(fc.constantFrom(...LEAGUE_FILTERS), { nil: undefined }),
          sort: fc.constantFrom('time' as const, 'pnl' as const),
          limit: fc.integer({ min: 1, max: 60 }),
          offset: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 750 })),
        });
        fc.assert(
          fc.property(filter, (f) => {
            const got = store.settlements.query(accountId, f);
            const want = referencePage(all, f);
            expect(got.total).toBe(want.total);
            expect(got.settlements.map((s) => s.id)).toEqual(want.ids);
            expect(store.settlements.count(accountId, f)).toBe(want.total);
          }),
          { numRuns: 300 },
        );
      });

      it('pages through everything without repeating or skipping', () => {
        const ids: number[] = [];
        for (let offset = 0; ; offset += 37) {
          const page = store.settlements.query(accountId, { type: 'CLOSED', limit: 37, offset });
          if (page.settlements.length === 0) break;
          ids.push(...page.settlements.map((s) => s.id));
        }
        const closed = all.filter((r) => r.type === 'CLOSED');
        expect(ids).toHaveLength(closed.length);
        expect(new Set(ids).size).toBe(closed.length);
      });

      it('pages through a league by P&L without repeating or skipping', () => {
        const filter = { league: 'la liga', sort: 'pnl' as const };
        const ids: number[] = [];
        for (let offset = 0; ; offset += 23) {
          const page = store.settlements.query(accountId, { ...filter, limit: 23, offset });
          if (page.settlements.length === 0) break;
          ids.push(...page.settlements.map((s) => s.id));
        }
        expect(ids).toEqual(referencePage(all, { ...filter, limit: 1000, offset: 0 }).ids);
        expect(ids.length).toBeGreaterThan(100);
      });
    });
  }
});
