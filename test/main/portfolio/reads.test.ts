/**
 * The Portfolio's reads over a real store: two exchange accounts and paper, with fixtures,
 * positions, settlements and equity points written as the sync writes them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { equitySeries, portfolioView } from '../../../src/main/portfolio/reads.js';
import type { Store } from '../../../src/main/store/index.js';
import type { PortfolioView } from '../../../src/shared/ipc/contract.js';
import { add, toMicros } from '../../../src/shared/money.js';
import { fixture, position, settlement, tempStore } from '../store/support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2024, 3, 1, 12);

let store: Store;
let main: number;
let second: number;
let paper: number;
let done = () => {};

/** A position whose value is its cost basis plus `pnl`: its unrealized P&L is that pnl. */
const held = (contractId: string, outcome: string, over: Parameters<typeof position>[2] = {}) => {
  const p = position(contractId, outcome, over);
  return { ...p, value: add(p.costBasis, p.pnl) };
};

beforeEach(() => {
  ({ store, accountId: main, done } = tempStore());
  second = store.accounts.create({
    label: 'second',
    baseUrl: 'http://127.0.0.1:8',
    apiKey: 'k2',
  }).id;
  paper = store.accounts.create({
    label: 'Paper',
    baseUrl: 'http://127.0.0.1:7',
    apiKey: 'paper',
    isPaper: true,
  }).id;
  store.fixtures.upsertMany(
    main,
    [
      // ARS's index 0.33 is 8.7 % above a knockout of 0.3012: near it.
      fixture('EPL-1', { homePrice: '0.3300', awayPrice: '0.6700' }),
      fixture('EPL-2', { homeTeam: 'LIV', awayTeam: 'MCI' }),
      fixture('LIGA-1', { league: 'La Liga', homeTeam: 'RMA', awayTeam: 'BAR' }),
    ],
    NOW - DAY,
  );
  store.fixtures.upsertMany(second, [fixture('EPL-9', { homeTeam: 'TOT', awayTeam: 'NEW' })], NOW);
  store.replacePositions(
    main,
    [
      held('EPL-1', 'ARS', { costBasis: '27.56', pnl: '-1.16', maxPayout: '72.44' }),
      held('EPL-1', 'CHE', {
        boosted: false,
        costBasis: '10.005',
        pnl: '3.5',
        maxPayout: '20',
      }),
      held('EPL-2', 'LIV', { costBasis: '5.10', pnl: '0.75', maxPayout: '9.80' }),
      held('LIGA-1', 'RMA', { boosted: false, costBasis: '40', pnl: '-6.25', maxPayout: '80' }),
      held('UNSEEN-1', 'XYZ', { boosted: false, costBasis: '1.01', pnl: '0', maxPayout: '2' }),
    ],
    NOW - HOUR,
  );
  store.replacePositions(
    second,
    [held('EPL-9', 'TOT', { boosted: false, costBasis: '12.5', pnl: '2.25', maxPayout: '25' })],
    NOW - HOUR,
  );
  store.replacePositions(
    paper,
    [held('EPL-1', 'ARS', { boosted: false, costBasis: '999', pnl: '500', maxPayout: '2000' })],
    NOW - HOUR,
  );
  // CLOSED / KNOCKED_OUT rows carry a P&L, SETTLEMENT rows a payout only (no orders here, so
  // their realized P&L is unknown).
  store.applySettlements(
    main,
    [0, 1, 2, 3, 4, 5, 6].map((i) => settlement(i)),
  );
  store.applySettlements(
    second,
    [10, 11, 13].map((i) => settlement(i)),
  );
  store.applySettlements(
    paper,
    [21].map((i) => settlement(i, { pnl: '1000.00' })),
  );
});
afterEach(() => done());

const live = { scope: { kind: 'live' as const } };
const sum = (values: string[]) => add('0', ...values);

