/**
 * One wallet read by two keys (issue 28, item 9; docs/portfolio.md "One wallet, two keys"): a
 * trade key and a read key of one sandbox wallet added as two accounts, with the real parts (the
 * sandbox over HTTP, the store in a temp dir, the system keychain: run with
 * `bash build/test.sh test/main/app/same-wallet.test.ts`). The second key is recognised when it
 * is added, the accounts say so, and "All exchange accounts" counts the wallet once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import type { Account } from '../../../src/shared/ipc/contract.js';
import { add } from '../../../src/shared/money.js';
import { startSandbox, type Credentials, type Sandbox } from '../../exchange/harness.js';
import { AppHarness, marketBet, waitFor } from './support.js';

const app = new AppHarness('same-wallet');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 50, rateLimits: false });
});
afterAll(() => sandbox.close());
afterEach(app.cleanup);

const addKey = (services: AppServices, label: string, key: Credentials) =>
  services.call('accounts:add', {
    label,
    baseUrl: sandbox.url,
    apiKey: key.apiKey,
    secret: key.secret,
  });

/** Makes `account` the active one and syncs its orders, positions and settlements. */
async function syncAs(services: AppServices, account: Account): Promise<void> {
  await services.call('accounts:switch', { accountId: account.id });
  await services.session()!.engine.syncNow('orders', 'positions', 'settlements');
}

/**
 * As `account`: buys 3 on the home team and sells them (a CLOSED row), then buys 2 (an open
 * position); waits for each to fill.
 */
async function tradeAs(services: AppServices, account: Account, tag: string): Promise<void> {
  await services.call('accounts:switch', { accountId: account.id });
  const f = await sandbox.openFixture();
  for (const [n, side, qty] of [
    [1, 'BUY', '3'],
    [2, 'SELL', '3'],
    [3, 'BUY', '2'],
  ] as const) {
    const clientOrderId = `bd-same-wallet-${tag}-${n}`;
    await services.call('order:place', marketBet(f, { clientOrderId, side, qty }));
    await waitFor(
      async () => {
        await services.session()!.engine.syncNow('orders');
        return (await services.call('orders:get', { clientOrderId })).row;
      },
      (r) => r?.status === 'FILLED',
      `${clientOrderId} filled`,
    );
  }
  await waitFor(
    async () => {
      await services.session()!.engine.syncNow('positions', 'settlements');
      return services.store.settlements.query(Number(account.id), { limit: 10 }).settlements;
    },
    (rows) => rows.length > 0,
    `the CLOSED row of ${account.label}`,
  );
}

const sameWallet = async (services: AppServices) =>
  Object.fromEntries(
    (await services.call('accounts:list', {})).accounts.map((a) => [a.label, a.sameWalletAs]),
  );

describe('one wallet, two keys', () => {
  it('says so when the second key is added, and the Portfolio counts the wallet once', async () => {
    const { services } = await app.start();
    await services.call('status:get', {});
    const wallet = await sandbox.createWallet();
    const main = await addKey(
      services,
      'Main',
      await sandbox.newKey({ wallet, permission: 'trade' }),
    );
    expect(main.notice).toBeUndefined();
    await tradeAs(services, main, 'main');
    // Another wallet on the same exchange, with trades of its own: never taken for Main's.
    const other = await addKey(services, 'Other', await sandbox.newKey({ permission: 'trade' }));
    expect(other.notice).toBeUndefined();
    await tradeAs(services, other, 'other');

    const read = await addKey(
      services,
      'Main (read)',
      await sandbox.newKey({ wallet, permission: 'read' }),
    );
    expect(read.permission).toBe('read');
    expect(read.notice).toContain('This key reads the same wallet as "Main"');
    expect(read.sameWalletAs).toEqual(['Main']);

    await syncAs(services, read);
    const readRows = () =>
      services.store.settlements.query(Number(read.id), { limit: 10 }).settlements;
    await waitFor(
      () => Promise.resolve(readRows()),
      (r) => r.length > 0,
      'the read key synced',
    );
    expect(await sameWallet(services)).toEqual({
      Main: ['Main (read)'],
      Other: [],
      'Main (read)': ['Main'],
    });

    const scope = (accountId: string) => ({ scope: { kind: 'account' as const, accountId } });
    const one = await services.call('portfolio:view', scope(read.id));
    const others = await services.call('portfolio:view', scope(other.id));
    const live = await services.call('portfolio:view', { scope: { kind: 'live' } });
    // The read key's positions were read last: it is the one counted.
    expect(live.accounts.map((a) => a.label)).toEqual(['Other', 'Main (read)']);
    expect(live.sharedWallets).toEqual([
      {
        counted: { accountId: read.id, label: 'Main (read)' },
        others: [{ accountId: main.id, label: 'Main' }],
      },
    ]);
    expect(live.openPositions).toBe(one.openPositions + others.openPositions);
    expect(live.openPositions).toBe(2);
    expect(live.realized).toBe(add(one.realized, others.realized));
    expect(live.exposure.atRisk).toBe(add(one.exposure.atRisk, others.exposure.atRisk));
    expect(new Set(live.latest.map((l) => l.accountLabel))).toEqual(
      new Set(['Other', 'Main (read)']),
    );
    const series = await services.call('portfolio:equity', {
      scope: { kind: 'live' },
      period: 'day',
    });
    expect(series.points.at(-1)).toMatchObject({ realized: live.realized, equity: live.equity });

    // Removing one of the two leaves the wallet counted once, from the other.
    await services.call('accounts:remove', { accountId: read.id });
    const after = await services.call('portfolio:view', { scope: { kind: 'live' } });
    expect(after.accounts.map((a) => a.label)).toEqual(['Main', 'Other']);
    expect(after.sharedWallets).toEqual([]);
    expect(after.realized).toBe(live.realized);
  }, 120_000);

  it('recognises a key added before its wallet had any order, once both have synced', async () => {
    const { services } = await app.start();
    await services.call('status:get', {});
    const wallet = await sandbox.createWallet();
    const watcher = await addKey(
      services,
      'Watcher',
      await sandbox.newKey({ wallet, permission: 'read' }),
    );
    const trader = await addKey(
      services,
      'Trader',
      await sandbox.newKey({ wallet, permission: 'trade' }),
    );
    // Nothing to tell them apart by yet: the wallet has no order.
    expect(trader.notice).toBeUndefined();
    expect(await sameWallet(services)).toEqual({ Watcher: [], Trader: [] });

    await tradeAs(services, trader, 'trader');
    await syncAs(services, watcher);
    expect(await sameWallet(services)).toEqual({ Watcher: ['Trader'], Trader: ['Watcher'] });
    const live = await services.call('portfolio:view', { scope: { kind: 'live' } });
    expect(live.accounts).toHaveLength(1);
    expect(live.openPositions).toBe(1);
  }, 120_000);
});
