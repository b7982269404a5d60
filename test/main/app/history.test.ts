/**
 * History with its real parts: paper mode (the sandbox in process, over HTTP), the store in a
 * temp dir, the sync engine. Bets made at the desk end as a knockout, a close and a settled
 * game, and History shows them from the store with totals that add up.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import { dispatch } from '../../../src/main/ipc/handlers.js';
import type {
  Fixture,
  HistoryFilter,
  HistorySyncProgress,
  SettlementRow,
} from '../../../src/shared/ipc/contract.js';
import { add, cmp, dec } from '../../../src/shared/money.js';
import { AppHarness, type Seen } from './support.js';

const app = new AppHarness('history');
const start = () => app.start();

/** Waits until `read` answers something `ok` takes (expect.poll works only inside a test). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function openFixtures(services: AppServices): Promise<Fixture[]> {
  const all = { openOnly: true, limit: 100, offset: 0 };
  await until(
    () => services.call('fixtures:list', all),
    (p) => p.total > 3,
    'open fixtures',
  );
  // One fixture per home team, so a team filter tells the bets apart.
  const teams = new Set<string>();
  return (await services.call('fixtures:list', all)).fixtures.filter(
    (f) => !teams.has(f.homeTeam) && teams.add(f.homeTeam),
  );
}

let bets = 0;
const newClientOrderId = () => `bd-hist-${Date.now().toString(36)}-${++bets}`;

/** A MARKET order, waited for until the exchange filled it. */
async function market(
  services: AppServices,
  f: Fixture,
  side: 'BUY' | 'SELL',
  qty: string,
  boost = 0,
): Promise<void> {
  const id = newClientOrderId();
  await services.call('order:place', {
    clientOrderId: id,
    type: 'MARKET',
    bet: { contractId: f.contractId, outcome: f.homeTeam, side, qty, unit: 'BASE', boost },
  });
  await until(
    () => services.call('orders:get', { clientOrderId: id }).then((r) => r.row),
    (r) => r?.status === 'FILLED',
    `${id} filled`,
  );
}

const ALL = { filter: {}, sort: 'time' as const, limit: 100, offset: 0 };
const list = (s: AppServices, filter: HistoryFilter = {}, sort: 'time' | 'pnl' = 'time') =>
  s.call('history:list', { ...ALL, filter, sort });

/** A knockout, a close and a settled game on three fixtures; resolves with the rows. */
async function makeHistory(services: AppServices): Promise<{
  rows: SettlementRow[];
  fixtures: Fixture[];
}> {
  const [ko, closed, settled] = await openFixtures(services);
  await market(services, ko!, 'BUY', '4', 60);
  await market(services, closed!, 'BUY', '3');
  await market(services, settled!, 'BUY', '2');

  const position = async (f: Fixture) =>
    (await services.call('positions:list', {})).positions.find(
      (p) => p.contractId === f.contractId,
    );
  const boosted = await until(
    () => position(ko!),
    (p) => !!p?.knockout,
    'the boosted position',
  );
  const knockout = boosted!.knockout!;
  await services.call('practice:price', {
    contractId: ko!.contractId,
    outcome: ko!.homeTeam,
    indexPrice: dec(knockout).minus('0.01').toFixed(4),
  });
  await market(services, closed!, 'SELL', '3');
  await services.call('practice:resolve', {
    contractId: settled!.contractId,
    winner: settled!.homeTeam,
  });

  const page = await until(
    () => list(services),
    (p) => p.total === 3,
    'three settlements',
  );
  return { rows: page.rows, fixtures: [ko!, closed!, settled!] };
}