describe('the portfolio view', () => {
  it('adds up every exchange account for live, and leaves paper apart', () => {
    const v = portfolioView(store, live, NOW);
    expect(v.accounts.map((a) => a.label)).toEqual(['main', 'second']);
    expect(v.accounts[0]).toEqual({
      accountId: String(main),
      label: 'main',
      positionsAt: store.cursors.get(main, 'positions')!.lastSyncAt,
    });
    expect(v.openPositions).toBe(6);
    expect(v.exposure.atRisk).toBe('96.175');
    expect(v.unrealized).toBe('-0.91');

    const paperView = portfolioView(store, { scope: { kind: 'paper' } }, NOW);
    expect(paperView.accounts).toEqual([
      {
        accountId: 'paper',
        label: 'Paper',
        positionsAt: store.cursors.get(paper, 'positions')!.lastSyncAt,
      },
    ]);
    expect(paperView.exposure.atRisk).toBe('999');
    expect(paperView.realized).toBe('1000');
    expect(portfolioView(store, { scope: { kind: 'account', accountId: 'paper' } }, NOW)).toEqual({
      ...paperView,
      scope: { kind: 'account', accountId: 'paper' },
    });

    const one = portfolioView(
      store,
      { scope: { kind: 'account', accountId: String(second) } },
      NOW,
    );
    expect(one.exposure.atRisk).toBe('12.5');
    expect(one.best.map((p) => p.accountLabel)).toEqual(['second']);
    expect(() =>
      portfolioView(store, { scope: { kind: 'account', accountId: '99' } }, NOW),
    ).toThrow(/no such account/);
  });

  it('states realized P&L to date from the slots, with the unknown rows counted apart', () => {
    const v = portfolioView(store, live, NOW);
    const rows = [0, 1, 2, 3, 4, 5, 6, 10, 11, 13].map((i) => settlement(i));
    const withPnl = rows.filter((r) => r.pnl !== undefined);
    expect(v.realized).toBe(sum(withPnl.map((r) => r.pnl!)));
    expect(v.unknownSettlements).toBe(rows.length - withPnl.length);
    expect(toMicros(v.equity)).toBe(toMicros(v.realized) + toMicros(v.unrealized));
  });

  it('splits exposure by league, fixture and outcome into groups that add up to the whole', () => {
    const { exposure: e } = portfolioView(store, live, NOW);
    expect(e.maxPayout).toBe('209.24');
    expect(e.worstCase).toBe('-96.175');
    for (const groups of [e.byLeague, e.byFixture, e.byOutcome]) {
      expect(sum(groups.map((g) => g.atRisk))).toBe(e.atRisk);
      expect(sum(groups.map((g) => g.maxPayout))).toBe(e.maxPayout);
      expect(groups.reduce((n, g) => n + g.positions, 0)).toBe(6);
      const atRisk = groups.map((g) => toMicros(g.atRisk));
      expect(atRisk).toEqual([...atRisk].sort((a, b) => b - a));
    }
    expect(e.byLeague.map((g) => [g.key, g.atRisk, g.share])).toEqual([
      ['Premier League', '55.165', '0.5736'],
      ['La Liga', '40', '0.4159'],
      ['Unknown league', '1.01', '0.0105'],
    ]);
    expect(e.largestFixture).toMatchObject({
      key: 'LIGA-1',
      label: 'RMA v BAR',
      atRisk: '40',
      share: '0.4159',
    });
    expect(e.byFixture.find((g) => g.key === 'EPL-1')).toMatchObject({
      label: 'ARS v CHE',
      positions: 2,
      atRisk: '37.565',
    });
    expect(e.byOutcome.find((g) => g.key === 'EPL-1:ARS')).toMatchObject({
      label: 'ARS in ARS v CHE',
      atRisk: '27.56',
    });
    expect(e.byFixture.find((g) => g.key === 'UNSEEN-1')?.label).toBe('UNSEEN-1');
  });

  it('counts the boosted stake within 10 % of its knockout on the index price', () => {
    const v = portfolioView(store, live, NOW);
    expect(v.exposure.nearKnockout).toEqual({ positions: 1, atRisk: '27.56' });
    const ars = [...v.best, ...v.worst].find(
      (p) => p.contractId === 'EPL-1' && p.outcome === 'ARS',
    );
    expect(ars).toMatchObject({ boosted: true, knockout: '0.3012', knockoutFraction: '0.0873' });
    // LIV's index 0.55 is 45 % above its knockout: boosted, not near.
    const liv = [...v.best, ...v.worst].find((p) => p.outcome === 'LIV');
    expect(liv).toMatchObject({ knockoutFraction: '0.4524' });
    // The index moves away: nothing is near any more.
    store.fixtures.upsertMany(main, [fixture('EPL-1', { homePrice: '0.5000' })], NOW);
    expect(portfolioView(store, live, NOW).exposure.nearKnockout).toEqual({
      positions: 0,
      atRisk: '0',
    });
  });

  it('lists the best and worst five open positions and the ten latest settlements', () => {
    const v: PortfolioView = portfolioView(store, live, NOW);
    // Unrealized P&L, value − cost basis, in dollars and cents (src/shared/rules/unrealized.ts).
    expect(v.best.map((p) => p.pnl)).toEqual(['3.50', '2.25', '0.75', '0.00', '-1.16']);
    expect(v.worst.map((p) => p.pnl)).toEqual(['-6.25', '-1.16', '0.00', '0.75', '2.25']);
    expect(v.latest).toHaveLength(10);
    const times = v.latest.map((l) => l.row.settledAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(v.latest.map((l) => l.accountLabel))).toEqual(new Set(['main', 'second']));
  });
});

