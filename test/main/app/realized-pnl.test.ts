/**
 * Realized P&L with its real parts (docs/pnl.md): paper mode over HTTP, the store in a temp dir,
 * the sync engine. A winner held to the end after two buys and a partial sell gets payout −
 * basis, the basis equal to the sandbox's last costBasis; a settlement whose orders the store
 * lacks is unknown with its reason until a resync brings them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import type { Fixture, SettlementRow } from '../../../src/shared/ipc/contract.js';
import { add, cmp, dec, sub } from '../../../src/shared/money.js';
import { EXCHANGE_METHOD } from '../../../src/main/pnl/work-out.js';
import { AppHarness, PaperDesk, waitFor } from './support.js';

const app = new AppHarness('realized');

const rowsOf = async (s: AppServices) =>
  (await s.call('history:list', { filter: {}, sort: 'time', limit: 100, offset: 0 })).rows;
const settlementOn = (rows: SettlementRow[], f: Fixture) =>
  rows.find((r) => r.contractId === f.contractId && r.type === 'SETTLEMENT');

describe('realized P&L of bets held to the end', () => {
  let services: AppServices;
  let desk: PaperDesk;
  let fixtures: Fixture[];
  beforeAll(async () => {
    ({ services } = await app.start());
    desk = await new PaperDesk(services).open();
    fixtures = desk.fixtures;
  }, 120_000);
  const market = (_: AppServices, f: Fixture, side: 'BUY' | 'SELL', qty: string) =>
    desk.market(f, side, qty);
  afterAll(app.cleanup);

  it('is payout − basis after two buys and a partial sell, the basis the exchange’s own', async () => {
    const f = fixtures[0]!;
    const buys = [await market(services, f, 'BUY', '6')];
    await services.call('practice:price', {
      contractId: f.contractId,
      outcome: f.homeTeam,
      indexPrice: dec(f.homePrice).plus('0.05').toFixed(4),
    });
    buys.push(await market(services, f, 'BUY', '4'));
    const sold = await market(services, f, 'SELL', '4');
    const held = await waitFor(
      () => services.call('positions:list', {}),
      (v) => v.positions.some((p) => p.contractId === f.contractId && p.contracts === 6),
      'the 6 contracts held',
    );
    const position = held.positions.find((p) => p.contractId === f.contractId)!;
    await services.call('practice:resolve', { contractId: f.contractId, winner: f.homeTeam });

    const rows = await waitFor(
      () => rowsOf(services),
      (r) => settlementOn(r, f)?.pnlSource === 'exchange',
      'the SETTLEMENT worked out',
    );
    const settled = settlementOn(rows, f)!;
    const closed = rows.find((r) => r.contractId === f.contractId && r.type === 'CLOSED')!;
    expect(settled.costBasis).toBe(position.costBasis);
    expect(settled.realizedPnl).toBe(dec(sub(settled.payout!, position.costBasis)).toFixed(2));
    expect(settled.pnlNote).toBeNull();
    expect(closed).toMatchObject({ pnlSource: 'exchange', realizedPnl: closed.pnl });
    // The two rows add up to the whole bet, within the cent each row is rounded to.
    const whole = sub(add(settled.payout!, sold.proceeds ?? '0'), add(...buys.map((b) => b.cost!)));
    const rowsSum = add(closed.realizedPnl!, settled.realizedPnl!);
    expect(dec(sub(whole, rowsSum)).abs().lte('0.01')).toBe(true);

    const detail = await services.call('history:detail', { id: settled.id });
    expect(detail.working).toMatchObject({
      basisSource: 'exchange',
      ordersCostBasis: position.costBasis,
      boughtContracts: 10,
      soldContracts: 4,
      settledContracts: 6,
      costBasis: position.costBasis,
      payout: settled.payout,
      realizedPnl: settled.realizedPnl,
      exchangeCostBasis: position.costBasis,
      difference: '0.00',
    });
    expect(detail.working!.method).toBe(EXCHANGE_METHOD);

    const summary = await services.call('history:summary', { filter: {}, timeZone: 'UTC' });
    const known = rows.filter((r) => r.realizedPnl !== null).map((r) => r.realizedPnl!);
    expect(cmp(summary.totals.pnl, add(...known))).toBe(0);
    expect(summary.totals.unknown).toBe(rows.length - known.length);
  });

  it('is unknown with its reason while the orders are missing, and known after a resync', async () => {
    const f = fixtures[1]!;
    await market(services, f, 'BUY', '3');
    // As if the buy were older than the store's first sync.
    services.store.db.prepare('DELETE FROM orders WHERE contract_id = ?').run(f.contractId);
    await services.call('practice:resolve', { contractId: f.contractId, winner: f.homeTeam });
    const before = await waitFor(
      () => rowsOf(services),
      (r) => settlementOn(r, f) !== undefined,
      'the SETTLEMENT',
    );
    expect(settlementOn(before, f)).toMatchObject({
      pnlSource: 'unknown',
      realizedPnl: null,
      pnlNote: 'None of the orders that bought these 3 contracts are in the store.',
    });
    const summary = await services.call('history:summary', { filter: {}, timeZone: 'UTC' });
    expect(summary.totals.unknown).toBeGreaterThanOrEqual(1);

    await waitFor(
      () => services.call('history:status', {}),
      (s) => s.progress?.state !== 'running',
      'no sweep running',
    );
    await services.call('history:resync', {});
    const after = await waitFor(
      () => rowsOf(services),
      (r) => (settlementOn(r, f)?.pnlSource ?? 'unknown') !== 'unknown',
      'the SETTLEMENT known after the resync',
    );
    const row = settlementOn(after, f)!;
    expect(row.realizedPnl).toBe(dec(sub(row.payout!, row.costBasis!)).toFixed(2));
    expect(row.pnlNote).toBeNull();
  });
});