describe('a history made at the desk', () => {
  // One history for every test here: making it takes bets, a knockout, a close and a resolution.
  let services: AppServices;
  let seen: Seen[];
  let rows: SettlementRow[];
  let fixtures: Fixture[];
  beforeAll(async () => {
    ({ services, seen } = await start());
    ({ rows, fixtures } = await makeHistory(services));
  }, 120_000);
  afterAll(app.cleanup);

  it('shows a knockout, a close and a settled game from the store, with totals that add up', async () => {
    const [ko, closed, settled] = fixtures;

    const byType = Object.fromEntries(rows.map((r) => [r.type, r]));
    expect(byType['KNOCKED_OUT']).toMatchObject({ contractId: ko!.contractId, payout: null });
    expect(byType['CLOSED']).toMatchObject({ contractId: closed!.contractId, payout: null });
    expect(byType['SETTLEMENT']).toMatchObject({ contractId: settled!.contractId, pnl: null });
    expect(byType['SETTLEMENT']!.payout).toMatch(/^\d+(\.\d+)?$/);
    expect(cmp(byType['KNOCKED_OUT']!.pnl!, 0)).toBe(-1);
    expect(byType['CLOSED']!.fixture).toMatchObject({ homeTeam: closed!.homeTeam });
    // Newest first.
    const times = rows.map((r) => r.settledAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const summary = await services.call('history:summary', {
      filter: {},
      timeZone: 'Europe/London',
    });
    // Realized P&L of every row (docs/pnl.md): the held game's is its payout less the
    // exchange's costBasis when a positions read saw it after its buy, else its order's cost.
    expect(byType['SETTLEMENT']).toMatchObject({ pnlNote: null });
    expect(['exchange', 'orders']).toContain(byType['SETTLEMENT']!.pnlSource);
    expect(byType['CLOSED']).toMatchObject({ pnlSource: 'exchange' });
    const pnls = rows.map((r) => r.realizedPnl!);
    expect(summary.totals.count).toBe(3);
    expect(summary.totals.unknown).toBe(0);
    expect(cmp(summary.totals.pnl, add(...pnls))).toBe(0);
    expect(cmp(summary.totals.payouts, byType['SETTLEMENT']!.payout!)).toBe(0);
    expect(summary.totals.knockouts).toBe(1);
    expect(summary.bucket).toBe('day');
    const last = summary.series.at(-1)!;
    expect(cmp(last.cumulativePnl, summary.totals.pnl)).toBe(0);
    expect(cmp(last.cumulativePayouts, summary.totals.payouts)).toBe(0);
    const typeCounts = Object.fromEntries(summary.byType.map((t) => [t.type, t.totals.count]));
    expect(typeCounts).toEqual({ CLOSED: 1, KNOCKED_OUT: 1, SETTLEMENT: 1 });
  });

  it('narrows rows and totals by type, fixture, team and date, and sorts by P&L', async () => {
    const [ko, closed] = fixtures;

    const kos = await list(services, { type: 'KNOCKED_OUT' });
    expect(kos.rows.map((r) => r.contractId)).toEqual([ko!.contractId]);
    const koSummary = await services.call('history:summary', {
      filter: { type: 'KNOCKED_OUT' },
      timeZone: 'UTC',
    });
    expect(koSummary.totals).toMatchObject({ count: 1, knockouts: 1, wins: 0, payouts: '0' });

    expect((await list(services, { contractId: closed!.contractId })).total).toBe(1);
    expect((await list(services, { team: closed!.homeTeam })).rows[0]?.type).toBe('CLOSED');
    const future = Date.now() + 86_400_000;
    expect((await list(services, { from: future })).total).toBe(0);
    const none = await services.call('history:summary', {
      filter: { from: future },
      timeZone: 'UTC',
    });
    expect(none.totals.count).toBe(0);

    // By realized P&L, every row's known here (a held game's from its orders).
    const byPnl = (await list(services, {}, 'pnl')).rows;
    const realized = byPnl.map((r) => r.realizedPnl!);
    expect(realized).toEqual([...realized].sort((a, b) => cmp(b, a)));
    expect(rows).toHaveLength(3);
  });

  it('takes dates before 1970 through the bridge: from year 1 all, up to 1950 nothing', async () => {
    const { handlers } = services;
    const yearOne = new Date(2000, 0, 1);
    yearOne.setFullYear(1, 0, 1); // local midnight, as the date filter sends it
    const since = { from: yearOne.getTime() };
    const before1951 = { from: yearOne.getTime(), to: new Date(1951, 0, 1).getTime() };

    const all = await dispatch(handlers, 'history:list', { ...ALL, filter: since });
    expect(all).toMatchObject({ ok: true, value: { total: 3 } });
    const summary = await dispatch(handlers, 'history:summary', {
      filter: since,
      timeZone: 'Europe/London',
    });
    expect(summary).toMatchObject({ ok: true, value: { totals: { count: 3 } } });
    // The chart starts with the data, not month by month from year 1.
    if (summary.ok) expect(summary.value.series.length).toBeLessThan(10);
    const none = await dispatch(handlers, 'history:list', { ...ALL, filter: before1951 });
    expect(none).toMatchObject({ ok: true, value: { total: 0 } });
    const noTotals = await dispatch(handlers, 'history:summary', {
      filter: before1951,
      timeZone: 'UTC',
    });
    expect(noTotals).toMatchObject({ ok: true, value: { totals: { count: 0 }, series: [] } });

    const orders = await dispatch(handlers, 'orders:list', { ...since, limit: 100, offset: 0 });
    const allOrders = await services.call('orders:list', { limit: 100, offset: 0 });
    expect(orders).toMatchObject({ ok: true, value: { total: allOrders.total } });
    expect(await dispatch(handlers, 'orders:totals', before1951)).toMatchObject({
      ok: true,
      value: { count: 0 },
    });
  });

  it('opens a settlement with its fixture and the orders that built and closed it', async () => {
    const closedRow = rows.find((r) => r.type === 'CLOSED')!;
    const detail = await services.call('history:detail', { id: closedRow.id });
    expect(detail.row).toEqual(closedRow);
    expect(detail.orders.map((o) => [o.side, o.status])).toEqual([
      ['BUY', 'FILLED'],
      ['SELL', 'FILLED'],
    ]);
    expect((await services.call('history:detail', { id: 999_999 })).row).toBeNull();

    const choices = await services.call('history:choices', {});
    expect(choices.fixtures.map((f) => f.contractId).sort()).toEqual(
      rows.map((r) => r.contractId).sort(),
    );
    expect(choices.teams.sort()).toEqual(rows.map((r) => r.outcome).sort());
    expect(choices.first).toBe(Math.min(...rows.map((r) => r.settledAt)));
  });

  it('totals the Orders screen’s orders exactly: staked by filled buys, proceeds of sells', async () => {
    const page = await services.call('orders:list', { limit: 100, offset: 0 });
    const filled = page.rows.filter((r) => r.status === 'FILLED');
    const staked = add(...filled.filter((r) => r.side === 'BUY').map((r) => r.cost!));
    const proceeds = add(...filled.filter((r) => r.side === 'SELL').map((r) => r.proceeds ?? '0'));
    const totals = await services.call('orders:totals', {});
    expect(totals.count).toBe(4);
    expect(totals.filled).toBe(filled.length);
    expect(cmp(totals.staked, staked)).toBe(0);
    expect(cmp(totals.proceeds, proceeds)).toBe(0);
    expect((await services.call('orders:totals', { side: 'SELL' })).count).toBe(1);
    expect((await services.call('orders:totals', { status: 'not_placed' })).count).toBe(0);
    expect((await services.call('orders:totals', { from: Date.now() + 60_000 })).count).toBe(0);
  });

  it('resyncs the history from the exchange without a double, and reports its progress', async () => {
    await expect
      .poll(async () => (await services.call('history:status', {})).progress?.state)
      .not.toBe('running');
    const started = await services.call('history:resync', {});
    expect(started.progress?.reason).toBe('resync');
    await expect
      .poll(async () => (await services.call('history:status', {})).progress?.state, {
        timeout: 60_000,
      })
      .toBe('done');
    const progress = seen
      .filter((s) => s.event === 'history:progress')
      .map((s) => s.payload as HistorySyncProgress)
      .filter((p) => p.reason === 'resync');
    expect(progress.at(-1)).toMatchObject({ state: 'done', accountId: null });
    expect(progress.at(-1)!.pages).toBe(progress.at(-1)!.estimatedPages);
    expect((await list(services)).rows).toEqual(rows);
  });
});

describe('the history bridge', () => {
  afterEach(app.cleanup);

  it('refuses an unknown time zone in words, through the bridge', async () => {
    const { services } = await start();
    const answer = await dispatch(services.handlers, 'history:summary', {
      filter: {},
      timeZone: 'Mars/Olympus',
    });
    expect(answer).toEqual({
      ok: false,
      error: {
        kind: 'invalid-input',
        message: '"Mars/Olympus" is not a time zone this system knows.',
      },
    });
  });
});
