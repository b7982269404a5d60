/**
 * The Markets list is the active account's exchange's, with the real parts: paper mode (the
 * sandbox in process, default seed) and a live account on a second sandbox with `seed: 7`,
 * whose fixtures overlap paper's in name (MUN v NEW on both). Run with
 * `bash build/test.sh test/main/app/markets-per-account.test.ts` (the keychain).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture, FixturesFilter } from '../../../src/shared/ipc/contract.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { addLiveAccount, AppHarness } from './support.js';

const ALL: FixturesFilter = { openOnly: false, limit: 100, offset: 0 };
const OPEN: FixturesFilter = { ...ALL, openOnly: true };
const app = new AppHarness('markets');
let seven: Sandbox;
/** The seed-7 exchange's contractIds, as it lists them. */
let sevenIds: string[];

beforeAll(async () => {
  seven = await startSandbox({ blockMs: 50, seed: 7 });
  const page = await seven.get<{ fixtures: Fixture[] }>('/fixtures?limit=100');
  sevenIds = page.body.fixtures.map((f) => f.contractId).sort();
});
afterAll(() => seven.close());
afterEach(app.cleanup);

const idsOf = (fixtures: Fixture[]) => fixtures.map((f) => f.contractId).sort();
const named = (fixtures: Fixture[], home: string, away: string) =>
  fixtures.filter((f) => f.homeTeam === home && f.awayTeam === away);

describe('the markets of two exchanges', () => {
  it('lists, dates and quotes only the active account’s; practice takes all paper lists', async () => {
    const { services } = await app.start();
    await expect.poll(async () => (await services.call('fixtures:list', ALL)).total).toBe(24);
    const paperIds = idsOf((await services.call('fixtures:list', ALL)).fixtures);
    const vgkTor = named((await services.call('fixtures:list', ALL)).fixtures, 'VGK', 'TOR')[0]!;
    await services.call('practice:price', {
      contractId: vgkTor.contractId,
      outcome: 'VGK',
      indexPrice: '0.07',
    });
    await expect
      .poll(
        async () => named((await services.call('fixtures:list', ALL)).fixtures, 'VGK', 'TOR')[0],
      )
      .toMatchObject({ homePrice: '0.0700' });

    const live = await addLiveAccount(services, seven, 'Seed seven');
    await services.call('accounts:switch', { accountId: live.id });
    // From the switch on, never one of paper's: empty until its own first sync, then its own.
    const first = await services.call('fixtures:list', ALL);
    expect(first.fixtures.filter((f) => paperIds.includes(f.contractId))).toEqual([]);
    await expect
      .poll(async () => idsOf((await services.call('fixtures:list', ALL)).fixtures))
      .toEqual(sevenIds);
    const page = await services.call('fixtures:list', ALL);
    expect(page.total).toBe(24);
    expect(named(page.fixtures, 'VGK', 'TOR')).toEqual([]);
    expect(named(page.fixtures, 'MUN', 'NEW')).toHaveLength(1);
    const session = services.session()!;
    expect(page.syncedAt).toBe(
      services.store.cursors.get(session.accountId, 'fixtures')!.lastSyncAt,
    );
    const munNew = named(page.fixtures, 'MUN', 'NEW')[0]!;
    const quoted = await services.call('quote:request', {
      contractId: munNew.contractId,
      outcome: 'MUN',
      side: 'BUY',
      qty: '2',
      unit: 'BASE',
      boost: 0,
    });
    expect(quoted.quote.rfqId).toMatch(/\S/);
    expect(quoted.quote.contracts).toBe(2);

    await services.call('accounts:switch', { accountId: null });
    const back = await services.call('fixtures:list', ALL);
    expect(idsOf(back.fixtures)).toEqual(paperIds);
    expect(named(back.fixtures, 'MUN', 'NEW')).toHaveLength(1);
    expect(named(back.fixtures, 'VGK', 'TOR')[0]).toMatchObject({ homePrice: '0.0700' });
    // Every fixture paper lists open is one its exchange knows: practice refuses none.
    for (const f of (await services.call('fixtures:list', OPEN)).fixtures) {
      const done = await services.call('practice:price', {
        contractId: f.contractId,
        outcome: f.homeTeam,
        indexPrice: f.homePrice,
      });
      expect(done.message).toContain(`${f.homeTeam} v ${f.awayTeam}`);
    }
  });
});
