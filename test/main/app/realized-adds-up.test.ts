/**
 * Every bet adds up (docs/pnl.md): issue 28's sequences F2 and F3, boosted buys with a knockout
 * between the trades, a partial sell and a win, made in paper mode over HTTP with the app syncing
 * after every step. For each, the realized P&L of the position's rows equals the cash that moved
 * (payout + sell proceeds − buy costs) to the cent, and the SETTLEMENT's basis is the exchange's
 * own costBasis, with the orders agreeing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import type { Fixture, OrderRow, SettlementRow } from '../../../src/shared/ipc/contract.js';
import { REALIZED_METHOD } from '../../../src/main/pnl/replay.js';
import { add, dec, sub } from '../../../src/shared/money.js';
import { AppHarness, PaperDesk, waitFor } from './support.js';

const app = new AppHarness('adds-up');

describe('a bet’s rows add up to the cash that moved', () => {
  let services: AppServices;
  let desk: PaperDesk;
  let fixtures: Fixture[];

  beforeAll(async () => {
    ({ services } = await app.start());
    desk = await new PaperDesk(services).open();
    fixtures = desk.fixtures;
  }, 120_000);
  afterAll(app.cleanup);

  const price = (f: Fixture, indexPrice: string) => desk.price(f, indexPrice);
  const market = (f: Fixture, side: 'BUY' | 'SELL', qty: string, boost = 0) =>
    desk.market(f, side, qty, boost);

  /** Waits until the synced positions hold `contracts` of the fixture's home team. */
  async function holding(f: Fixture, contracts: number) {
    const list = await waitFor(
      () => services.call('positions:list', {}),
      (v) => v.positions.some((p) => p.contractId === f.contractId && p.contracts === contracts),
      `${contracts} held on ${f.contractId}`,
    );
    return list.positions.find((p) => p.contractId === f.contractId)!;
  }

  /**
   * The fixture's rows once all three are stored and its SETTLEMENT is worked out (the sync can
   * store the SETTLEMENT before the rows of the same position; they work it out again).
   */
  async function settledRows(f: Fixture): Promise<SettlementRow[]> {
    await services.call('practice:resolve', { contractId: f.contractId, winner: f.homeTeam });
    const rows = await waitFor(
      () =>
        services
          .call('history:list', { filter: {}, sort: 'time', limit: 200, offset: 0 })
          .then((r) => r.rows.filter((row) => row.contractId === f.contractId)),
      (r) =>
        r.length === 3 && r.some((row) => row.type === 'SETTLEMENT' && row.pnlSource !== 'unknown'),
      `the SETTLEMENT on ${f.contractId} worked out`,
    );
    return rows;
  }

  /** The row's detail once the orders' arithmetic is in it. */
  const workingOf = async (row: SettlementRow) => {
    let last: unknown;
    try {
      return await waitFor(
        () => services.call('history:detail', { id: row.id }),
        (d) => (last = d).working?.ordersCostBasis != null,
        `the working of row ${row.id}`,
      );
    } catch (err) {
      // What the work-out saw: every stored row on the outcome, with when it settled.
      const rows = services.store.settlements
        .query(services.session()!.accountId, { contractId: row.contractId, limit: 50 })
        .settlements.map((s) => [s.id, s.type, s.contracts, s.timestamp, s.settledAt]);
      throw new Error(
        `${String(err)}; last read: ${JSON.stringify(last)}; rows: ${JSON.stringify(rows)}`,
        { cause: err },
      );
    }
  };

  /** payout + proceeds − costs of the orders. */
  function cash(rows: SettlementRow[], orders: OrderRow[]): string {
    const payouts = rows.filter((r) => r.payout !== null).map((r) => r.payout!);
    const proceeds = orders.filter((o) => o.side === 'SELL').map((o) => o.proceeds!);
    const costs = orders.filter((o) => o.side === 'BUY').map((o) => o.cost!);
    return sub(add('0', ...payouts, ...proceeds), add('0', ...costs));
  }

  const realizedSum = (rows: SettlementRow[]) =>
    add('0', ...rows.map((r) => r.realizedPnl ?? 'NaN'));

  it('F2: boosted 10, 10 more, the boosted knocked out, 4 sold, a win: basis $3.94, +$2.06', async () => {
    const f = fixtures[0]!;
    await price(f, '0.6006');
    const boosted = await market(f, 'BUY', '10', 50);
    expect(boosted).toMatchObject({ cost: '3.42', knockout: '0.2749' });
    await price(f, '0.6403');
    const plain = await market(f, 'BUY', '10');
    expect(plain.cost).toBe('6.57');
    await price(f, '0.2700'); // reaches 0.2749: the boosted 10 are knocked out
    await holding(f, 10);
    await price(f, '0.5481');
    const sold = await market(f, 'SELL', '4');
    expect(sold.proceeds).toBe('2.13');
    const held = await holding(f, 6);
    expect(held.costBasis).toBe('3.94');

    const rows = await settledRows(f);
    const byType = (t: SettlementRow['type']) => rows.find((r) => r.type === t)!;
    expect(byType('KNOCKED_OUT')).toMatchObject({ contracts: 10, realizedPnl: '-3.42' });
    expect(byType('CLOSED')).toMatchObject({ contracts: 4, realizedPnl: '-0.50' });
    const settlement = byType('SETTLEMENT');
    expect(settlement).toMatchObject({
      contracts: 6,
      payout: '6.00',
      costBasis: '3.94',
      realizedPnl: '2.06',
      pnlSource: 'exchange',
      pnlNote: null,
    });
    expect(realizedSum(rows)).toBe(cash(rows, [boosted, plain, sold])); // −1.86

    const detail = await workingOf(settlement);
    expect(detail.working).toMatchObject({
      basisSource: 'exchange',
      boughtContracts: 20,
      boughtCost: '9.99',
      soldContracts: 14,
      ordersCostBasis: '3.94',
      ordersUnknown: null,
      exchangeCostBasis: '3.94',
      difference: '0.00',
    });
  }, 120_000);

  it('F3: boost 80, plain, boost 20, the first knocked out, 10 sold, a win: basis $5.40, +$3.42', async () => {
    const f = fixtures[1]!;
    await price(f, '0.6000');
    const first = await market(f, 'BUY', '10', 80);
    expect(first).toMatchObject({ cost: '1.77', knockout: '0.4393' });
    await price(f, '0.6205');
    const plain = await market(f, 'BUY', '10');
    expect(plain.cost).toBe('6.37');
    await price(f, '0.6404');
    const third = await market(f, 'BUY', '10', 20);
    expect(third).toMatchObject({ cost: '5.40', knockout: '0.1171' });
    await price(f, '0.4300'); // knocks out the first lot only
    await holding(f, 20);
    await price(f, '0.5495');
    const sold = await market(f, 'SELL', '10');
    expect(sold.proceeds).toBe('5.34');
    expect((await holding(f, 10)).costBasis).toBe('5.40');

    const rows = await settledRows(f);
    const settlement = rows.find((r) => r.type === 'SETTLEMENT')!;
    expect(settlement).toMatchObject({
      payout: '8.82',
      costBasis: '5.40',
      realizedPnl: '3.42',
      pnlNote: null,
    });
    expect(rows.find((r) => r.type === 'CLOSED')!.realizedPnl).toBe('-1.03');
    expect(rows.find((r) => r.type === 'KNOCKED_OUT')!.realizedPnl).toBe('-1.77');
    expect(realizedSum(rows)).toBe(cash(rows, [first, plain, third, sold])); // +0.62
    const detail = await workingOf(settlement);
    expect(detail.working).toMatchObject({ ordersCostBasis: '5.40', difference: '0.00' });
  }, 120_000);

  it('works the basis out from the orders and the rows when the exchange’s costBasis was never read', async () => {
    // Boosted 5, plain 5, the boosted knocked out, 3 sold, a win; the position read only before
    // the knockout, so the basis must come from the orders and the exchange's rows.
    const f = fixtures[2]!;
    await price(f, '0.7000');
    const boosted = await market(f, 'BUY', '5', 50);
    const plain = await market(f, 'BUY', '5');
    await holding(f, 10);
    services.store.db
      .prepare('DELETE FROM position_cost_basis WHERE contract_id = ?')
      .run(f.contractId);
    // As if the app were closed from here to the result: nothing reads the positions again.
    services.store.db.exec(
      `CREATE TEMP TRIGGER no_cost_basis BEFORE INSERT ON position_cost_basis
       WHEN NEW.contract_id = '${f.contractId}' BEGIN SELECT RAISE(IGNORE); END`,
    );
    await price(f, '0.3000'); // below the boosted lot's knockout, 0.3196
    await price(f, '0.8000');
    const sold = await market(f, 'SELL', '3');
    const rows = await settledRows(f);
    services.store.db.exec('DROP TRIGGER temp.no_cost_basis');
    const settlement = rows.find((r) => r.type === 'SETTLEMENT')!;
    expect(settlement).toMatchObject({ contracts: 2, payout: '2.00', pnlSource: 'orders' });
    expect(realizedSum(rows)).toBe(cash(rows, [boosted, plain, sold]));
    // 2 of the plain lot's 5 are left: 2/5 of its cost, within the cent each row is rounded to.
    const twoFifths = dec(plain.cost!).times(2).dividedBy(5);
    expect(dec(settlement.costBasis!).minus(twoFifths).abs().lte('0.01')).toBe(true);
    const detail = await workingOf(settlement);
    expect(detail.working).toMatchObject({ basisSource: 'orders', exchangeCostBasis: null });
    expect(detail.working!.method).toBe(REALIZED_METHOD);
  }, 120_000);
});
