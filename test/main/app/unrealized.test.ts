/**
 * Unrealized P&L counts what was paid (docs/pnl.md, "Unrealized P&L"), with the real parts:
 * paper mode over HTTP, the store in a temp dir. Issue 28's boost-100 bet: 30 contracts at entry
 * 0.2000 for $0.66, knockout 0.1800, the index at 0.1822 (alive, its collateral gone). Positions,
 * the Portfolio and the equity point say −$0.66, the worst case, never the −$0.84 the exchange's
 * fee-free `pnl` said; closing at the estimated price moves it into realized P&L with no jump
 * beyond the sell's fee.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import type { Fixture } from '../../../src/shared/ipc/contract.js';
import { cmp, dec, sub } from '../../../src/shared/money.js';
import { AppHarness, PaperDesk, waitFor } from './support.js';

const app = new AppHarness('unrealized');

describe('unrealized P&L', () => {
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

  /** The position row once the synced positions show it at `closing`. */
  const rowAt = (f: Fixture, closing: string) =>
    waitFor(
      () => services.call('positions:list', {}),
      (v) =>
        v.positions.some(
          (p) => p.contractId === f.contractId && p.estimatedClosingPrice === closing,
        ),
      `${f.contractId} closing at ${closing}`,
    ).then((v) => v.positions.find((p) => p.contractId === f.contractId)!);

  it('is value − cost basis, never below the worst case, on Positions, Portfolio and equity', async () => {
    const f = fixtures[0]!;
    await price(f, '0.1898');
    const bet = await market(f, 'BUY', '30', 100);
    expect(bet).toMatchObject({ entryPrice: '0.2000', cost: '0.66', knockout: '0.1800' });
    await price(f, '0.1822');
    const row = await rowAt(f, '0.1720');
    expect(row).toMatchObject({ costBasis: '0.66', value: '0.00', pnl: '-0.66' });
    expect(row.exchangePnl).toBe('-0.60'); // value − collateral: the fee left out
    expect(cmp(row.pnl, `-${row.costBasis}`)).toBeGreaterThanOrEqual(0);

    const view = await services.call('portfolio:view', { scope: { kind: 'paper' } });
    expect(view.unrealized).toBe('-0.66');
    expect(cmp(view.equity, sub(view.realized, row.costBasis))).toBeGreaterThanOrEqual(0);
    expect(view.best.find((p) => p.contractId === f.contractId)?.pnl).toBe('-0.66');
    const points = services.store.equity.list(services.session()!.accountId);
    expect(points.at(-1)).toMatchObject({ unrealizedMicros: -660_000 });
  }, 120_000);

  it('moves into realized P&L on a close at the estimated price, jumping by the fee alone', async () => {
    const f = fixtures[1]!;
    await price(f, '0.4000');
    await market(f, 'BUY', '10');
    await market(f, 'BUY', '10', 40);
    await price(f, '0.4600');
    const row = await rowAt(f, '0.4499');
    const before = row.pnl;
    const sold = await market(f, 'SELL', '20');
    expect(sold.entryPrice).toBe(row.estimatedClosingPrice);
    const closed = await waitFor(
      () =>
        services
          .call('history:list', { filter: {}, sort: 'time', limit: 50, offset: 0 })
          .then((r) => r.rows.find((x) => x.contractId === f.contractId && x.type === 'CLOSED')),
      (r) => r !== undefined,
      'the CLOSED row',
    );
    // realized = proceeds − basis = (value − what was kept) − basis: the jump is what the
    // exchange kept on the sell, its fee (and the cent it rounds the proceeds down by).
    const jump = sub(before, closed!.realizedPnl!);
    expect(dec(jump).minus(sold.cost!).abs().lte('0.01'), `jump ${jump}, fee ${sold.cost}`).toBe(
      true,
    );
  }, 120_000);
});