describe('the equity series', () => {
  it('adds realized to date and the unrealized snapshot in force at each point', () => {
    // Equity points a day apart, the last one the snapshot of beforeEach.
    const t = NOW - 3 * DAY;
    store.equity.record(second, t, {
      positions: 1,
      unrealizedMicros: 7_000_000,
      costBasisMicros: 0,
      maxPayoutMicros: 0,
      valueMicros: 0,
    });
    const s = equitySeries(
      store,
      { scope: { kind: 'account', accountId: String(second) }, period: 'week' },
      NOW,
    );
    expect(s.to).toBe(NOW);
    expect(s.from).toBe(NOW - 7 * DAY);
    expect(s.points.length).toBeLessThanOrEqual(2000);
    const at = (ms: number) => s.points.filter((p) => p.at <= ms).at(-1)!;
    expect(at(t - 1).unrealized).toBe('0');
    expect(at(t + HOUR).unrealized).toBe('7');
    expect(at(NOW - HOUR + s.stepMs).unrealized).toBe('2.25');
    const view = portfolioView(
      store,
      { scope: { kind: 'account', accountId: String(second) } },
      NOW,
    );
    expect(s.points.at(-1)).toEqual({
      at: NOW,
      realized: view.realized,
      unrealized: view.unrealized,
      equity: view.equity,
    });
  });

  it('reaches back to the first settlement for "all", in at most 2000 points, oldest first', () => {
    const s = equitySeries(store, { ...live, period: 'all' }, NOW);
    const first = Math.min(
      ...[0, 1, 2, 3, 4, 5, 6, 10, 11, 13].map((i) => Date.parse(settlement(i).timestamp)),
    );
    expect(s.from).toBe(Math.floor(first / 900_000) * 900_000);
    expect(s.points.length).toBeLessThanOrEqual(2000);
    expect(s.points.length).toBeGreaterThan(1000);
    const ats = s.points.map((p) => p.at);
    expect(ats).toEqual([...ats].sort((a, b) => a - b));
    expect(s.points[0]!.realized).toBe('0');
    // Realized only grows by the settlements' P&L, step by step, to the total at the end.
    const view = portfolioView(store, live, NOW);
    expect(s.points.at(-1)!.realized).toBe(view.realized);
    expect(s.points.at(-1)!.equity).toBe(view.equity);
    // Each earlier point: the P&L of the settlements whose 15-minute slot ended by then.
    const rows = [0, 1, 2, 3, 4, 5, 6, 10, 11, 13].map((i) => settlement(i));
    for (const p of s.points.slice(0, -1)) {
      const ended = rows.filter(
        (r) => (Math.floor(Date.parse(r.timestamp) / 900_000) + 1) * 900_000 <= p.at,
      );
      expect(p.realized).toBe(sum(ended.flatMap((r) => (r.pnl === undefined ? [] : [r.pnl]))));
    }
    for (const p of s.points)
      expect(toMicros(p.equity)).toBe(toMicros(p.realized) + toMicros(p.unrealized));
  });

  it('has one point, now, when a scope holds nothing', () => {
    const empty = tempStore();
    try {
      const s = equitySeries(empty.store, { scope: { kind: 'paper' }, period: 'all' }, NOW);
      expect(s.points).toEqual([{ at: NOW, realized: '0', unrealized: '0', equity: '0' }]);
    } finally {
      empty.done();
    }
  });
});
