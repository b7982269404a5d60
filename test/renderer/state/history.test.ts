import { describe, expect, test, vi } from 'vitest';
import type {
  HistoryPage,
  HistorySummary,
  SettlementDetail,
} from '../../../src/shared/ipc/contract.js';
import { HistoryState } from '../../../src/renderer/src/lib/state/history.svelte.js';
import { chooseBackwardsRange } from './backwards-range.js';
import { deferred, FakeBridge, settle } from '../fake-bridge.js';
import {
  historySummary,
  historyTotals,
  NOW,
  orderRow,
  realizedWorking,
  settlementRow,
  settlementStore,
} from '../rows.js';

const CHOICES = {
  leagues: ['EPL', 'LaLiga'],
  teams: ['ARS', 'CHE', 'RMA'],
  fixtures: [
    { contractId: 'EPL-ARSCHE', name: 'ARS v CHE', league: 'EPL', startsAt: NOW - 86_400_000 },
    { contractId: 'LL-RMABAR', name: 'RMA v BAR', league: 'LaLiga', startsAt: NOW },
  ],
  first: NOW - 365 * 86_400_000,
  last: NOW,
};

const WORKING = realizedWorking();

function setup(n = 1000) {
  const bridge = new FakeBridge();
  bridge.answer('history:list', settlementStore(n));
  bridge.answer('history:summary', historySummary());
  bridge.answer('history:choices', CHOICES);
  const history = new HistoryState(bridge, { now: () => NOW, timeZone: 'Europe/London' });
  history.start();
  return { bridge, history };
}

/** A first page of `total` settlements that holds the one with `id`. */
function page(total: number, id: number): HistoryPage {
  return { accountId: null, rows: [settlementRow({ id })], total, limit: 200, offset: 0 };
}

/** Lets a chain of reads (rows, then totals, then menus) run to its end. */
async function idle(): Promise<void> {
  for (let i = 0; i < 5; i++) await settle();
}

function localMidnight(ms: number, days = 0): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days).getTime();
}

