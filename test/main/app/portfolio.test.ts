/**
 * The Portfolio through the app's services, with the real parts: paper mode (the sandbox in
 * process) and two live accounts on two sandboxes over HTTP, the store in a temp dir and the
 * system keychain (run with `bash build/test.sh test/main/app/portfolio.test.ts`).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import { add } from '../../../src/shared/money.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { addLiveAccount, AppHarness, marketBet } from './support.js';

const app = new AppHarness('portfolio');
let one: Sandbox;
let two: Sandbox;

beforeAll(async () => {
  one = await startSandbox({ blockMs: 50, rateLimits: false });
  two = await startSandbox({ blockMs: 50, rateLimits: false, seed: 7 });
});
afterAll(async () => {
  await one.close();
  await two.close();
});
afterEach(app.cleanup);

/** Buys 2 contracts on `f` with the active account and waits until its positions hold them. */
async function holdOne(
  services: AppServices,
  f: { contractId: string; homeTeam: string },
  id: string,
): Promise<void> {
  await services.call('order:place', marketBet(f, { clientOrderId: id }));
  const session = services.session()!;
  await expect
    .poll(
      async () => {
        await session.engine.syncNow('orders', 'positions');
        return (await services.call('positions:list', {})).positions.length;
      },
      { timeout: 20_000 },
    )
    .toBe(1);
}

const costOf = (services: AppServices, accountId: number) =>
  services.store.positions.list(accountId).map((p) => p.costBasis);

describe('the portfolio', () => {
  it('adds up both exchange accounts for live, keeps paper apart, and keeps its points', async () => {
    const { services } = await app.start();
    await services.call('status:get', {});
    const paperId = services.session()!.accountId;
    const open = { openOnly: true, limit: 10, offset: 0 };
    await expect
      .poll(async () => (await services.call('fixtures:list', open)).total, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const paperFixtures = await services.call('fixtures:list', open);
    await holdOne(services, paperFixtures.fixtures[0]!, 'bd-portfolio-paper-1');

    const first = await addLiveAccount(services, one, 'First desk');
    await services.call('accounts:switch', { accountId: first.id });
    await holdOne(services, await one.openFixture(), 'bd-portfolio-one-1');
    const second = await addLiveAccount(services, two, 'Second desk');
    await services.call('accounts:switch', { accountId: second.id });
    await holdOne(services, await two.openFixture(), 'bd-portfolio-two-1');

    const live = await services.call('portfolio:view', { scope: { kind: 'live' } });
    expect(live.accounts.map((a) => [a.accountId, a.label])).toEqual([
      [first.id, 'First desk'],
      [second.id, 'Second desk'],
    ]);
    expect(live.openPositions).toBe(2);
    const liveCosts = [
      ...costOf(services, Number(first.id)),
      ...costOf(services, Number(second.id)),
    ];
    expect(live.exposure.atRisk).toBe(add('0', ...liveCosts));
    expect(live.exposure.worstCase).toBe(add('0', ...liveCosts.map((c) => `-${c}`)));
    expect(add('0', ...live.exposure.byLeague.map((g) => g.atRisk))).toBe(live.exposure.atRisk);
    expect(new Set(live.best.map((p) => p.accountLabel))).toEqual(
      new Set(['First desk', 'Second desk']),
    );

    const paper = await services.call('portfolio:view', { scope: { kind: 'paper' } });
    expect(paper.accounts.map((a) => a.accountId)).toEqual(['paper']);
    expect(paper.openPositions).toBe(1);
    expect(paper.exposure.atRisk).toBe(add('0', ...costOf(services, paperId)));
    expect(paper.best[0]).toMatchObject({ accountId: 'paper' });

    const justOne = await services.call('portfolio:view', {
      scope: { kind: 'account', accountId: first.id },
    });
    expect(justOne.exposure.atRisk).toBe(add('0', ...costOf(services, Number(first.id))));

    // Every positions read recorded a point; the series ends at the view's own figures.
    const series = await services.call('portfolio:equity', {
      scope: { kind: 'live' },
      period: 'day',
    });
    expect(series.points.at(-1)).toMatchObject({
      realized: live.realized,
      unrealized: live.unrealized,
      equity: live.equity,
    });
    const recorded = [Number(first.id), Number(second.id), paperId].map(
      (id) => services.store.equity.list(id).length,
    );
    expect(recorded.every((n) => n > 0)).toBe(true);
    const before = services.store.equity.list(Number(second.id));

    // After a restart, the points are still there, and the portfolio answers before any sync.
    await app.stop(services);
    const again = (await app.start()).services;
    expect(again.store.equity.list(Number(second.id)).slice(0, before.length)).toEqual(before);
    const after = await again.call('portfolio:equity', { scope: { kind: 'live' }, period: 'day' });
    const view = await again.call('portfolio:view', { scope: { kind: 'live' } });
    expect(view.openPositions).toBe(2);
    expect(view.exposure.atRisk).toBe(live.exposure.atRisk);
    expect(after.points.at(-1)?.equity).toBe(view.equity);
  });
});
