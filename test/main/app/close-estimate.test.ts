/**
 * Issue 28 item 8 over HTTP in paper mode: the lots a PositionRow carries give the close slip an
 * estimate the exchange then pays and books. ARS: index 0.6000, buy 3 (at 0.6101, $1.85); index
 * 0.7000, buy 3 (at 0.7101, $2.16); index 0.7500, sell 3 (at 0.7399), then the rest. Each sale's
 * estimated proceeds are the order's, and the estimates' P&L add up to the CLOSED row's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import type { Fixture, OrderRow, PositionRow } from '../../../src/shared/ipc/contract.js';
import { add } from '../../../src/shared/money.js';
import { estimateClose } from '../../../src/shared/rules/close.js';
import { until } from '../../harness/wait.js';
import { AppHarness } from './support.js';

const app = new AppHarness('close-estimate');

async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  await until(what, async () => ok((last = await read())), 60_000, 100);
  return last as T;
}

describe('the close slip’s estimate, from the lots a position row carries', () => {
  let services: AppServices;
  let fixtures: Fixture[];
  let f: Fixture;
  let bets = 0;

  beforeAll(async () => {
    ({ services } = await app.start());
    const all = { openOnly: true, limit: 100, offset: 0 };
    const list = await waitFor(
      () => services.call('fixtures:list', all),
      (p) => p.total > 1,
      'fixtures',
    );
    fixtures = list.fixtures;
  }, 120_000);
  afterAll(app.cleanup);

  const price = (indexPrice: string) =>
    services.call('practice:price', { contractId: f.contractId, outcome: f.homeTeam, indexPrice });

  /** A MARKET order of `contracts` on the home team, filled and synced. */
  async function market(side: 'BUY' | 'SELL', contracts: number, boost = 0): Promise<OrderRow> {
    const id = `bd-close-${Date.now().toString(36)}-${++bets}`;
    await services.call('order:place', {
      clientOrderId: id,
      type: 'MARKET',
      bet: {
        contractId: f.contractId,
        outcome: f.homeTeam,
        side,
        qty: String(contracts),
        unit: 'BASE',
        boost,
      },
    });
    return waitFor(
      () => services.call('orders:get', { clientOrderId: id }).then((r) => r.row!),
      (r) => r?.status === 'FILLED',
      `${id} filled`,
    );
  }

  /** The position row once it holds `contracts` and its lots are rebuilt from the orders. */
  async function held(contracts: number): Promise<PositionRow> {
    const view = await waitFor(
      () => services.call('positions:list', {}),
      (v) =>
        v.positions.some(
          (p) => p.contractId === f.contractId && p.contracts === contracts && p.lots !== null,
        ),
      `${contracts} held on ${f.contractId} with their lots`,
    );
    return view.positions.find((p) => p.contractId === f.contractId)!;
  }

  /** What the slip would say for a close of `contracts`: the SELL quote's price, the row's lots. */
  async function estimate(row: PositionRow, contracts: number) {
    const { quote } = await services.call('quote:request', {
      contractId: f.contractId,
      outcome: f.homeTeam,
      side: 'SELL',
      qty: String(contracts),
      unit: 'BASE',
      boost: 0,
    });
    return { sellPrice: quote.entryPrice, ...estimateClose(row, contracts, quote.entryPrice)! };
  }

  it('ARS: +$0.34 for the first 3 and +$0.03 for the rest, the CLOSED row’s +$0.37', async () => {
    f = fixtures[0]!;
    await price('0.6000');
    expect((await market('BUY', 3)).cost).toBe('1.85');
    await price('0.7000');
    expect((await market('BUY', 3)).cost).toBe('2.16');
    await price('0.7500');
    const before = await held(6);
    expect(before.lots).toEqual([
      { contracts: 3, cost: '1.85', loanPerContract: '0', knockout: null },
      { contracts: 3, cost: '2.16', loanPerContract: '0', knockout: null },
    ]);

    const first = await estimate(before, 3);
    expect(first).toMatchObject({ sellPrice: '0.7399', proceeds: '2.19', pnl: '0.34' });
    expect((await market('SELL', 3)).proceeds).toBe(first.proceeds);

    await waitFor(
      () => held(3),
      (row) => row.costBasis === '2.16',
      'the position after the first sale',
    );
    const rest = await estimate(await held(3), 3);
    expect(rest).toMatchObject({ proceeds: '2.19', pnl: '0.03' });
    expect((await market('SELL', 3)).proceeds).toBe(rest.proceeds);

    const closed = await waitFor(
      () =>
        services.call('history:list', {
          filter: { type: 'CLOSED', contractId: f.contractId, team: f.homeTeam },
          sort: 'time',
          limit: 1,
          offset: 0,
        }),
      (page) => page.rows.length === 1,
      `the CLOSED row on ${f.contractId}`,
    );
    expect(closed.rows[0]).toMatchObject({ contracts: 6, pnl: '0.37' });
    expect(add(first.pnl, rest.pnl)).toBe('0.37');
  }, 120_000);

  it('a boosted lot pays the sell price less its loan, to the cent the exchange pays', async () => {
    // F2's lots: boosted 10 at 0.6107 (boost 50: lent 0.274815, knockout 0.2749), plain 10 at
    // 0.6508; 15 sold at index 0.5481 take the boosted lot and 5 of the plain one.
    f = fixtures[1]!;
    await price('0.6006');
    expect(await market('BUY', 10, 50)).toMatchObject({ cost: '3.42', knockout: '0.2749' });
    await price('0.6403');
    expect((await market('BUY', 10)).cost).toBe('6.57');
    await price('0.5481');
    const row = await held(20);
    expect(row.lots!.map((l) => l.loanPerContract)).toEqual(['0.274815', '0']);
    const sale = await estimate(row, 15);
    const sold = await market('SELL', 15);
    expect(sold.proceeds).toBe(sale.proceeds);
    // The cost carried: the boosted lot's 3.42 and half the plain one's 6.57, 6.705 (to the even
    // cent, 6.70); what is left is the other half, as GET /positions says.
    expect(sale.cost).toBe('6.70');
    await waitFor(
      () => held(5),
      (left) => left.costBasis === '3.28',
      'the plain half left, $3.285 to the even cent',
    );
  }, 120_000);
});