describe('the history', () => {
  test('reads nothing until shown; then the first rows, then the totals, then the menus', async () => {
    const { bridge, history } = setup();
    await settle();
    expect(bridge.calls).toHaveLength(0);
    history.show();
    await idle();
    // Main answers one call at a time: what the user waits for goes first.
    expect(bridge.calls.map((c) => c.channel)).toEqual([
      'history:list',
      'history:summary',
      'history:choices',
    ]);
    expect(bridge.inputs('history:list')).toEqual([
      { filter: {}, sort: 'time', limit: 200, offset: 0 },
    ]);
    expect(bridge.inputs('history:summary')).toEqual([{ filter: {}, timeZone: 'Europe/London' }]);
    expect(history.rows.total).toBe(1000);
    expect(history.rows.rowAt(0)?.id).toBe(1000);
    expect(history.summary?.totals).toEqual(historyTotals());
    expect(history.choices?.leagues).toEqual(['EPL', 'LaLiga']);
  });

  test('each filter asks main for rows and totals again, with the filter', async () => {
    const { bridge, history } = setup();
    history.show();
    await settle();
    history.type = 'KNOCKED_OUT';
    history.league = 'EPL';
    history.team = 'ARS';
    history.contractId = 'EPL-ARSCHE';
    history.range.preset = 'today';
    await settle();
    const filter = {
      type: 'KNOCKED_OUT',
      from: localMidnight(NOW),
      to: localMidnight(NOW, 1),
      league: 'EPL',
      team: 'ARS',
      contractId: 'EPL-ARSCHE',
    };
    expect(bridge.inputs('history:list').at(-1)).toEqual({
      filter,
      sort: 'time',
      limit: 200,
      offset: 0,
    });
    expect(bridge.inputs('history:summary').at(-1)).toEqual({
      filter,
      timeZone: 'Europe/London',
    });
    expect(history.hasFilter).toBe(true);
  });

  test('the sort reads the rows again, not the totals', async () => {
    const { bridge, history } = setup();
    history.show();
    await settle();
    history.sort = 'pnl';
    await settle();
    expect(bridge.inputs('history:list').at(-1)?.sort).toBe('pnl');
    expect(bridge.inputs('history:summary')).toHaveLength(1);
    expect(history.rows.rowAt(0)?.id).toBe(1);
  });

  test('only the latest filter’s answers apply, whatever order they arrive in', async () => {
    const bridge = new FakeBridge();
    const lists = bridge.hold('history:list');
    const summaries = bridge.hold('history:summary');
    bridge.answer('history:choices', CHOICES);
    const history = new HistoryState(bridge, { now: () => NOW, timeZone: 'UTC' });
    history.show();
    await idle();
    history.type = 'SETTLEMENT';
    await idle();
    lists[1]?.resolve(page(5, 55));
    await idle();
    history.league = 'EPL';
    await idle();
    lists[2]?.resolve(page(2, 22));
    await idle();
    expect(summaries).toHaveLength(2); // none for a filter already replaced
    expect(bridge.inputs('history:summary').map((q) => q.filter)).toEqual([
      { type: 'SETTLEMENT' },
      { type: 'SETTLEMENT', league: 'EPL' },
    ]);

    summaries[1]?.resolve(historySummary({ totals: historyTotals({ count: 2 }) }));
    await idle();
    summaries[0]?.resolve(historySummary({ totals: historyTotals({ count: 5 }) }));
    lists[0]?.resolve(page(1000, 1000));
    await idle();
    expect(history.rows.total).toBe(2);
    expect(history.rows.rowAt(0)?.id).toBe(22);
    expect(history.summary?.totals.count).toBe(2);
    expect(history.summaryReads.loading).toBe(false);
  });

  test('custom dates: both days included; dates that are not a range ask main nothing', async () => {
    const { bridge, history } = setup();
    history.show();
    await settle();
    await chooseBackwardsRange(history.range);
    expect(history.range.problem).toBe('The start date is after the end date.');
    expect(history.filter).toBeNull();
    const asked = bridge.inputs('history:list').length;
    history.range.to = '2026-03-31';
    await settle();
    expect(history.range.problem).toBeNull();
    expect(bridge.inputs('history:list')).toHaveLength(asked + 1);
    expect(bridge.inputs('history:list').at(-1)?.filter).toEqual({
      from: new Date(2026, 2, 10).getTime(),
      to: new Date(2026, 3, 1).getTime(),
    });
  });

  test('while the dates are not a range, or a new filter is read, what is held is stale', async () => {
    const bridge = new FakeBridge();
    const lists = bridge.hold('history:list');
    bridge.answer('history:summary', historySummary());
    bridge.answer('history:choices', CHOICES);
    const history = new HistoryState(bridge, { now: () => NOW, timeZone: 'UTC' });
    history.show();
    await settle();
    lists[0]!.resolve(page(1, 1));
    await idle();
    expect(history.stale).toBe(false);

    await chooseBackwardsRange(history.range);
    expect(history.filter).toBeNull();
    expect(history.stale).toBe(true); // the rows held are of all time, not of these dates

    history.range.from = '1900-01-01';
    await settle();
    expect(history.stale).toBe(true); // 1900 to March 2026: its rows are on their way
    expect(bridge.inputs('history:list').at(-1)?.filter).toEqual({
      from: new Date(1900, 0, 1).getTime(),
      to: new Date(2026, 2, 2).getTime(),
    });
    lists.at(-1)!.resolve(page(1, 1));
    await idle();
    expect(history.stale).toBe(false);
  });

  test('a fixture of another league or team leaves the filter when the league changes', async () => {
    const { history } = setup();
    history.show();
    await idle();
    expect(history.fixtureChoices.map((f) => f.contractId)).toEqual(['LL-RMABAR', 'EPL-ARSCHE']);
    history.contractId = 'EPL-ARSCHE';
    history.league = 'laliga';
    expect(history.contractId).toBe('');
    expect(history.fixtureChoices.map((f) => f.contractId)).toEqual(['LL-RMABAR']);
    history.clearFilters();
    history.contractId = 'EPL-ARSCHE';
    history.team = 'CHE';
    expect(history.contractId).toBe('EPL-ARSCHE');
  });

  test('a year of fixtures: the menu lists the latest 300, narrowed by league, team and period', async () => {
    const bridge = new FakeBridge();
    const fixtures = Array.from({ length: 15_000 }, (_, i) => ({
      contractId: `F-${i}`,
      name: i % 2 ? 'ARS v CHE' : 'RMA v BAR',
      league: i % 2 ? 'EPL' : 'LaLiga',
      startsAt: NOW - i * 3_600_000,
    }));
    bridge.answer('history:list', settlementStore(10));
    bridge.answer('history:summary', historySummary());
    bridge.answer('history:choices', { ...CHOICES, fixtures });
    const history = new HistoryState(bridge, { now: () => NOW, timeZone: 'UTC' });
    history.show();
    await idle();
    expect(history.fixtureChoices).toHaveLength(300);
    expect(history.fixtureChoices[0]?.contractId).toBe('F-0');
    expect(history.fixturesNotListed).toBe(14_700);
    history.contractId = 'F-9001';
    expect(history.fixtureChoices.at(-1)?.contractId).toBe('F-9001'); // the chosen one stays
    history.range.preset = 'today';
    // Today and a day either side of it: at most 24 + 24 + the hours since midnight.
    expect(history.fixtureChoices.length).toBeLessThan(80);
    expect(history.fixturesNotListed).toBe(0);
    history.range.preset = 'all';
    history.league = 'EPL';
    expect(history.contractId).toBe('F-9001');
    expect(history.fixturesNotListed).toBe(7_200);
  });

  test('history:changed re-reads the rows on screen and the totals, one re-read at a time', async () => {
    const bridge = new FakeBridge();
    bridge.answer('history:list', settlementStore(1000));
    const summaries = bridge.hold('history:summary');
    bridge.answer('history:choices', CHOICES);
    const history = new HistoryState(bridge, { now: () => NOW, timeZone: 'UTC' });
    history.start();
    history.show();
    await idle();
    summaries[0]?.resolve(historySummary());
    await idle();
    history.rows.show(400, 440);
    await idle();
    const listed = bridge.inputs('history:list').length;

    const changed = { accountId: null, added: 1, at: NOW };
    for (let i = 0; i < 5; i++) bridge.emit('history:changed', changed);
    await idle();
    expect(summaries).toHaveLength(2); // the burst waits for the first re-read
    const reread = bridge.inputs('history:list').slice(listed);
    expect(reread.map((q) => q.offset)).toContain(400);
    expect(reread.every((q) => q.offset !== 0)).toBe(true); // where the list stands, not the top

    summaries[1]?.resolve(historySummary());
    await idle();
    expect(summaries).toHaveLength(3); // then once more for the rest of the burst
    summaries[2]?.resolve(historySummary());
    await idle();
    expect(summaries).toHaveLength(3);
  });

  test('while hidden, a change is only noted; showing the screen again re-reads it', async () => {
    const { bridge, history } = setup();
    history.show();
    await settle();
    history.hide();
    bridge.emit('history:changed', { accountId: null, added: 3, at: NOW });
    await settle();
    expect(bridge.inputs('history:summary')).toHaveLength(1);
    history.show();
    await settle();
    expect(bridge.inputs('history:summary')).toHaveLength(2);
    history.hide();
    history.show();
    await settle();
    expect(bridge.inputs('history:summary')).toHaveLength(2);
  });

  test('a million settlements: the first rows cost one read of 200, a deep scroll one more', async () => {
    const { bridge, history } = setup(1_000_000);
    history.show();
    await settle();
    expect(bridge.inputs('history:list')).toHaveLength(1);
    expect(history.rows.total).toBe(1_000_000);
    history.rows.show(765_430, 765_470);
    await settle();
    const offsets = bridge.inputs('history:list').map((q) => q.offset);
    expect(offsets).toContain(765_400);
    expect(offsets.length).toBeLessThanOrEqual(3);
    expect(history.rows.rowAt(765_430)?.id).toBe(1_000_000 - 765_430);
  });

  test('arrow keys move within the list; Enter opens the row with its orders', async () => {
    const bridge = new FakeBridge();
    bridge.answer('history:list', settlementStore(3));
    bridge.answer('history:summary', historySummary());
    bridge.answer('history:choices', CHOICES);
    const detail = deferred<SettlementDetail>();
    bridge.answer('history:detail', () => detail.promise);
    const history = new HistoryState(bridge, { now: () => NOW, timeZone: 'UTC' });
    history.show();
    await settle();
    history.move(-1);
    expect(history.active).toBe(0);
    history.move(5);
    expect(history.active).toBe(2);
    history.openActive();
    expect(history.opened?.row?.id).toBe(1);
    expect(history.opened?.loading).toBe(true);
    const orders = [orderRow({ clientOrderId: 'bd-buy' }), orderRow({ clientOrderId: 'bd-sell' })];
    detail.resolve({ row: settlementRow({ id: 1 }), working: null, orders });
    await settle();
    expect(bridge.inputs('history:detail')).toEqual([{ id: 1 }]);
    expect(history.opened?.orders?.map((o) => o.clientOrderId)).toEqual(['bd-buy', 'bd-sell']);
    history.closeDetail();
    expect(history.opened).toBeNull();
  });

  test('a detail that answers after it was closed stays closed', async () => {
    const bridge = new FakeBridge();
    const detail = deferred<SettlementDetail>();
    bridge.answer('history:detail', () => detail.promise);
    const history = new HistoryState(bridge, { now: () => NOW, timeZone: 'UTC' });
    const opening = history.openRow(settlementRow({ id: 7 }));
    history.closeDetail();
    detail.resolve({ row: settlementRow({ id: 7 }), working: null, orders: [] });
    await opening;
    expect(history.opened).toBeNull();
  });

  test('a settlement opened by its id shows as loading, then with its row and arithmetic', async () => {
    const bridge = new FakeBridge();
    const detail = deferred<SettlementDetail>();
    bridge.answer('history:detail', () => detail.promise);
    const history = new HistoryState(bridge, { now: () => NOW, timeZone: 'UTC' });
    const opening = history.openSettlement(42);
    expect(history.opened).toMatchObject({ id: 42, row: null, loading: true, error: null });
    const row = settlementRow({ id: 42, type: 'SETTLEMENT', pnlSource: 'orders' });
    detail.resolve({ row, working: WORKING, orders: [orderRow()] });
    await opening;
    expect(history.opened).toMatchObject({ id: 42, row, working: WORKING, loading: false });
    expect(bridge.inputs('history:detail')).toEqual([{ id: 42 }]);
  });

  test('a settlement id the account does not hold says so', async () => {
    const bridge = new FakeBridge();
    bridge.answer('history:detail', { row: null, working: null, orders: [] });
    const history = new HistoryState(bridge, { now: () => NOW, timeZone: 'UTC' });
    await history.openSettlement(9);
    expect(history.opened).toMatchObject({
      id: 9,
      row: null,
      loading: false,
      error: 'This settlement is not in the active account’s history.',
    });
  });

  test('while main works out past P&L, the screen re-reads every 2 s; once done, the rows too', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const answers: HistorySummary['working'][] = [
        { done: 40_000, total: 120_000 },
        { done: 80_000, total: 120_000 },
        null,
      ];
      const bridge = new FakeBridge();
      bridge.answer('history:list', settlementStore(10));
      bridge.answer('history:summary', () => historySummary({ working: answers.shift() ?? null }));
      bridge.answer('history:choices', CHOICES);
      const history = new HistoryState(bridge, { now: () => NOW, timeZone: 'UTC' });
      const stop = history.start();
      history.show();
      await idle();
      expect(history.working).toEqual({ done: 40_000, total: 120_000 });
      vi.advanceTimersByTime(1_999);
      await idle();
      expect(bridge.inputs('history:summary')).toHaveLength(1);
      vi.advanceTimersByTime(1);
      await idle();
      expect(bridge.inputs('history:summary')).toHaveLength(2);
      expect(history.working).toEqual({ done: 80_000, total: 120_000 });
      const listed = bridge.inputs('history:list').length;
      vi.advanceTimersByTime(2_000);
      await idle();
      expect(history.working).toBeNull();
      // Done: the rows on screen are read once more, for the figures now known.
      expect(bridge.inputs('history:list').length).toBeGreaterThan(listed + 1);
      const reads = bridge.inputs('history:summary').length;
      vi.advanceTimersByTime(20_000);
      await idle();
      expect(bridge.inputs('history:summary')).toHaveLength(reads);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  test('a failed read says why, and Try again reads what failed', async () => {
    const { bridge, history } = setup();
    bridge.fail('history:summary', { kind: 'internal', message: 'The store could not be read.' });
    bridge.fail('history:list', { kind: 'internal', message: 'The store could not be read.' });
    history.show();
    await settle();
    expect(history.summaryReads.error).toBe('The store could not be read.');
    expect(history.rows.error).toBe('The store could not be read.');
    bridge.answer('history:list', settlementStore(10));
    bridge.answer('history:summary', historySummary());
    history.retry();
    await settle();
    expect(history.summaryReads.error).toBeNull();
    expect(history.rows.error).toBeNull();
    expect(history.rows.total).toBe(10);
  });

  test('another account: filters cleared and its history read from all time', async () => {
    const { bridge, history } = setup();
    history.show();
    await settle();
    history.type = 'CLOSED';
    history.range.preset = '30d';
    await settle();
    history.hide();
    history.reset();
    expect(history.rows.rowAt(0)).toBeNull(); // none of the last account's rows, not even briefly
    expect(history.rows.total).toBe(0);
    history.show();
    await settle();
    expect(history.hasFilter).toBe(false);
    expect(bridge.inputs('history:list').at(-1)).toEqual({
      filter: {},
      sort: 'time',
      limit: 200,
      offset: 0,
    });
    expect(bridge.inputs('history:choices').length).toBeGreaterThanOrEqual(2);
  });
});

describe('exporting what the screen shows', () => {
  test('the export is of the filter on screen, said in words', async () => {
    const { history } = setup(1204);
    history.show();
    await idle();
    history.range.preset = '30d';
    history.type = 'CLOSED';
    history.league = 'EPL';
    history.team = 'ARS';
    history.contractId = 'EPL-ARSCHE';
    await idle();
    const target = history.exportTarget;
    expect(history.rows.total).toBeGreaterThan(1);
    expect(target?.kind).toBe('settlements');
    expect(target?.filter).toEqual(history.filter);
    expect(target?.about).toBe(
      `The ${history.rows.total.toLocaleString()} settlements these filters show: Last 30 days · Closed · EPL · bets on ARS · ARS v CHE.`,
    );
  });

  test('nothing to export while the custom dates are not a range', async () => {
    const { history } = setup();
    history.show();
    await idle();
    history.range.preset = 'custom';
    history.range.from = '2030-02-01';
    history.range.to = '2030-01-01';
    expect(history.exportTarget).toBeNull();
  });
});
